// The start the conveyor benches share: the local egress servers (DoH and the target the executor reaches on
// loopback) and one local `wrangler dev` of the test entry, with fresh secrets and a fresh state directory. The
// two steps are apart because a bench may write rows to the local D1 (bench/lib/users.mjs) before the edge
// starts; `inspector` opens the devtools port for a CPU profile (bench/lib/cpu-profile.mjs).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startEdge } from "../../test/e2e/support/edge.ts";
import { startEgressServers } from "../../test/support/egress-servers.ts";

/** Egress servers up, a state directory and a pepper chosen; `start()` starts the edge on them. */
export async function egressEdge({ name, inspector = false }) {
  const servers = await startEgressServers();
  const stateDir = mkdtempSync(join(tmpdir(), `airlock-bench-${name}-`));
  const pepper = randomBytes(32).toString("base64url");
  const inspectorPort = inspector ? await freePort() : undefined;
  return {
    servers,
    stateDir,
    pepper,
    inspectorPort,
    async start() {
      if (inspectorPort !== undefined) process.env.AIRLOCK_DEV_INSPECTOR_PORT = String(inspectorPort);
      return startEdge({
        stateDir,
        entry: "test/edge/worker-entry.ts",
        vars: {
          TOKEN_PEPPER: pepper,
          ADMIN_BOOTSTRAP_TOKEN: randomBytes(32).toString("base64url"),
          AIRLOCK_DOH_URL: servers.dohUrl,
          TEST_TARGET_PORT: String(servers.targetPort),
        },
      });
    },
  };
}
