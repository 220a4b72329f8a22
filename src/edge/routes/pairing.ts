// Pairing: an authenticated device creates a code; a new device binds it and gets its token.
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { BindRequest } from "../../protocol/pairing.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { bindPairingCode, createPairingCode } from "../auth/pairing.ts";
import { TOKEN_TTL_MS } from "../auth/tokens.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { authenticate, SESSION_COOKIE } from "../middleware/auth.ts";
import { readJson } from "../middleware/validate.ts";

export const pairingRoutes = new Hono<AppEnv>()
  .post("/v1/pairing/code", authenticate(), async (c) => {
    const auth = c.get("auth");
    const db = openDb(c.env.DB);
    const { code, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, auth.userId);
    await writeAudit(db, {
      userId: auth.userId,
      deviceId: auth.deviceId,
      actor: `device:${auth.deviceId}`,
      event: "auth.pairing_code_created",
    });
    return c.json({ code, expires_at: new Date(expiresAt).toISOString() }, 201);
  })
  .post("/v1/pairing/bind", async (c) => {
    const body = await readJson(c, BindRequest);
    const client = c.req.header("cf-connecting-ip") ?? "local";
    const bound = await bindPairingCode(openDb(c.env.DB), c.env.TOKEN_PEPPER, body, client);
    if (body.kind === "browser") {
      setCookie(c, SESSION_COOKIE, bound.token, {
        httpOnly: true,
        secure: true,
        sameSite: "Strict",
        path: "/",
        maxAge: Math.floor(TOKEN_TTL_MS / 1000),
      });
    }
    return c.json(
      {
        device_id: bound.deviceId,
        user_id: bound.userId,
        token: bound.token,
        expires_at: new Date(bound.expiresAt).toISOString(),
      },
      201,
    );
  });
