// Connecting, start to finish: `startConnection` (the phone asks; a state, a PKCE verifier and a browser binding
// are made and kept at the edge) and `finishConnection` (the provider sends the browser back; the state is spent,
// checked against the binding and the device that started it, the code traded, the tokens sealed and stored).
import { and, eq, gt, isNull } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import type { ConnectorIdentity, ConnectorProvider, StartConnection } from "../../../protocol/connections.ts";
import { writeAudit } from "../../audit/audit-log.ts";
import { base64url, constantTimeEqual, randomBytes, sha256Hex } from "../../auth/crypto.ts";
import type { Db } from "../../db/client.ts";
import { authTokens, devices } from "../../db/schema.ts";
import { ApiError, conflict, forbidden } from "../../errors.ts";
import { findConnection, saveConnection, scopesOf } from "../store.ts";
import { type KeyRing, KeyRingError, keyRing } from "./cipher.ts";
import { accountOf, authorizationUrl, exchangeCode, ProviderError, revokeAtProvider } from "./client.ts";
import { clientCredentials } from "./config.ts";
import { scopesFor } from "./providers.ts";
import { consumeAuthorization, saveAuthorization } from "./states.ts";

/** Who is connecting: the approver device and the token it called with (the state is bound to both). */
export interface Starter {
  userId: string;
  deviceId: string;
  tokenId: string;
}

export function callbackUri(requestUrl: string, provider: ConnectorProvider): string {
  return `${new URL(requestUrl).origin}/v1/connections/callback/${provider}`;
}

async function ringOrRefuse(env: Env): Promise<KeyRing> {
  try {
    return await keyRing(env.AIRLOCK_OAUTH_KEYS);
  } catch (error) {
    if (error instanceof KeyRingError) {
      throw conflict(`Connections are not set up on this server: ${error.message}. See docs/connectors.md.`);
    }
    throw error;
  }
}

function credentialsOrRefuse(env: Env, provider: ConnectorProvider) {
  const credentials = clientCredentials(env, provider);
  if (!credentials) {
    const name = provider.toUpperCase();
    throw conflict(
      `${provider} is not set up on this server: set AIRLOCK_${name}_CLIENT_ID and AIRLOCK_${name}_CLIENT_SECRET.`,
    );
  }
  return credentials;
}

export async function startConnection(
  env: Env,
  db: Db,
  starter: Starter,
  request: StartConnection & { requestUrl: string },
  now: number,
) {
  const credentials = credentialsOrRefuse(env, request.provider);
  const ring = await ringOrRefuse(env);
  const existing = await findConnection(db, starter.userId, request.provider, request.identity);
  const scopes = scopesFor(request.provider, request.capabilities, existing ? scopesOf(existing) : []);
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  const binding = base64url(randomBytes(32));
  const redirectUri = callbackUri(request.requestUrl, request.provider);
  const expiresAt = await saveAuthorization(db, ring, {
    ...starter,
    provider: request.provider,
    identity: request.identity,
    scopes,
    redirectUri,
    state,
    binding,
    verifier,
    now,
  });
  const url = await authorizationUrl(request.provider, credentials, { state, verifier, redirectUri, scopes });
  return { url, scopes, expiresAt, binding };
}

/** Whether the device and token that started the authorization are still live approvers. */
async function starterStillLive(db: Db, starter: Starter, now: number): Promise<boolean> {
  const row = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .innerJoin(devices, eq(devices.id, authTokens.deviceId))
    .where(
      and(
        eq(authTokens.id, starter.tokenId),
        eq(authTokens.deviceId, starter.deviceId),
        eq(authTokens.userId, starter.userId),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, now),
        isNull(devices.revokedAt),
        eq(devices.role, "approver"),
      ),
    )
    .get();
  return row !== undefined;
}

export interface Finished {
  id: string;
  provider: ConnectorProvider;
  identity: ConnectorIdentity;
  account: string;
  scopes: string[];
}

const badCallback = (message: string) => new ApiError(400, "bad_request", message);

export async function finishConnection(
  env: Env,
  db: Db,
  callback: { provider: ConnectorProvider; params: URLSearchParams; binding: string | undefined },
  now: number,
): Promise<Finished> {
  const state = callback.params.get("state");
  if (!state) throw badCallback("The callback has no state: start connecting again from the phone.");
  const ring = await ringOrRefuse(env);
  // Spent before anything else is checked: whatever happens next, this state never works again.
  const pending = await consumeAuthorization(db, ring, state, now);
  if (!pending || pending.provider !== callback.provider) {
    throw badCallback("This sign-in link is unknown, used or expired (ten minutes): start connecting again.");
  }
  const presented = callback.binding ? await sha256Hex(callback.binding) : "";
  if (!constantTimeEqual(presented, pending.bindingHash)) {
    throw forbidden("This sign-in was started in another browser: finish it where it started.");
  }
  if (!(await starterStillLive(db, pending, now))) {
    throw forbidden("The device that started this sign-in was revoked or signed out.");
  }
  const credentials = credentialsOrRefuse(env, pending.provider);
  try {
    const grant = await exchangeCode(pending.provider, credentials, {
      params: callback.params,
      state,
      verifier: pending.verifier,
      redirectUri: pending.redirectUri,
    });
    const account = await accountOf(pending.provider, grant);
    const saved = await saveConnection(db, ring, {
      userId: pending.userId,
      provider: pending.provider,
      identity: pending.identity,
      account,
      asked: pending.scopes,
      grant,
      now,
    });
    await writeAudit(db, {
      userId: pending.userId,
      deviceId: pending.deviceId,
      actor: `device:${pending.deviceId}`,
      event: "connection.connected",
      target: saved.id,
      details: { provider: pending.provider, identity: pending.identity, account, scopes: saved.scopes },
    });
    if (saved.replaced) {
      // Another account held this identity's place: its grant goes at the provider too (best effort).
      const old = saved.replaced;
      await revokeAtProvider(old.row.provider, credentials, old.refreshToken ?? old.accessToken).catch(
        () => undefined,
      );
    }
    return {
      id: saved.id,
      provider: pending.provider,
      identity: pending.identity,
      account,
      scopes: saved.scopes,
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    await writeAudit(db, {
      userId: pending.userId,
      deviceId: pending.deviceId,
      actor: `device:${pending.deviceId}`,
      event: "connection.failed",
      details: { provider: pending.provider, identity: pending.identity, code: error.code },
    });
    if (error.kind === "unavailable") {
      throw new ApiError(502, "unavailable", `${error.message} Try connecting again in a minute.`);
    }
    throw badCallback(`${error.message} Nothing was connected.`);
  }
}
