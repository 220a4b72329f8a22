// The simulator's cold windows (bench/scale/sim.mjs): POST /v1/test/scale-cold on the counting entry resets the
// named users' hubs, so each one's next request constructs it again and refills what it keeps in memory from
// SQLite, whatever its idle time was; and it costs the window that follows nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScaleEdge, type ScaleUser, seededUsers, startScaleEdge } from "../../bench/scale/harness.mjs";

type Counts = {
  hub_starts: number;
  hub_requests: Record<string, number>;
  hub_sql: { statements: number };
  hub_start_sql: { statements: number };
};
let scale: ScaleEdge;
let users: ScaleUser[];

beforeAll(async () => {
  scale = await startScaleEdge(0);
  users = await seededUsers(scale, 3, "usr_cold_", { audit: 1, proposals: 1, jobs: 1 });
  // First use: the hub imports its grants from D1 (not a restart's cost).
  for (const u of users) await u.grantDecision();
}, 180_000);
afterAll(async () => {
  await scale?.stop();
});

const window = async (): Promise<Counts> => {
  for (const u of users) await u.grantDecision();
  return (await scale.counts(true)) as Counts;
};

describe("cold hubs for the simulator's windows", () => {
  it("reset each named hub: its next request starts it and refills its reads; the reset itself is not counted", async () => {
    await scale.counts(true);
    const warm = await window();
    await scale.coldHubs(users);
    const reset = (await scale.counts(true)) as Counts;
    // The resets went through the raw binding: no counted hub request.
    expect(Object.values(reset.hub_requests).reduce((a, b) => a + b, 0)).toBe(0);
    const cold = await window();
    expect(cold.hub_starts).toBe(users.length);
    expect(cold.hub_start_sql.statements).toBeGreaterThan(0);
    // A warm window's hubs were still in memory (three decisions a moment apart), a cold one's refill their reads.
    expect(warm.hub_starts).toBe(0);
    expect(cold.hub_sql.statements).toBeGreaterThan(warm.hub_sql.statements);
    // And again: every reset is a start, however recently the hub ran.
    await scale.coldHubs(users);
    await scale.counts(true);
    expect((await window()).hub_starts).toBe(users.length);
  }, 120_000);
});
