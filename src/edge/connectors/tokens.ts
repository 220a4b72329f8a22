// ConnectionTokens (port.ts) backed by D1: the live access token of one identity's connection, refreshed when it
// has expired or the provider said 401, with the provider's rotated refresh token stored. The connector tools call
// `connectionTokens(env)`; they never see a refresh token or the table.
import { writeAudit } from "../audit/audit-log.ts";
import { openDb } from "../db/client.ts";
import { keyRing } from "./oauth/cipher.ts";
import { ProviderError, refreshGrant } from "./oauth/client.ts";
import { clientCredentials } from "./oauth/config.ts";
import type { ConnectionAccess, ConnectionTokens, ConnectorIdentity, ConnectorProvider } from "./port.ts";
import {
  type ConnectionRow,
  connectionById,
  findConnection,
  markBroken,
  markUsed,
  type OpenedConnection,
  openConnection,
  reseal,
  storeRefreshed,
} from "./store.ts";

/** An access token this close to its expiry is refreshed first: a call must not start with a dying token. */
export const EXPIRY_MARGIN_MS = 60_000;

/** The provider could not be asked (down, timing out, not configured): the connection is fine, try again later. */
export class ConnectionUnavailable extends Error {}

function accessOf(row: ConnectionRow, accessToken: string, scopes: string[]): ConnectionAccess {
  return {
    connectionId: row.id,
    provider: row.provider,
    identity: row.identity,
    account: row.account,
    accessToken,
    scopes,
  };
}

export function connectionTokens(env: Env, clock: () => number = Date.now): ConnectionTokens {
  const db = openDb(env.DB);

  const broken = async (row: ConnectionRow, reason: string): Promise<null> => {
    await markBroken(db, row, clock());
    await writeAudit(db, {
      userId: row.userId,
      actor: "system",
      event: "connection.broken",
      target: row.id,
      details: { provider: row.provider, identity: row.identity, account: row.account, reason },
    });
    return null;
  };

  const refresh = async (opened: OpenedConnection): Promise<ConnectionAccess | null> => {
    const { row } = opened;
    if (opened.refreshToken === null) return broken(row, "no_refresh_token");
    const credentials = clientCredentials(env, row.provider);
    if (!credentials) throw new ConnectionUnavailable(`${row.provider} OAuth client is not configured`);
    let grant: Awaited<ReturnType<typeof refreshGrant>>;
    try {
      grant = await refreshGrant(row.provider, credentials, opened.refreshToken);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind === "unavailable") {
        throw new ConnectionUnavailable(error instanceof Error ? error.message : "refresh failed");
      }
      // A racing refresh may have rotated the token we sent: if the row moved on, its tokens are the live ones.
      const now = await connectionById(db, row.userId, row.id);
      if (now && now.version !== row.version && now.status === "active") {
        const current = await openConnection(await keyRing(env.AIRLOCK_OAUTH_KEYS), now);
        return accessOf(now, current.accessToken, current.scopes);
      }
      return broken(row, error.code);
    }
    const scopes = grant.scopes ?? opened.scopes;
    // Rotation: a provider that sends a new refresh token has retired the old one.
    const refreshToken = grant.refreshToken ?? opened.refreshToken;
    const ring = await keyRing(env.AIRLOCK_OAUTH_KEYS);
    const tokens = { accessToken: grant.accessToken, refreshToken, expiresAt: grant.expiresAt, scopes };
    // Losing the race still leaves this access token valid; the winner's refresh token is the stored one.
    await storeRefreshed(db, ring, row, tokens, clock());
    return accessOf(row, grant.accessToken, scopes);
  };

  const live = async (row: ConnectionRow | undefined): Promise<OpenedConnection | null> => {
    if (row?.status !== "active") return null;
    return openConnection(await keyRing(env.AIRLOCK_OAUTH_KEYS), row);
  };

  return {
    async access(userId: string, provider: ConnectorProvider, identity: ConnectorIdentity) {
      const opened = await live(await findConnection(db, userId, provider, identity));
      if (!opened) return null;
      const { row } = opened;
      if (row.accessExpiresAt !== null && row.accessExpiresAt - EXPIRY_MARGIN_MS <= clock())
        return refresh(opened);
      const ring = await keyRing(env.AIRLOCK_OAUTH_KEYS);
      // Sealed under a retired key: seal again under the current one, so the old key can leave the ring.
      if (row.keyId !== ring.current.id) await reseal(db, ring, opened);
      return accessOf(row, opened.accessToken, opened.scopes);
    },
    async refreshAfterUnauthorized(userId: string, connectionId: string) {
      const opened = await live(await connectionById(db, userId, connectionId));
      return opened ? refresh(opened) : null;
    },
    async markUsed(userId: string, connectionId: string) {
      await markUsed(db, userId, connectionId, clock());
    },
  };
}
