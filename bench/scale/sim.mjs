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
//   npx node bench/scale/sim.mjs [--users 10,100,1000] [--turn-sample 100] [--state-root DIR] [--keep-hubs] [--record]
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
    "keep-hubs": { type: "boolean" },
  },
});
const phases = values.users.split(",").map(Number);
/** Users who make a schedule and run its turn in a phase of more users than this (0: all of them). */
const TURN_SAMPLE = Number(values["turn-sample"]);
/** Each window starts with its users' hubs cold (--keep-hubs: as the previous window left them, as before). */
const COLD = !values["keep-hubs"];

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
/**
 * Per-unit growth below this is noise, not a hot spot: one occurrence in 20 units (at 10 users one event is 0.1
 * per unit). It decides only for figures under 0.5 per unit, where 10% is less than this.
 */
const GROWTH_FLOOR = 0.05;
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
    await settleHubs();
    const sampled = TURN_SAMPLE > 0 && n > TURN_SAMPLE ? sample(users, TURN_SAMPLE, n) : users;
    const perKind = {};
    const windows = {};
    for (const [kind, run] of Object.entries(UNITS)) {
      const who = SAMPLED.has(kind) ? sampled : users;
      const units = who.length;
      const jobsBefore = scale.sql("SELECT count(*) AS n FROM jobs")[0].n;
      // Every window starts with its users' hubs cold (reset, not counted: the window's counts start after it), so
      // its units find the same hub state at every N, not warm in short windows and evicted in long ones.
      const c0 = performance.now();
      if (COLD) await scale.coldHubs(who);
      const coldSeconds = +((performance.now() - c0) / 1000).toFixed(1);
      const w0 = performance.now();
      const { alarms_owed: owedAtStart } = await scale.counts(true);
      const bytes0 = scale.d1Bytes();
      const cpu0 = cpuNow(workerd);
      await pool(shuffle(who.map((u) => () => run(u))), IN_FLIGHT);
      if (kind === "schedule_fired") await turnsDone(jobsBefore + units);
      // What the units set in motion is counted in their window: the outboxes' sends to D1 a moment after the
      // units end, and every hub alarm they armed to run soon (the outbox's safety deadline, a schedule's
      // backstop), so no window is charged another's timed work.
      const settled = await settleHubs();
      const counts = await scale.counts(true);
      const seconds = (performance.now() - w0) / 1000;
      const cpu = cpuSince(cpu0, seconds);
      perKind[kind] = {
        ...perUnit(counts, units),
        workerd_cpu_ms: +(cpu.workerd_ms / units).toFixed(1),
        d1_bytes: Math.round((scale.d1Bytes() - bytes0) / units),
        window_seconds: +seconds.toFixed(1),
      };
      windows[kind] = {
        units,
        seconds: +seconds.toFixed(1),
        ...cpu,
        settle_seconds: settled.seconds,
        cold_reset_seconds: coldSeconds,
        // Hubs with an alarm due within the hour when the window opened and when it closed (later ones: the
        // 7-day call retention): timed work that would land in another window. 0 and 0 when none does.
        alarms_owed_within_1h: {
          at_start: owedAtStart.within_15s + owedAtStart.within_1h,
          at_close: settled.owed.within_15s + settled.owed.within_1h,
        },
      };
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
      per_hub_start: perStart(Object.values(perKind).map((k, i) => [k, Object.values(windows)[i].units])),
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

/**
 * Waits until the hubs are quiet: their outboxes have reached D1 (the audit table stops growing) and no hub has an
 * alarm due within 15 s that has not run (read from the counting entry, which tracks every hub's alarm). Gives up
 * after `timeoutMs` and answers what is still owed, so a window that closes early says so.
 */
async function settleHubs(timeoutMs = 60_000) {
  const t0 = performance.now();
  let last = -1;
  let owed;
  for (;;) {
    const [{ n }] = scale.sql("SELECT count(*) AS n FROM audit_log");
    ({ alarms_owed: owed } = await scale.counts(false));
    if (n === last && owed.within_15s === 0) break;
    if (performance.now() - t0 > timeoutMs) break;
    last = n;
    await new Promise((r) => setTimeout(r, 300));
  }
  return { seconds: +((performance.now() - t0) / 1000).toFixed(1), owed };
}

/** What one hub start cost in a phase (all windows' starts together), or null when no hub started. */
function perStart(kinds) {
  let starts = 0;
  const sum = { statements: 0, rows_read: 0, rows_written: 0, alarm_sets: 0 };
  for (const [k, units] of kinds) {
    starts += k.hub_starts * units;
    for (const f of ["statements", "rows_read", "rows_written"]) sum[f] += k.hub_start_sql[f] * units;
    sum.alarm_sets += k.hub_start_alarm_sets * units;
  }
  if (starts < 1) return null;
  return {
    starts: Math.round(starts),
    ...Object.fromEntries(Object.entries(sum).map(([f, v]) => [f, +(v / starts).toFixed(2)])),
  };
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

/** A nested figure object as `a.b.c` → number. */
function flatten(o, prefix = "") {
  return Object.fromEntries(
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === "object" ? Object.entries(flatten(v, `${prefix}${k}.`)) : [[`${prefix}${k}`, v]],
    ),
  );
}
/** Each figure of a phase divided by the first phase's (where that is above 0): 1.0 = the cost per unit does not grow with N. */
function ratios(base, phase) {
  const b = flatten(base);
  return Object.fromEntries(
    Object.entries(flatten(phase))
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
  // Every per-unit figure is judged, request-driven and timed alike: each window holds the timed work its own
  // units set in motion (settleHubs) and nothing earlier windows owed (alarms_owed_within_1h), so an alarm is
  // counted per unit of the work that armed it. A figure grows if it is more than 10% above the first phase's
  // and by more than GROWTH_FLOOR per unit; a figure that is 0 in the first phase is judged by the floor alone.
  // Not judged: CPU (shown; a shared machine) and a window's wall time (not a cost).
  // Every window starts with its users' hubs cold (COLD), so each unit meets a hub its first request constructs
  // and refills at every N; a hub's start (its constructor) is counted apart: starts per unit are shown (1 per
  // unit, more where a hub idled out within a unit), and what one start costs is judged per start.
  const judged = (k) => !k.startsWith("workerd_cpu") && k !== "window_seconds" && !k.startsWith("hub_start");
  const grown = out.slice(1).flatMap((p) =>
    Object.keys(UNITS).flatMap((kind) => {
      const base = flatten(out[0].per_unit[kind]);
      return Object.entries(flatten(p.per_unit[kind]))
        .filter(([k, v]) => judged(k) && v > (base[k] ?? 0) * 1.1 && v - (base[k] ?? 0) > GROWTH_FLOOR)
        .map(([k, v]) => `${p.users} users: ${kind}.${k} ${base[k] ?? 0} → ${v}`);
    }),
  );
  // Every window must have closed with no alarm owed within the hour, or its timed work was not all counted.
  const owing = out.flatMap((p) =>
    Object.entries(p.windows)
      .filter(([, w]) => w.alarms_owed_within_1h.at_close > 0 || w.alarms_owed_within_1h.at_start > 0)
      .map(([kind, w]) => `${p.users} users: ${kind} ${JSON.stringify(w.alarms_owed_within_1h)}`),
  );
  const withStarts = out.filter((p) => p.per_hub_start);
  const startGrown = withStarts.slice(1).flatMap((p) =>
    Object.entries(p.per_hub_start)
      .filter(([k]) => k !== "starts")
      .filter(
        ([k, v]) =>
          v > withStarts[0].per_hub_start[k] * 1.1 && v - withStarts[0].per_hub_start[k] > GROWTH_FLOOR,
      )
      .map(([k, v]) => `${p.users} users: per hub start ${k} ${withStarts[0].per_hub_start[k]} → ${v}`),
  );
  grown.push(...startGrown);
  const flat = grown.length === 0 && owing.length === 0;
  console.log(`flat: ${flat}`, [...grown, ...owing].join("; "));

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
    hubs_at_window_start: COLD
      ? "cold (every hub of the window's users reset, uncounted)"
      : "as the previous window left them",
    method:
      "one local wrangler dev with test/edge/scale-entry.ts; before each phase its N fresh users are seeded in bulk (devices, tokens, grant, history) on top of the earlier phases' users; a warm-up grant decision per user (not counted); then each unit kind in its own counted window, opened with the window's users' hubs reset (cold: constructed again by their first request; the reset not counted), all N users' units shuffled, IN_FLIGHT at once (the sampled kinds: every user while N <= turn_sample, else a fixed random sample of turn_sample users; 0 = every user); per-unit = window / units; per-user-hour = per-unit × mix; the companion uses REST",
    phases: out,
    ratio_vs_first_phase: vsFirst,
    judged: `every per-unit figure but workerd_cpu_ms and window_seconds; grown = above the first phase's by more than 10% and by more than ${GROWTH_FLOOR} per unit`,
    grown_over_10_percent: grown,
    windows_owing_timed_work: owing,
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
