// Runs in vitest's main process before the e2e files: the pool that starts each file's plain edge while the
// previous file runs (support/edge-pool.ts). startEdge() finds it through the environment the workers inherit.
import { buildDashboard } from "./support/dashboard.ts";
import { EDGE_POOL_ENV } from "./support/edge.ts";
import { startEdgePool } from "./support/edge-pool.ts";

export default async function setup() {
  // The edges serve web/dist: build it (once per source state) before the first one starts, as the
  // dashboard files would before theirs.
  const pool = await startEdgePool(buildDashboard);
  process.env[EDGE_POOL_ENV] = pool.url;
  return async () => {
    delete process.env[EDGE_POOL_ENV];
    await pool.close();
  };
}
