// THE WIRING POINT between connector tools and connections (issue 23 part 1): `connectionTokensFor(env)`.
// Until the D1-backed connections store is merged it answers "not connected" for everyone, so every
// connector call fails with "Connect Google first" (or GitHub) and nothing pretends to be connected.
import { connectorEndpoints } from "./config.ts";
import type { ConnectorDeps } from "./deps.ts";
import type { ConnectionTokens } from "./port.ts";

/** No connection exists: what every call sees until connections are wired in. */
export const NOT_CONNECTED: ConnectionTokens = {
  access: async () => null,
  refreshAfterUnauthorized: async () => null,
  markUsed: async () => {},
};

/**
 * MERGE: replace this body with the D1-backed implementation of the port (oauth_tokens, decrypt, refresh).
 * It is the only place connector tools get a ConnectionTokens from in production.
 */
export function connectionTokensFor(_env: Env): ConnectionTokens {
  return NOT_CONNECTED;
}

let testTokens: ((env: Env) => ConnectionTokens) | null = null;

/** Test entries only (test/edge/worker-entry.ts): an in-memory port instead of the real one. */
export function useConnectionTokensForTests(tokens: (env: Env) => ConnectionTokens): void {
  testTokens = tokens;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function connectorDeps(env: Env): ConnectorDeps {
  return {
    tokens: testTokens ? testTokens(env) : connectionTokensFor(env),
    endpoints: connectorEndpoints,
    braveSearchKey: env.BRAVE_SEARCH_API_KEY?.trim() || undefined,
    sleep,
  };
}

/** For a registry that only validates and describes (plans, hooks, routes): nothing is connected. */
export const DESCRIBE_ONLY: ConnectorDeps = {
  tokens: NOT_CONNECTED,
  endpoints: connectorEndpoints,
  braveSearchKey: undefined,
  sleep,
};
