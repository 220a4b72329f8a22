#!/usr/bin/env node
// bench/scale/sim: N simulated users, each doing one user-hour of the stated traffic mix (docs/scale.md) against
// one local `wrangler dev` with the counting entry, and what that hour costs per user: D1 round trips, rows
// read and written, bytes added to D1, hub requests and SQLite rows, Workflow steps, outbound fetches, workerd
// CPU. Phases with growing N run one after another on the same edge (fresh users each, the database keeping
// what the earlier phases wrote), so a cost that grows with N (a cross-user scan, a shared hot row) shows as a
// ratio above 1 against the first phase.
//
//   npx node bench/scale/sim.mjs [--users 10,100] [--record]
//
// Writes bench/scale/sim.json (`--record`) or a scratch copy.
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine, resultsFile, writeResults } from "../lib/stats.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";
import { perUnit, pool, simUsers, startScaleEdge, turnsSettled } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { users: { type: "string", default: "10,100" }, record: { type: "boolean" } },
});
const phases = values.users.split(",").map(Number);

/** One user-hour of the mix (docs/scale.md, "Traffic mix"): what reaches the edge, not the companion's local answers. */
export const MIX = {
  decision_by_grant: 30,
  prompt_answered: 4,
  proposal_executed: 1,
  dashboard_load: 2,
  schedule_fired: 1, // each starts one hosted turn
};
/** Users working at once: the machine, not the model, bounds this. */
const IN_FLIGHT = 20;
/** How far ahead the schedules are due: past the phase's own setup, inside its run. */
const SCHEDULE_AHEAD_MS = 10_000;

const started = performance.now();
const scale = await startScaleEdge(phases.reduce((a, b) => a + b, 0));
// Keyed, not a list: the committed JSON then passes the formatter as written.
const load = { start: loadavg()[0] };
const out = [];
try {
  const everyone = await simUsers(
    scale,
    phases.reduce((a, b) => a + b, 0),
  );
  let from = 0;
  let jobs = 0;
  for (const n of phases) {
    const users = everyone.slice(from, from + n);
    from += n;
    const t0 = performance.now();
    const bytes0 = scale.d1Bytes();
    await scale.counts(true);
    const workerd = workerdPids();
    const cpu0 = cpuMs(workerd);
    // Schedules first (made before they are due), then the rest of each user's hour, shuffled; all users at
    // once, IN_FLIGHT tasks in flight.
    await pool(
      users.map((u) => () => u.schedule(SCHEDULE_AHEAD_MS)),
      IN_FLIGHT,
    );
    const rest = [];
    for (const u of users) {
      for (let i = 0; i < MIX.decision_by_grant; i++) rest.push(() => u.grantDecision());
      for (let i = 0; i < MIX.prompt_answered; i++) rest.push(() => u.promptAnswered());
      for (let i = 0; i < MIX.proposal_executed; i++) rest.push(() => u.proposal());
      for (let i = 0; i < MIX.dashboard_load; i++) rest.push(() => u.dashboardLoad());
    }
    await pool(shuffle(rest), IN_FLIGHT);
    jobs += n;
    await turnsSettled(scale, jobs);
    const counts = await scale.counts(true);
    const cpu = cpuMs(workerd) - cpu0;
    const perUser = {
      ...perUnit(counts, n),
      workerd_cpu_ms: +(cpu / n).toFixed(1),
      d1_bytes: Math.round((scale.d1Bytes() - bytes0) / n),
    };
    load[`after_${n}_users`] = loadavg()[0];
    const seconds = +((performance.now() - t0) / 1000).toFixed(1);
    out.push({ users: n, seconds, per_user_hour: perUser });
    console.log(`${n} users: ${seconds} s`, JSON.stringify(perUser));
  }
} catch (error) {
  await new Promise((r) => setTimeout(r, 1000));
  console.error(scale.edge.output().slice(-4000));
  throw error;
} finally {
  await scale.stop();
}

/** Each flat figure of a phase divided by the first phase's: 1.0 means the per-user cost does not grow with N. */
function ratios(base, phase) {
  const flat = (o, prefix = "") =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === "object" ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
    );
  const b = Object.fromEntries(flat(base));
  return Object.fromEntries(
    flat(phase)
      .filter(([k]) => b[k] > 0)
      .map(([k, v]) => [k, +(v / b[k]).toFixed(2)]),
  );
}
const vsFirst = out
  .slice(1)
  .map((p) => ({ users: p.users, ratio: ratios(out[0].per_user_hour, p.per_user_hour) }));
// Work caused by requests must stay within 10% per user. Work caused by time (alarms and the SQL they run,
// the outbox's batching, a per-device write at most every few minutes) grows with how long each user's hour
// takes here, which grows with N on a machine of fixed speed: it is shown, with each phase's wall time, not
// judged. CPU is shown, not judged, on a shared machine.
const TIME_DRIVEN = [
  "hub_alarms",
  "hub_sql.statements",
  "hub_sql.rows_read",
  "d1.hub.round_trips",
  "d1.hub.statements",
];
const judged = (k) =>
  !k.startsWith("workerd_cpu") &&
  !TIME_DRIVEN.includes(k) &&
  !(k.startsWith("d1.total.") && (k.endsWith("round_trips") || k.endsWith("statements")));
const flat = vsFirst.every((p) =>
  Object.entries(p.ratio)
    .filter(([k]) => judged(k))
    .every(([, r]) => r <= 1.1),
);
console.log(`flat: ${flat}`, JSON.stringify(vsFirst));

writeResults(resultsFile(join(here, "sim.json")), {
  bench: "scale/sim",
  date: new Date().toISOString(),
  machine: machine(),
  load_average_1m: load,
  wall_seconds: +((performance.now() - started) / 1000).toFixed(1),
  mix_per_user_hour: MIX,
  in_flight: IN_FLIGHT,
  method:
    "one local wrangler dev with test/edge/scale-entry.ts; phases run one after another on one edge, fresh users each; the companion uses REST (its bearer is looked up per call); per-user-hour = the phase's counts / its users",
  phases: out,
  ratio_vs_first_phase: vsFirst,
  time_driven_not_judged: TIME_DRIVEN,
  flat_within_10_percent: flat,
});

function shuffle(list) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}
