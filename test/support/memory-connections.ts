// The connections port (src/edge/connectors/port.ts) in memory, for tests: connect an identity to an
// account, revoke it, count refreshes. Tokens name their account and generation (contract/tokens.ts), so
// the contract servers accept them and a refresh visibly changes the token.
import type {
  ConnectionAccess,
  ConnectionTokens,
  ConnectorIdentity,
  ConnectorProvider,
} from "../../src/edge/connectors/port.ts";
import { testToken } from "./contract/tokens.ts";

const G = "https://www.googleapis.com/auth/";
export const ALL_GOOGLE_SCOPES = [
  `${G}gmail.readonly`,
  `${G}gmail.compose`,
  `${G}gmail.send`,
  `${G}calendar.events`,
  `${G}calendar.freebusy`,
];

interface Connection {
  connectionId: string;
  userId: string;
  provider: ConnectorProvider;
  identity: ConnectorIdentity;
  account: string;
  scopes: string[];
  generation: number;
  revoked: boolean;
  lastUsed: number | null;
}

export class MemoryConnections implements ConnectionTokens {
  private readonly byId = new Map<string, Connection>();
  refreshes = 0;
  /** Where a test cannot reach this object (an e2e's `wrangler dev`): every identity of every user is connected, to this account. */
  private readonly autoAccount:
    | ((userId: string, provider: ConnectorProvider, identity: ConnectorIdentity) => string)
    | null;

  constructor(autoAccount: MemoryConnections["autoAccount"] = null) {
    this.autoAccount = autoAccount;
  }

  connect(
    userId: string,
    provider: ConnectorProvider,
    identity: ConnectorIdentity,
    account: string,
    scopes: readonly string[] = provider === "google" ? ALL_GOOGLE_SCOPES : ["repo"],
  ): string {
    const connectionId = `con_${provider}_${identity}_${crypto.randomUUID().slice(0, 8)}`;
    for (const c of this.byId.values())
      if (c.userId === userId && c.provider === provider && c.identity === identity) c.revoked = true;
    this.byId.set(connectionId, {
      connectionId,
      userId,
      provider,
      identity,
      account,
      scopes: [...scopes],
      generation: 1,
      revoked: false,
      lastUsed: null,
    });
    return connectionId;
  }

  revoke(connectionId: string): void {
    const c = this.byId.get(connectionId);
    if (c) c.revoked = true;
  }

  /** Whether this connection id is one of this port's (else it belongs to the port behind it). */
  knows(connectionId: string): boolean {
    return this.byId.has(connectionId);
  }

  lastUsed(connectionId: string): number | null {
    return this.byId.get(connectionId)?.lastUsed ?? null;
  }

  private live(
    userId: string,
    provider: ConnectorProvider,
    identity: ConnectorIdentity,
  ): Connection | undefined {
    return [...this.byId.values()].find(
      (c) => c.userId === userId && c.provider === provider && c.identity === identity && !c.revoked,
    );
  }

  private view(c: Connection): ConnectionAccess {
    return {
      connectionId: c.connectionId,
      provider: c.provider,
      identity: c.identity,
      account: c.account,
      accessToken: testToken(c.provider, c.account, c.generation),
      scopes: c.scopes,
    };
  }

  async access(userId: string, provider: ConnectorProvider, identity: ConnectorIdentity) {
    let c = this.live(userId, provider, identity);
    if (!c && this.autoAccount) {
      this.connect(userId, provider, identity, this.autoAccount(userId, provider, identity));
      c = this.live(userId, provider, identity);
    }
    return c ? this.view(c) : null;
  }

  async refreshAfterUnauthorized(userId: string, connectionId: string) {
    const c = this.byId.get(connectionId);
    if (!c || c.userId !== userId || c.revoked) return null;
    this.refreshes++;
    c.generation++;
    return this.view(c);
  }

  async markUsed(userId: string, connectionId: string) {
    const c = this.byId.get(connectionId);
    if (c && c.userId === userId) c.lastUsed = Date.now();
  }
}

/** The one instance the test Worker entry plugs in (test/edge/worker-entry.ts); tests connect users on it. */
export const testConnections = new MemoryConnections();

/** For e2e's `wrangler dev`: each user's `user` identity is `<userId>@example.com`, `bot` is `assistant-<userId>@example.com`. */
export const everyoneConnected = new MemoryConnections((userId, provider, identity) => {
  const name = identity === "user" ? userId.toLowerCase() : `assistant-${userId.toLowerCase()}`;
  return provider === "google" ? `${name}@example.com` : name;
});

/**
 * The in-memory port in front of the real one (the D1 store): a user the test connected in memory gets that
 * connection; any other user gets what the real OAuth flow stored (connect-helpers, e2e's phone), so the same
 * Worker serves both kinds of test.
 */
export function memoryInFrontOf(memory: MemoryConnections, store: ConnectionTokens): ConnectionTokens {
  return {
    access: async (userId, provider, identity) =>
      (await memory.access(userId, provider, identity)) ?? store.access(userId, provider, identity),
    refreshAfterUnauthorized: (userId, connectionId) =>
      memory.knows(connectionId)
        ? memory.refreshAfterUnauthorized(userId, connectionId)
        : store.refreshAfterUnauthorized(userId, connectionId),
    markUsed: (userId, connectionId) =>
      memory.knows(connectionId)
        ? memory.markUsed(userId, connectionId)
        : store.markUsed(userId, connectionId),
  };
}
