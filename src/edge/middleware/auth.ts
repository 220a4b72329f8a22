// Resolves the caller from a bearer token (companions, scripts) or the session cookie (browsers).
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { isParityToken, verifyParityToken } from "../auth/parity-token.ts";
import { verifyToken } from "../auth/tokens.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { forbidden, unauthenticated } from "../errors.ts";
import { allowedOrigins } from "./cors.ts";

export const SESSION_COOKIE = "airlock_session";
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export function presentedToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1];
}

export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bearer = presentedToken(c.req.header("authorization"));
    const cookie = bearer ? undefined : getCookie(c, SESSION_COOKIE);
    const token = bearer ?? cookie;
    if (!token) throw unauthenticated();
    if (cookie && !safeMethods.has(c.req.method)) {
      // Cookie-authenticated writes must come from an allowed origin (defence beside SameSite=Strict).
      const origin = c.req.header("origin");
      if (!origin || !allowedOrigins(c.env, c.req.url).has(origin)) {
        throw forbidden(
          "Cookie-authenticated requests that change state must come from the dashboard's origin.",
        );
      }
    }
    if (bearer && isParityToken(bearer)) {
      const parity = await verifyParityToken(openDb(c.env.DB), c.env.TOKEN_PEPPER, bearer);
      if (!parity)
        throw unauthenticated(
          "The parity token is invalid or expired, or the device that minted it was revoked.",
        );
      // The minter's authority, narrowed to reads by `readOnly` (authorize refuses every other action).
      c.set("auth", {
        userId: parity.userId,
        deviceId: parity.minter,
        deviceKind: "browser",
        role: "approver",
        tokenId: "parity",
        via: "bearer",
        readOnly: true,
      });
      await next();
      return;
    }
    const verified = await verifyToken(openDb(c.env.DB), c.env.TOKEN_PEPPER, token);
    if (!verified) throw unauthenticated("The token is invalid, expired or revoked. Pair this device again.");
    c.set("auth", {
      userId: verified.userId,
      deviceId: verified.deviceId,
      deviceKind: verified.deviceKind,
      role: verified.role,
      tokenId: verified.tokenId,
      via: bearer ? "bearer" : "cookie",
    });
    await next();
  };
}
