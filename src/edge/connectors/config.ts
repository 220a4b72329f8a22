// Where connector tools send their API calls: the providers' real hosts in production. Tests point them at
// the contract servers on loopback only by calling overrideConnectorEndpointsForTests() from the test entry
// (test/edge/worker-entry.ts); src/edge/index.ts never does, and no binding or variable is read for it, so
// no configuration of the production entry can send a token anywhere but the provider.
import { isLoopback } from "../conveyor/egress/address.ts";

export interface ConnectorEndpoints {
  /** Gmail v1 (`/gmail/v1/users/me/…`). */
  gmail: string;
  /** Calendar v3 (`/calendar/v3/…`). */
  calendar: string;
  /** GitHub REST (`/repos/…`). */
  github: string;
  /** Brave Search (`/res/v1/web/search`). */
  braveSearch: string;
}

export const PRODUCTION_ENDPOINTS: ConnectorEndpoints = {
  gmail: "https://gmail.googleapis.com",
  calendar: "https://www.googleapis.com",
  github: "https://api.github.com",
  braveSearch: "https://api.search.brave.com",
};

let testEndpoints: ConnectorEndpoints | null = null;

/** Test entries only. Every URL must be http(s) on a loopback address, so a token can never leak elsewhere. */
export function overrideConnectorEndpointsForTests(endpoints: ConnectorEndpoints): void {
  for (const url of Object.values(endpoints)) {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (!isLoopback(host)) throw new Error(`${url} is not on a loopback address`);
  }
  testEndpoints = { ...endpoints };
}

export function connectorEndpoints(): ConnectorEndpoints {
  return testEndpoints ?? PRODUCTION_ENDPOINTS;
}

/** The Brave Search key (`wrangler secret put BRAVE_SEARCH_API_KEY`); web.search is unavailable without it. */
interface ConnectorSecrets {
  BRAVE_SEARCH_API_KEY?: string;
}
declare global {
  interface Env extends ConnectorSecrets {}
  namespace Cloudflare {
    interface Env extends ConnectorSecrets {}
  }
}
