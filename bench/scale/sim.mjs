#!/usr/bin/env node
// bench/scale/sim: does any per-user cost grow with the number of users? N simulated users against one local
// `wrangler dev` with the counting entry, for N = 10, 100, 1,000 in turn. Before each phase its N users are
// created in bulk with a few months of history each (devices, tokens, the saved grant, audit rows, finished
// proposals, jobs and turns: test/edge/scale-seed.ts), so the database holds at least all N users' rows and a
// query that scans other users' rows reads more per unit as N grows. Each user then does a sample of the mix:
// every unit kind once, one kind at a time, all N users' units interleaved and IN_FLIGHT at once; the schedule
// with the hosted turn it starts, the dearest kind, runs on every user up to --turn-sample users and on a fixed
// random sample of that many above it (0: every user at every N). Per-unit counts (D1 round trips, rows read
// and written, hub requests and SQLite rows, Workflow steps, fetches) are compared with the first phase's;
// per-user-hour costs are the per-unit counts × the mix (docs/scale.md). Each phase also records where its wall
// time went: workerd's CPU (its main thread runs every isolate, local D1 and the hubs' SQLite) against the wall
// and the machine's load, and this process's own CPU.
//
//   npx node bench/scale/sim.mjs [--users 10,100,1000] [--turn-sample 100] [--state-root DIR] [--record]
//
// Writes bench/scale/sim.json (`--record`) or a scratch copy.
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine, resultsFile, rng, writeResults } from "../lib/stats.mjs";
import { cpuMs, mainThreadSched, workerdPids } from "../lib/workerd-cpu.mjs";
import { perUnit, pool, seededUsers, startScaleEdge } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    users: { type: "string", default: "10,100,1000" },
    "turn-sample": { type: "string", default: "100" },
    "state-root": { type: "string" },
    record: { type: "boolean" },
  },
});
const phases = values.users.split(",").map(Number);
/** Users who make a schedule and run its turn in a phase of more users than this (0: all of them). */
const TURN_SAMPLE = Number(values["turn-sample"]);

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

/** The kinds run on a sample of the users above TURN_SAMPLE (every user's data is still there, and active). */
const SAMPLED = new Set(["schedule_fired"]);

const UNITS = {
  decision_by_grant: (u) => u.grantDecision(),
  prompt_answered: (u) => u.promptAnswered(),
  proposal_executed: (u) => u.proposal(),
  dashboard_load: (u) => u.dashboardLoad({ drop: true }),
  schedule_fired: (u) => u.schedule(SCHEDULE_AHEAD_MS),
};

const started = performance.now();
const scale = await startScaleEdge(0, values["state-root"] ? { stateRoot: values["state-root"] } : {});
const startupSeconds = +((performance.now() - started) / 1000).toFixed(1);
console.log(`edge up in ${startupSeconds} s`);
const load = { start: loadavg()[0] };
const out = [];
const workerd = workerdPids();
try {
  let prefix = 0;
  for (const n of phases) {
    const t0 = performance.now();
    const phase0 = { load: loadavg()[0], ...cpuNow(workerd) };
    const users = await seededUsers(scale, n, `usr_sim${++prefix}_`, HISTORY);
    const seedSeconds = +((performance.now() - t0) / 1000).toFixed(1);
    // Warm-up, not counted: each hub's first request (its grants imported from D1, its SQLite made).
    await pool(
      users.map((u) => () => u.grantDecision()),
      IN_FLIGHT,
    );
    await settleOutbox();
    const sampled = TURN_SAMPLE > 0 && n > TURN_SAMPLE ? sample(users, TURN_SAMPLE, n) : users;
    const perKind = {};
    const windows = {};
    for (const [kind, run] of Object.entries(UNITS)) {
      const who = SAMPLED.has(kind) ? sampled : users;
      const units = who.length;
      const jobsBefore = scale.sql("SELECT count(*) AS n FROM jobs")[0].n;
      const w0 = performance.now();
      await scale.counts(true);
      const bytes0 = scale.d1Bytes();
      const cpu0 = cpuNow(workerd);
      await pool(shuffle(who.map((u) => () => run(u))), IN_FLIGHT);
      if (kind === "schedule_fired") await turnsDone(jobsBefore + units);
      // The hubs' outboxes send their audit rows to D1 a moment after the units end: counted in this window.
      await settleOutbox();
      const counts = await scale.counts(true);
      const seconds = (performance.now() - w0) / 1000;
      const cpu = cpuSince(cpu0, seconds);
      perKind[kind] = {
        ...perUnit(counts, units),
        workerd_cpu_ms: +(cpu.workerd_ms / units).toFixed(1),
        d1_bytes: Math.round((scale.d1Bytes() - bytes0) / units),
        window_seconds: +seconds.toFixed(1),
      };
      windows[kind] = { units, seconds: +seconds.toFixed(1), ...cpu };
      console.log(`  ${kind}: ${units} units, ${windows[kind].seconds} s, ${JSON.stringify(cpu)}`);
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
      load_average_1m: { start: phase0.load, end: loadavg()[0] },
      cpu: cpuSince(phase0, seconds),
      windows,
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

/**
 * CPU used so far: workerd's processes in all, the busiest workerd main thread (the edge's: it runs every
 * isolate, local D1 and the hubs' SQLite; the other is wrangler's entry proxy), and this process (the simulated
 * users, the target and model servers).
 */
function cpuNow(pids) {
  const own = process.cpuUsage();
  return {
    workerd: cpuMs(pids),
    threads: pids.map(mainThreadSched),
    node: (own.user + own.system) / 1000,
  };
}
/**
 * CPU milliseconds since `from` over `seconds` of wall time; the edge thread's share of that wall time running
 * and waiting for a core (the rest it had nothing to do: waiting on requests, timers, the harness).
 */
function cpuSince(from, seconds) {
  const now = cpuNow(workerd);
  const spans = now.threads.map((t, i) => ({
    run: t.runNs - (from.threads[i]?.runNs ?? 0),
    wait: t.waitNs - (from.threads[i]?.waitNs ?? 0),
  }));
  const edge = spans.reduce((a, b) => (b.run > a.run ? b : a));
  const wall = seconds * 1e9;
  return {
    workerd_ms: Math.round(now.workerd - from.workerd),
    edge_thread_ms: Math.round(edge.run / 1e6),
    edge_thread_running: +(edge.run / wall).toFixed(2),
    edge_thread_waiting_for_cpu: +(edge.wait / wall).toFixed(2),
    harness_node_ms: Math.round(now.node - from.node),
  };
}

/** A fixed random sample of `k` users (seeded by the phase's size: the same users on every run). */
function sample(users, k, seed) {
  const next = rng(seed);
  const list = [...users];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (list.length - i));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list.slice(0, k);
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

/** Lets the hubs' outboxes reach D1 (their audit rows): the audit table stops growing. */
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
    startup_seconds: startupSeconds,
    mix_per_user_hour: MIX,
    history_per_seeded_user: HISTORY,
    in_flight: IN_FLIGHT,
    turn_sample: TURN_SAMPLE,
    state_root: values["state-root"] ?? "/dev/shm (in memory) where present",
    sampled_kinds: TURN_SAMPLE > 0 ? [...SAMPLED] : [],
    method:
      "one local wrangler dev with test/edge/scale-entry.ts; before each phase its N fresh users are seeded in bulk (devices, tokens, grant, history) on top of the earlier phases' users; a warm-up grant decision per user (not counted); then each unit kind in its own counted window, all N users' units shuffled, IN_FLIGHT at once (the sampled kinds: every user while N <= turn_sample, else a fixed random sample of turn_sample users; 0 = every user); per-unit = window / units; per-user-hour = per-unit × mix; the companion uses REST",
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
