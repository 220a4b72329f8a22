// Authorizations under way. `start` keeps the PKCE verifier (sealed) and hashes of the state and of the browser
// binding cookie; `consume` deletes the row as it reads it, so a state works once, and only for ten minutes.
import { and, eq, gt, lt } from "drizzle-orm";
import { z } from "zod";
import type { ConnectorIdentity, ConnectorProvider } from "../../../protocol/connections.ts";
import { sha256Hex } from "../../auth/crypto.ts";
import type { Db } from "../../db/client.ts";
import { oauthStates } from "../../db/schema.ts";
import { type KeyRing, open, seal } from "./cipher.ts";

export const STATE_TTL_MS = 10 * 60_000;

export interface PendingAuthorization {
  userId: string;
  deviceId: string;
  tokenId: string;
  provider: ConnectorProvider;
  identity: ConnectorIdentity;
  scopes: string[];
  redirectUri: string;
}

const verifierContext = (stateHash: string) => `oauth_states:${stateHash}:verifier`;

export async function saveAuthorization(
  db: Db,
  ring: KeyRing,
  pending: PendingAuthorization & { state: string; binding: string; verifier: string; now: number },
): Promise<number> {
  const stateHash = await sha256Hex(pending.state);
  const expiresAt = pending.now + STATE_TTL_MS;
  // Abandoned authorizations are swept as new ones start: the table holds at most ten minutes of them.
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, pending.now));
  await db.insert(oauthStates).values({
    stateHash,
    userId: pending.userId,
    deviceId: pending.deviceId,
    tokenId: pending.tokenId,
    provider: pending.provider,
    identity: pending.identity,
    scopes: JSON.stringify(pending.scopes),
    bindingHash: await sha256Hex(pending.binding),
    keyId: ring.current.id,
    verifierSealed: await seal(ring, pending.verifier, verifierContext(stateHash)),
    redirectUri: pending.redirectUri,
    expiresAt,
  });
  return expiresAt;
}

/** The authorization `state` names, deleted as it is read; null when unknown, used or expired. */
export async function consumeAuthorization(
  db: Db,
  ring: KeyRing,
  state: string,
  now: number,
): Promise<(PendingAuthorization & { bindingHash: string; verifier: string }) | null> {
  const stateHash = await sha256Hex(state);
  const [row] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.stateHash, stateHash), gt(oauthStates.expiresAt, now)))
    .returning();
  if (!row) return null;
  return {
    userId: row.userId,
    deviceId: row.deviceId,
    tokenId: row.tokenId,
    provider: row.provider,
    identity: row.identity,
    scopes: z.array(z.string()).parse(JSON.parse(row.scopes)),
    redirectUri: row.redirectUri,
    bindingHash: row.bindingHash,
    verifier: await open(ring, row.keyId, row.verifierSealed, verifierContext(stateHash)),
  };
}
