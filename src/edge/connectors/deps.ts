// What connector tools are given: the connections port (the only way to a token), where the APIs are, the
// search key, and the clock they wait on. Built once per registry (src/edge/connectors/wiring.ts).
import type { ConnectorEndpoints } from "./config.ts";
import type { ConnectionTokens, ConnectorIdentity, ConnectorProvider } from "./port.ts";

export interface ConnectorDeps {
  tokens: ConnectionTokens;
  endpoints: () => ConnectorEndpoints;
  /** Brave Search's key; undefined: web.search fails with a clear "not configured". */
  braveSearchKey: string | undefined;
  /** Waits before a retry (Retry-After, a read's 5xx backoff). */
  sleep: (ms: number) => Promise<void>;
}

/** How a person names a connection on a card and in errors. */
export function providerName(provider: ConnectorProvider): string {
  return provider === "google" ? "Google" : "GitHub";
}

export function identityWords(identity: ConnectorIdentity): string {
  return identity === "user" ? "as you" : "as the assistant";
}
