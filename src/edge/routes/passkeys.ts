// Passkeys (WebAuthn, @simplewebauthn/server): register one for the account from an approver browser, list and
// remove them, and the step-up assertion that guarded actions need once one exists. User verification is required
// throughout; challenges are single use and expire in 5 minutes. The RP is the host the browser sees (the Worker, or
// the Pages domain whose Function forwards /v1/* here) unless a shared RP ID is configured (auth/relying-party.ts);
// each passkey keeps the RP ID it was made for, so a host with none of its own says where they work instead of
// letting the browser fail. Adding a passkey once one exists needs a step-up (a passkey's, or the recovery code's).
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import {
  Created,
  Deleted,
  PasskeyList,
  PasskeyParams,
  PasskeyRegisterRequest,
  StepUpRequest,
  StepUpToken,
  WebAuthnOptions,
} from "../../protocol/dashboard.ts";
import type { PasskeyElsewhere } from "../../protocol/passkey-hosts.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import { base64url, newId } from "../auth/crypto.ts";
import { type RelyingParty, relyingPartyFor } from "../auth/relying-party.ts";
import { grantStepUp } from "../auth/step-up.ts";
import type { Db } from "../db/client.ts";
import { openDb } from "../db/client.ts";
import { passkeys, users, webauthnChallenges } from "../db/schema.ts";
import type { AuthContext } from "../env.ts";
import { ApiError, notFound } from "../errors.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The account's passkeys that sign for `rp` (a passkey saved before RP IDs were kept may, so it is offered too). */
const signsFor = (rpId: string | null, rp: RelyingParty) => rpId === null || rpId === rp.rpID;

/** `signsFor` as a query: the account's passkeys a step-up on `rp` may use. */
function forRelyingParty(db: Db, userId: string, rp: RelyingParty) {
  return db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), or(eq(passkeys.rpId, rp.rpID), isNull(passkeys.rpId))));
}

/** 409 when the account has passkeys but none for this host: details say where they work. */
async function notForThisHost(db: Db, userId: string, rp: RelyingParty) {
  const all = await db
    .select({ rpId: passkeys.rpId, origin: passkeys.origin })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  const byHost = new Map(all.map((p) => [`${p.rpId} ${p.origin}`, { rp_id: p.rpId, origin: p.origin }]));
  const registered = [...byHost.values()];
  const where = registered.map((h) => h.origin ?? h.rp_id).join(", ");
  return new ApiError(
    409,
    "passkey_not_for_this_host",
    `No passkey of this account works on ${rp.rpID}: they were registered on ${where}. Open Airlock there, or use the recovery code here (then add a passkey for this host).`,
    { details: { rp_id: rp.rpID, registered } satisfies PasskeyElsewhere },
  );
}

async function saveChallenge(db: Db, auth: AuthContext, purpose: "register" | "step_up", challenge: string) {
  // One live challenge per device and purpose: a new one replaces the old.
  await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.deviceId, auth.deviceId), eq(webauthnChallenges.purpose, purpose)));
  await db.insert(webauthnChallenges).values({
    id: newId("wch"),
    userId: auth.userId,
    deviceId: auth.deviceId,
    purpose,
    challenge,
    expiresAt: Date.now() + CHALLENGE_TTL_MS,
  });
}

/** Takes (deletes) the device's live challenge for `purpose`; undefined if none or expired. */
async function takeChallenge(db: Db, auth: AuthContext, purpose: "register" | "step_up") {
  const rows = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.deviceId, auth.deviceId),
        eq(webauthnChallenges.userId, auth.userId),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, Date.now()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return rows[0]?.challenge;
}

const refused = (message: string) => new ApiError(400, "bad_request", message);

export const passkeyRoutes = routeGroup()
  .openapi(
    apiRoute("manage_passkeys", {
      method: "get",
      path: "/v1/passkeys",
      summary: "The account's passkeys",
      responses: { 200: json("Passkeys.", PasskeyList) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const rows = await openDb(c.env.DB).select().from(passkeys).where(eq(passkeys.userId, auth.userId));
      const rp = relyingPartyFor(c.env, c.req.url);
      return c.json(
        {
          passkeys: rows.map((p) => ({
            id: p.id,
            name: p.name,
            device_id: p.deviceId,
            rp_id: p.rpId,
            origin: p.origin,
            signs_here: signsFor(p.rpId, rp),
            created_at: new Date(p.createdAt).toISOString(),
            last_used_at: p.lastUsedAt ? new Date(p.lastUsedAt).toISOString() : null,
          })),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute(
      "manage_passkeys",
      {
        method: "post",
        path: "/v1/passkeys/register/options",
        summary: "WebAuthn registration options (user verification required)",
        description:
          "Once the account has a passkey, adding another needs a step-up: a passkey's, or the recovery code's (POST /v1/recovery/step-up) on a host where none works.",
        responses: { 200: json("PublicKeyCredentialCreationOptionsJSON.", WebAuthnOptions) },
      },
      { stepUp: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const user = (await db.select().from(users).where(eq(users.id, auth.userId)).limit(1))[0];
      const { rpID } = relyingPartyFor(c.env, c.req.url);
      const existing = await forRelyingParty(db, auth.userId, { rpID, origin: "" });
      const options = await generateRegistrationOptions({
        rpName: "Airlock",
        rpID,
        userName: user?.name ?? "owner",
        userID: Uint8Array.from(new TextEncoder().encode(auth.userId)),
        attestationType: "none",
        excludeCredentials: existing.map((p) => ({ id: p.id })),
        authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
      });
      await saveChallenge(db, auth, "register", options.challenge);
      return c.json(options as unknown as Record<string, unknown>, 200);
    },
  )
  .openapi(
    apiRoute("manage_passkeys", {
      method: "post",
      path: "/v1/passkeys/register",
      summary: "Verify and save a passkey registration",
      request: jsonRequest(PasskeyRegisterRequest),
      responses: { 201: json("Saved.", Created) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      const db = openDb(c.env.DB);
      const challenge = await takeChallenge(db, auth, "register");
      if (!challenge) throw refused("No registration in progress (or it expired): ask for options again.");
      const { rpID, origin } = relyingPartyFor(c.env, c.req.url);
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          // The browser's JSON is checked field by field by the library; zod only bounded its size and shape.
          response: body.response as unknown as Parameters<typeof verifyRegistrationResponse>[0]["response"],
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        throw refused(
          `The passkey could not be verified: ${error instanceof Error ? error.message : "invalid"}.`,
        );
      }
      if (!verified.verified) throw refused("The passkey could not be verified.");
      const { credential } = verified.registrationInfo;
      await db.insert(passkeys).values({
        id: credential.id,
        userId: auth.userId,
        deviceId: auth.deviceId,
        name: body.name,
        publicKey: base64url(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ? JSON.stringify(credential.transports) : null,
        rpId: rpID,
        origin,
        createdAt: Date.now(),
      });
      await auditDeviceAction(c, "auth.passkey_registered", credential.id, { rp_id: rpID, origin });
      return c.json({ id: credential.id }, 201);
    },
  )
  .openapi(
    apiRoute("manage_passkeys", {
      method: "post",
      path: "/v1/passkeys/step-up/options",
      summary: "WebAuthn assertion options for a step-up (user verification required)",
      responses: {
        200: json("PublicKeyCredentialRequestOptionsJSON.", WebAuthnOptions),
        404: problem("No passkey is registered."),
        409: problem(
          "passkey_not_for_this_host: none of the account's passkeys signs for this host; details (PasskeyElsewhere) say where they do.",
        ),
      },
    }),
    async (c) => {
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const rp = relyingPartyFor(c.env, c.req.url);
      const existing = await forRelyingParty(db, auth.userId, rp);
      if (!existing.length) {
        const any = await db
          .select({ id: passkeys.id })
          .from(passkeys)
          .where(eq(passkeys.userId, auth.userId));
        if (!any.length) throw notFound("No passkey is registered on this account.");
        throw await notForThisHost(db, auth.userId, rp);
      }
      const options = await generateAuthenticationOptions({
        rpID: rp.rpID,
        allowCredentials: existing.map((p) => ({ id: p.id })),
        userVerification: "required",
      });
      await saveChallenge(db, auth, "step_up", options.challenge);
      return c.json(options as unknown as Record<string, unknown>, 200);
    },
  )
  .openapi(
    apiRoute("manage_passkeys", {
      method: "post",
      path: "/v1/passkeys/step-up",
      summary: "Verify a fresh assertion; answers a single-use step-up token for this device (2 minutes)",
      request: jsonRequest(StepUpRequest),
      responses: { 201: json("The token for X-Airlock-Step-Up.", StepUpToken) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      const db = openDb(c.env.DB);
      const challenge = await takeChallenge(db, auth, "step_up");
      if (!challenge) throw refused("No step-up in progress (or it expired): ask for options again.");
      const credentialId = typeof body.response.id === "string" ? body.response.id : "";
      const { rpID, origin } = relyingPartyFor(c.env, c.req.url);
      const stored = (await forRelyingParty(db, auth.userId, { rpID, origin })).find(
        (p) => p.id === credentialId,
      );
      if (!stored) throw refused(`That passkey is not registered on this account for ${rpID}.`);
      let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        verified = await verifyAuthenticationResponse({
          response: body.response as unknown as Parameters<
            typeof verifyAuthenticationResponse
          >[0]["response"],
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: stored.id,
            publicKey: Uint8Array.from(
              atob(stored.publicKey.replaceAll("-", "+").replaceAll("_", "/")),
              (ch) => ch.charCodeAt(0),
            ),
            counter: stored.counter,
          },
        });
      } catch (error) {
        throw refused(`The passkey check failed: ${error instanceof Error ? error.message : "invalid"}.`);
      }
      if (!verified.verified) throw refused("The passkey check failed.");
      await db
        .update(passkeys)
        .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: Date.now() })
        .where(eq(passkeys.id, stored.id));
      return c.json(await grantStepUp(db, auth, { target: stored.id }), 201);
    },
  )
  .openapi(
    apiRoute(
      "manage_passkeys",
      {
        method: "delete",
        path: "/v1/passkeys/{id}",
        summary: "Remove a passkey",
        request: { params: PasskeyParams },
        responses: { 200: json("Removed.", Deleted), 404: problem("No such passkey.") },
      },
      { stepUp: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const { id } = c.req.valid("param");
      const db = openDb(c.env.DB);
      const removed = await db
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, auth.userId)))
        .returning({ id: passkeys.id });
      if (!removed.length) throw notFound(`No passkey ${id} on this account.`);
      await auditDeviceAction(c, "auth.passkey_removed", id);
      return c.json({ deleted: true }, 200);
    },
  );
