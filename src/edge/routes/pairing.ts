// Pairing: an approver (or the recovery code) mints a code that carries a role; a new device binds it.
import { setCookie } from "hono/cookie";
import {
  BindRequest,
  BindResponse,
  MintCodeRequest,
  PairingCode,
  RecoveryCode,
  RecoveryMintRequest,
} from "../../protocol/pairing.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { clientAddress } from "../auth/client-address.ts";
import { bindPairingCode, createPairingCode } from "../auth/pairing.ts";
import { rotateRecoveryCode } from "../auth/recovery.ts";
import { RECOVERY_MAX_FAILURES, recoveryCodeUser } from "../auth/recovery-guard.ts";
import { sessionCookieOptions } from "../auth/session-cookie.ts";
import { openDb } from "../db/client.ts";
import { SESSION_COOKIE } from "../middleware/auth.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export const pairingRoutes = routeGroup()
  .openapi(
    apiRoute("mint_pairing_codes", {
      method: "post",
      path: "/v1/pairing/code",
      summary: "Mint a pairing code for a new device, of the role it will have",
      request: jsonRequest(MintCodeRequest),
      responses: { 201: json("An 8-digit code: 10 minutes, single use.", PairingCode) },
    }),
    async (c) => {
      const { role } = c.req.valid("json");
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const { code, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, auth.userId, role);
      await writeAudit(db, {
        userId: auth.userId,
        deviceId: auth.deviceId,
        actor: `device:${auth.deviceId}`,
        event: "auth.pairing_code_created",
        details: { role },
      });
      return c.json({ code, role, expires_at: iso(expiresAt) }, 201);
    },
  )
  .openapi(
    apiRoute("public", {
      method: "post",
      path: "/v1/recovery/pairing-code",
      summary: "Mint a pairing code with the recovery code (default role: approver)",
      description: `For when no approver device is at hand: the first phone, a lost phone, or \`airlock devices pair --recovery-code\`. A client that sends ${RECOVERY_MAX_FAILURES} wrong codes in 15 minutes is locked out (429) until the window ends; wrong codes are audited as one aggregated row at 1, 10, 100, … per window.`,
      request: jsonRequest(RecoveryMintRequest),
      responses: {
        201: json("An 8-digit code of the asked role.", PairingCode),
        401: problem("Wrong recovery code."),
        429: problem("rate_limited: too many wrong recovery codes from this client (see Retry-After)."),
      },
    }),
    async (c) => {
      const { recovery_code, role } = c.req.valid("json");
      const db = openDb(c.env.DB);
      const userId = await recoveryCodeUser(c.env, db, c.req.raw.headers, recovery_code);
      const { code, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, userId, role);
      await writeAudit(db, {
        userId,
        actor: "recovery",
        event: "auth.pairing_code_created",
        details: { role, via: "recovery_code" },
      });
      return c.json({ code, role, expires_at: iso(expiresAt) }, 201);
    },
  )
  .openapi(
    apiRoute("manage_recovery", {
      method: "post",
      path: "/v1/recovery/rotate",
      summary: "Replace the recovery code (the old one stops working)",
      responses: { 201: json("The new recovery code, shown only here.", RecoveryCode) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const recovery = await rotateRecoveryCode(db, c.env.TOKEN_PEPPER, auth.userId);
      await writeAudit(db, {
        userId: auth.userId,
        deviceId: auth.deviceId,
        actor: `device:${auth.deviceId}`,
        event: "auth.recovery_rotated",
      });
      return c.json({ recovery_code: recovery }, 201);
    },
  )
  .openapi(
    apiRoute("public", {
      method: "post",
      path: "/v1/pairing/bind",
      summary: "Bind a pairing code to this new device and get its token",
      description:
        "The code decides the role: approver codes bind only `kind: browser` (which also gets the session cookie), companion codes only `kind: companion`.",
      request: jsonRequest(BindRequest),
      responses: {
        201: json("The device and its token (shown only here).", BindResponse),
        401: problem("Wrong, expired or used code."),
        409: problem("The code's role does not fit this kind of device (the code stays usable)."),
        429: problem("Too many wrong codes from this client, or against this code (Retry-After)."),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const db = openDb(c.env.DB);
      const bound = await bindPairingCode(
        db,
        c.env.TOKEN_PEPPER,
        body,
        clientAddress(c.env, c.req.raw.headers),
      );
      if (body.kind === "browser") {
        setCookie(c, SESSION_COOKIE, bound.token, sessionCookieOptions(c.env));
      }
      return c.json(
        {
          device_id: bound.deviceId,
          user_id: bound.userId,
          token: bound.token,
          expires_at: iso(bound.expiresAt),
          role: bound.role,
        },
        201,
      );
    },
  );
