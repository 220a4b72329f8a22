// Passkeys across hosts: the related-origins document browsers fetch from the RP ID's host, and the recovery code as
// a one-time stand-in for a passkey where none works (another host, an IP address, a lost authenticator). The code
// is used up by the step-up it buys: a new one is set and shown once, so a code seen over a shoulder works only once.
import { RecoveryStepUp, RecoveryStepUpRequest, RelatedOrigins } from "../../protocol/passkey-hosts.ts";
import { clientAddress } from "../auth/client-address.ts";
import { consumeRecoveryCode } from "../auth/recovery.ts";
import { RECOVERY_MAX_FAILURES, RecoveryGuard, recoveryCodeUser } from "../auth/recovery-guard.ts";
import { relatedOrigins, sharedRpId } from "../auth/relying-party.ts";
import { grantStepUp } from "../auth/step-up.ts";
import { openDb } from "../db/client.ts";
import { ApiError, notFound } from "../errors.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const wrongCode = () =>
  new ApiError(
    401,
    "unauthenticated",
    "That recovery code is wrong, or it was already used. Nothing was changed.",
  );

export const passkeyHostRoutes = routeGroup()
  .openapi(
    apiRoute("public", {
      method: "get",
      path: "/.well-known/webauthn",
      summary: "WebAuthn related origins: the origins that may use this deployment's one passkey RP ID",
      description:
        "Set AIRLOCK_PASSKEY_RP_ID and AIRLOCK_PASSKEY_ORIGINS; browsers fetch this from https://<RP ID>/.well-known/webauthn when a listed origin asks for that RP ID (WebAuthn Level 3, §5.11). 404 when not configured.",
      responses: {
        200: json("The related origins.", RelatedOrigins),
        404: problem("No shared RP ID or no related origins are configured."),
      },
    }),
    (c) => {
      const origins = relatedOrigins(c.env);
      if (!sharedRpId(c.env) || origins.length === 0)
        throw notFound("No related origins: AIRLOCK_PASSKEY_RP_ID and AIRLOCK_PASSKEY_ORIGINS are not set.");
      // Public, fetched without credentials by browsers: cacheable for a few minutes.
      c.header("Cache-Control", "public, max-age=300");
      return c.json({ origins }, 200);
    },
  )
  .openapi(
    apiRoute("manage_recovery", {
      method: "post",
      path: "/v1/recovery/step-up",
      summary: "Use the recovery code once in place of a passkey step-up (the code is replaced)",
      description: `For a guarded action where no passkey works (another host, an IP address, a lost authenticator). Answers a step-up token like a passkey's (single use, 2 minutes, this device) and the new recovery code, shown only here: the presented one never works again. A wrong code changes nothing and counts against this client (${RECOVERY_MAX_FAILURES} in 15 minutes lock it out, 429).`,
      request: jsonRequest(RecoveryStepUpRequest),
      responses: {
        201: json("The step-up token and the new recovery code.", RecoveryStepUp),
        401: problem("Wrong or already used recovery code."),
        429: problem("rate_limited: too many wrong recovery codes from this client (see Retry-After)."),
      },
    }),
    async (c) => {
      const auth = c.get("auth");
      const { recovery_code } = c.req.valid("json");
      const db = openDb(c.env.DB);
      const owner = await recoveryCodeUser(c.env, db, c.req.raw.headers, recovery_code).catch((error) => {
        throw error instanceof ApiError && error.status === 401 ? wrongCode() : error;
      });
      if (owner !== auth.userId) {
        await new RecoveryGuard(db, c.env.TOKEN_PEPPER).failed(clientAddress(c.env, c.req.raw.headers));
        throw wrongCode();
      }
      // Compare-and-replace: of two requests racing with one code, only one gets the step-up.
      const next = await consumeRecoveryCode(db, c.env.TOKEN_PEPPER, auth.userId, recovery_code);
      if (!next) throw wrongCode();
      const granted = await grantStepUp(db, auth, {
        details: { via: "recovery_code", recovery_code_replaced: true },
      });
      return c.json({ ...granted, recovery_code: next }, 201);
    },
  );
