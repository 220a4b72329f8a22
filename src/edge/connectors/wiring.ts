// The wiring between connector tools and connections: `connectionTokensFor(env)` is the D1-backed store of
// the person's OAuth connections (src/edge/connectors/tokens.ts); an identity with no connection answers
// null, so its call fails with "Connect Google first" (or GitHub) and nothing pretends to be connected.
import { connectorEndpoints } from "./config.ts";
import type { ConnectorDeps } from "./deps.ts";
import type { ConnectionTokens } from "./port.ts";
import { connectionTokens } from "./tokens.ts";

/** No connection exists: what every call sees until connections are wired in. */
export const NOT_CONNECTED: ConnectionTokens = {
  access: async () => null,
  refreshAfterUnauthorized: async () => null,
  markUsed: async () => {},
};

/** The only place connector tools get a ConnectionTokens from in production: the person's D1 connections. */
export function connectionTokensFor(env: Env): ConnectionTokens {
  return connectionTokens(env);
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
