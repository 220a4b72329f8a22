#!/usr/bin/env node
// bench/scale/counts: what one unit of work costs the platform, against one local `wrangler dev` with the
// counting entry (test/edge/scale-entry.ts): D1 round trips, statements, rows read and written (D1's own meta),
// the hub's SQLite statements and rows, hub requests, alarms and socket messages, Workflow instances and steps,
// outbound fetches, and workerd CPU ms (from /proc: the Worker, hubs, turns and the local D1 and Workflows
// engines together). Each unit runs ROUNDS times after a warm-up; the figures are per unit.
// Writes bench/scale/results.json (`--record`) or a scratch copy.
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { machine, resultsFile, writeResults } from "../lib/stats.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";
import { perUnit, simUsers, startScaleEdge, turnsSettled } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.AIRLOCK_SCALE_ROUNDS ?? 20);

const scale = await startScaleEdge(2);
const loadBefore = loadavg()[0];
const results = {};
try {
  const [user] = await simUsers(scale, 1);
  const workerd = workerdPids();
  let jobsSoFar = 0;

  /** Runs `once` ROUNDS times (after one warm-up) and records the counts and CPU per unit. */
  async function measure(name, once, settle = async () => {}) {
    await once();
    await settle();
    await scale.counts(true);
    const bytes0 = scale.d1Bytes();
    const cpu0 = cpuMs(workerd);
    for (let i = 0; i < ROUNDS; i++) await once();
    await settle();
    const cpu = cpuMs(workerd) - cpu0;
    results[name] = {
      ...perUnit(await scale.counts(true), ROUNDS),
      workerd_cpu_ms: +(cpu / ROUNDS).toFixed(1),
      d1_bytes: Math.round((scale.d1Bytes() - bytes0) / ROUNDS),
    };
    console.log(name, JSON.stringify(results[name]));
  }

  await measure("decision_by_grant", () => user.grantDecision());
  await measure("prompt_answered", () => user.promptAnswered());
  await measure("proposal_executed", () => user.proposal());
  await measure("dashboard_load", () => user.dashboardLoad());
  await measure(
    "hosted_turn",
    async () => {
      await user.job();
      jobsSoFar++;
    },
    () => turnsSettled(scale, jobsSoFar),
  );
  // All schedules are made first (their creation is counted apart), then fire together; each starts a turn.
  {
    await scale.counts(true);
    for (let i = 0; i < ROUNDS; i++) await user.schedule(4_000);
    results.schedule_created = perUnit(await scale.counts(true), ROUNDS);
    const cpu0 = cpuMs(workerd);
    const bytes0 = scale.d1Bytes();
    jobsSoFar += ROUNDS;
    await turnsSettled(scale, jobsSoFar);
    const fired = perUnit(await scale.counts(true), ROUNDS);
    const cpu = cpuMs(workerd) - cpu0;
    results.schedule_fired_with_turn = {
      ...fired,
      workerd_cpu_ms: +(cpu / ROUNDS).toFixed(1),
      d1_bytes: Math.round((scale.d1Bytes() - bytes0) / ROUNDS),
    };
    console.log("schedule_fired_with_turn", JSON.stringify(results.schedule_fired_with_turn));
  }
} catch (error) {
  await new Promise((r) => setTimeout(r, 1000));
  console.error(scale.edge.output().slice(-6000));
  throw error;
} finally {
  await scale.stop();
}

writeResults(resultsFile(join(here, "results.json")), {
  bench: "scale/counts",
  date: new Date().toISOString(),
  machine: machine(),
  load_average_1m: { before: loadBefore, after: loadavg()[0] },
  rounds: ROUNDS,
  method:
    "one local wrangler dev with test/edge/scale-entry.ts; counts from inside workerd (D1 rows from D1's own meta); REST for the companion (the daemon's socket would skip the per-request bearer lookup); CPU is the workerd processes' from /proc, including local D1 and the Workflows engine",
  per_unit: results,
});
