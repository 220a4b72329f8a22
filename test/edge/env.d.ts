// Test-only bindings, added to the generated Env.
import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The conveyor's loopback target server (test/support/egress-servers.ts). */
      TEST_TARGET_PORT: string;
      /** The connector contract servers' base URLs, JSON (test/support/contract/server.ts). */
      TEST_CONNECTOR_ENDPOINTS: string;
      /** "1" in e2e runs: every user's identities are connected (test/support/memory-connections.ts). */
      TEST_CONNECT_EVERYONE?: string;
      /** The OAuth contract server (test/support/oauth-contract-server.ts). */
      TEST_OAUTH_URL: string;
    }
  }
}
