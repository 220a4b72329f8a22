// The parity check's routes: an approver (or the recovery code) mints a short-lived read-only parity token, and a
// probe answers with a cookie carrying the session cookie's attributes, so `npm run parity` compares them across URLs
// without pairing, revoking or writing anything.
import { setCookie } from "hono/cookie";
import { z } from "zod";
import { ParityToken, ParityTokenRequest, RecoveryParityTokenRequest } from "../../protocol/parity-token.ts";
import { PARITY_TOKEN_ACTIONS } from "../../protocol/roles.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { mintParityToken, RECOVERY_MINTER } from "../auth/parity-token.ts";
import { recoveryCodeUser } from "../auth/recovery-guard.ts";
import { sessionCookieOptions } from "../auth/session-cookie.ts";
import { openDb } from "../db/client.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

/** The probe cookie's name: never the session cookie, so the probe can never sign a browser out or in. */
export const PARITY_PROBE_COOKIE = "airlock_parity_probe";

const answer = (minted: { token: string; expiresAt: number }) => ({
  token: minted.token,
  expires_at: new Date(minted.expiresAt).toISOString(),
  read_only: true as const,
  actions: [...PARITY_TOKEN_ACTIONS],
});

export const parityRoutes = routeGroup()
  .openapi(
    apiRoute("mint_parity_tokens", {
      method: "post",
      path: "/v1/parity/token",
      summary: "Mint a read-only parity token (1–60 minutes, default 15) for npm run parity",
      request: jsonRequest(ParityTokenRequest),
      responses: { 201: json("The token, shown only here, and the reads it allows.", ParityToken) },
    }),
    async (c) => {
      const { ttl_minutes } = c.req.valid("json");
      const auth = c.get("auth");
      const minted = await mintParityToken(
        c.env.TOKEN_PEPPER,
        auth.userId,
        auth.deviceId,
        ttl_minutes * 60_000,
      );
      await writeAudit(openDb(c.env.DB), {
        userId: auth.userId,
        deviceId: auth.deviceId,
        actor: `device:${auth.deviceId}`,
        event: "auth.parity_token_minted",
        details: { ttl_minutes },
      });
      return c.json(answer(minted), 201);
    },
  )
  .openapi(
    apiRoute("public", {
      method: "post",
      path: "/v1/recovery/parity-token",
      summary: "Mint a read-only parity token with the recovery code",
      description:
        "For a fresh deployment with no approver machine: `airlock devices token --recovery-code`. Wrong codes count toward the same lockout as recovery pairing (audited in aggregate).",
      request: jsonRequest(RecoveryParityTokenRequest),
      responses: {
        201: json("The token, shown only here, and the reads it allows.", ParityToken),
        401: problem("Wrong recovery code."),
        429: problem("rate_limited: too many wrong recovery codes from this client (see Retry-After)."),
      },
    }),
    async (c) => {
      const { recovery_code, ttl_minutes } = c.req.valid("json");
      const db = openDb(c.env.DB);
      const userId = await recoveryCodeUser(c.env, db, c.req.raw.headers, recovery_code);
      const minted = await mintParityToken(c.env.TOKEN_PEPPER, userId, RECOVERY_MINTER, ttl_minutes * 60_000);
      await writeAudit(db, {
        userId,
        actor: "recovery",
        event: "auth.parity_token_minted",
        details: { ttl_minutes, via: "recovery_code" },
      });
      return c.json(answer(minted), 201);
    },
  )
  .openapi(
    apiRoute("probe_session_cookie", {
      method: "get",
      path: "/v1/parity/cookie",
      summary: "Set a probe cookie with the session cookie's attributes (the parity check compares them)",
      responses: {
        200: json("The probe cookie's name.", z.object({ cookie: z.literal(PARITY_PROBE_COOKIE) })),
      },
    }),
    (c) => {
      setCookie(c, PARITY_PROBE_COOKIE, "1", sessionCookieOptions(c.env));
      return c.json({ cookie: PARITY_PROBE_COOKIE } as const, 200);
    },
  );
