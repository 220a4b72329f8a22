// Test-only bindings, added to the generated Env.
import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The conveyor's loopback target server (test/support/egress-servers.ts). */
      TEST_TARGET_PORT: string;
      /** The OAuth contract server (test/support/oauth-contract-server.ts). */
      TEST_OAUTH_URL: string;
    }
  }
}
