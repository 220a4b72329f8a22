#!/usr/bin/env node
// bench/scale/sim: does any per-user cost grow with the number of users? N simulated users against one local
// `wrangler dev` with the counting entry, for N = 10, 100, 1,000 in turn. Before each phase its N users are
// created in bulk with a few months of history each (devices, tokens, the saved grant, audit rows, finished
// proposals, jobs and turns: test/edge/scale-seed.ts), so the database holds at least all N users' rows and a
// query that scans other users' rows reads more per unit as N grows. Each user then does a sample of the mix:
// every unit kind once, one kind at a time, all N users' units interleaved and IN_FLIGHT at once. Per-unit
// counts (D1 round trips, rows read and written, hub requests and SQLite rows, Workflow steps, fetches) are
// compared with the first phase's; per-user-hour costs are the per-unit counts × the mix (docs/scale.md).
//
//   npx node bench/scale/sim.mjs [--users 10,100,1000] [--record]
//
// Writes bench/scale/sim.json (`--record`) or a scratch copy.
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine, resultsFile, writeResults } from "../lib/stats.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";
import { perUnit, pool, seededUsers, startScaleEdge } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { users: { type: "string", default: "10,100,1000" }, record: { type: "boolean" } },
});
const phases = values.users.split(",").map(Number);

/** One active user-hour of the mix (docs/scale.md, "Traffic mix"): what reaches the edge. */
export const MIX = {
  decision_by_grant: 30,
  prompt_answered: 4,
  proposal_executed: 1,
  dashboard_load: 2,
  schedule_fired: 1, // made, fired, and the hosted turn it starts
};
/**
 * Each seeded user's history in D1 (far less than months at the mix: enough that the tables grow 100-fold from
 * the first phase to the last, so a scan would show, and 1,000 users seed in seconds).
 */
const HISTORY = { audit: 200, proposals: 20, jobs: 10 };
/** Units in flight at once (bounded: one workerd on a shared 2-core machine). */
const IN_FLIGHT = 20;
/** How far ahead each schedule is due when made. */
const SCHEDULE_AHEAD_MS = 3_000;

const UNITS = {
  decision_by_grant: (u) => u.grantDecision(),
  prompt_answered: (u) => u.promptAnswered(),
  proposal_executed: (u) => u.proposal(),
  dashboard_load: (u) => u.dashboardLoad({ drop: true }),
  schedule_fired: (u) => u.schedule(SCHEDULE_AHEAD_MS),
};

const started = performance.now();
const scale = await startScaleEdge(1);
const load = { start: loadavg()[0] };
const out = [];
try {
  const workerd = workerdPids();
  let prefix = 0;
  for (const n of phases) {
    const t0 = performance.now();
    const users = await seededUsers(scale, n, `usr_sim${++prefix}_`, HISTORY);
    const seedSeconds = +((performance.now() - t0) / 1000).toFixed(1);
    // Warm-up, not counted: each hub's first request (its grants imported from D1, its SQLite made).
    await pool(
      users.map((u) => () => u.grantDecision()),
      IN_FLIGHT,
    );
    const perKind = {};
    for (const [kind, run] of Object.entries(UNITS)) {
      const jobsBefore = scale.sql("SELECT count(*) AS n FROM jobs")[0].n;
      await settleOutbox();
      const w0 = performance.now();
      await scale.counts(true);
      const bytes0 = scale.d1Bytes();
      const cpu0 = cpuMs(workerd);
      await pool(shuffle(users.map((u) => () => run(u))), IN_FLIGHT);
      if (kind === "schedule_fired") await turnsDone(jobsBefore + n);
      const counts = await scale.counts(true);
      perKind[kind] = {
        ...perUnit(counts, n),
        workerd_cpu_ms: +((cpuMs(workerd) - cpu0) / n).toFixed(1),
        d1_bytes: Math.round((scale.d1Bytes() - bytes0) / n),
        window_seconds: +((performance.now() - w0) / 1000).toFixed(1),
      };
      console.log(`  ${kind}: ${perKind[kind].window_seconds} s`);
    }
    load[`after_${n}_users`] = loadavg()[0];
    const seconds = +((performance.now() - t0) / 1000).toFixed(1);
    const rows = scale.sql(
      "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM proposed_actions) AS proposals, (SELECT count(*) FROM turns) AS turns",
    )[0];
    out.push({
      users: n,
      seconds,
      seed_seconds: seedSeconds,
      database: { ...rows },
      per_unit: perKind,
      per_user_hour: hourOf(perKind),
    });
    console.log(`${n} users: ${seconds} s (seed ${seedSeconds} s)`, JSON.stringify(out.at(-1).per_user_hour));
    report(false);
  }
  report(true);
} catch (error) {
  await new Promise((r) => setTimeout(r, 1000));
  console.error(scale.edge.output().slice(-4000));
  throw error;
} finally {
  await scale.stop();
}

/** Waits until the hosted turns the schedules started have all finished (read from the file, not the edge). */
async function turnsDone(jobs, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [made] = scale.sql("SELECT count(*) AS n FROM jobs");
    const [open] = scale.sql("SELECT count(*) AS n FROM turns WHERE finished_at IS NULL");
    if (made.n >= jobs && open.n === 0) return;
    if (Date.now() > deadline) throw new Error(`turns not settled: ${made.n}/${jobs} jobs, ${open.n} open`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Lets the previous window's hub outboxes reach D1 (their audit rows) before the next window opens. */
async function settleOutbox() {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const [{ n }] = scale.sql("SELECT count(*) AS n FROM audit_log");
    if (n === last) return;
    last = n;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Per-user-hour: each kind's per-unit figures × its count in the mix, summed (figures nest; numbers add). */
function hourOf(perKind) {
  const add = (into, from, k) => {
    for (const [key, v] of Object.entries(from)) {
      if (key === "window_seconds") continue; // a window's wall time, not a cost
      if (typeof v === "object") {
        into[key] ??= {};
        add(into[key], v, k);
      } else into[key] = +((into[key] ?? 0) + v * k).toFixed(1);
    }
  };
  const hour = {};
  for (const [kind, per] of Object.entries(perKind)) add(hour, per, MIX[kind]);
  return hour;
}

/** Each flat figure of a phase divided by the first phase's: 1.0 means the cost per unit does not grow with N. */
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
/** Compares the phases so far and writes the results file (after every phase: a cut-short run keeps its phases). */
function report(done) {
  const vsFirst = out.slice(1).map((p) => ({
    users: p.users,
    per_unit: Object.fromEntries(
      Object.keys(UNITS).map((kind) => [kind, ratios(out[0].per_unit[kind], p.per_unit[kind])]),
    ),
    per_user_hour: ratios(out[0].per_user_hour, p.per_user_hour),
  }));
  // Work caused by requests must stay within 10% per unit. Work caused by time (alarms and the SQL they run, the
  // outbox's batching of the hub's D1 writes) depends on how long each window takes: shown, not judged. CPU is
  // shown, not judged, on a shared machine.
  const TIME_DRIVEN = [
    "hub_alarms",
    "hub_sql.statements",
    "hub_sql.rows_read",
    "d1.hub.round_trips",
    "d1.hub.statements",
    "d1.total.round_trips",
    "d1.total.statements",
  ];
  const judged = (k) => !k.startsWith("workerd_cpu") && k !== "window_seconds" && !TIME_DRIVEN.includes(k);
  const grown = vsFirst.flatMap((p) =>
    Object.entries(p.per_unit).flatMap(([kind, r]) =>
      Object.entries(r)
        .filter(([k, v]) => judged(k) && v > 1.1)
        .map(([k, v]) => `${p.users} users: ${kind}.${k} ×${v}`),
    ),
  );
  const flat = grown.length === 0;
  console.log(`flat: ${flat}`, grown.join("; "));

  return writeResults(resultsFile(join(here, "sim.json")), {
    bench: "scale/sim",
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m: load,
    wall_seconds: +((performance.now() - started) / 1000).toFixed(1),
    mix_per_user_hour: MIX,
    history_per_seeded_user: HISTORY,
    in_flight: IN_FLIGHT,
    method:
      "one local wrangler dev with test/edge/scale-entry.ts; before each phase its N fresh users are seeded in bulk (devices, tokens, grant, history) on top of the earlier phases' users; a warm-up grant decision per user (not counted); then each unit kind in its own counted window, all N users' units shuffled, IN_FLIGHT at once; per-unit = window / N; per-user-hour = per-unit × mix; the companion uses REST",
    phases: out,
    ratio_vs_first_phase: vsFirst,
    time_driven_not_judged: TIME_DRIVEN,
    grown_over_10_percent: grown,
    flat_within_10_percent: flat,
    complete: done,
  });
}

function shuffle(list) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}
