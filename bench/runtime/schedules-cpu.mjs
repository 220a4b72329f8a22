#!/usr/bin/env node
// Where a schedule's firing spends the local edge's CPU: USERS x PER_USER one-shot schedules due at one instant
// (as bench/runtime/schedules.mjs), a CPU profile of the Worker over its devtools port from before the hubs
// record their wakeups (PREPARE_LEAD_MS ahead of the due time) until every turn started (its schedule.fired
// audit row is in D1), and the workerd CPU (from /proc) per wakeup started and per job finished. CPU holds on a loaded machine where wall-clock lateness does not; the lateness is printed beside the
// load average. D1 is read straight from its local SQLite file (no request to the edge while it works).
// Writes bench/runtime/schedules-cpu.json with --record (a scratch copy otherwise), the profile to
// bench/.scratch/schedules.cpuprofile. Needs the pinned Node 24 (node:sqlite): `npx node bench/runtime/schedules-cpu.mjs`.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { freePort, startEdge } from "../../test/e2e/support/edge.ts";
import { startPlannerServer } from "../../test/support/planner-server.ts";
import { inspector, printSummary, sourceMapper, summarizeProfile } from "../lib/cpu-profile.mjs";
import { machine, resultsFile, summarize, writeResults } from "../lib/stats.mjs";
import { benchUsers, pool } from "../lib/users.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const USERS = Number(process.env.AIRLOCK_BENCH_USERS ?? 100);
const PER_USER = Number(process.env.AIRLOCK_BENCH_PER_USER ?? 10);
const TOTAL = USERS * PER_USER;
const WAIT_MS = Number(process.env.AIRLOCK_BENCH_WAIT_MS ?? 120_000);
const PROFILE = process.env.AIRLOCK_BENCH_PROFILE !== "0";
/** As src/edge/runtime/scheduler.ts: hubs record their wakeups this long before the due time. */
const PREPARE_LEAD_MS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const planner = await startPlannerServer();
const stateDir = mkdtempSync(join(tmpdir(), "airlock-bench-schedules-cpu-"));
const pepper = randomBytes(32).toString("base64url");
const many = benchUsers({ stateDir, pepper, count: USERS });
many.create();
const inspectorPort = await freePort();
process.env.AIRLOCK_DEV_INSPECTOR_PORT = String(inspectorPort);
const edge = await startEdge({
  stateDir,
  entry: "test/edge/worker-entry.ts",
  vars: {
    TOKEN_PEPPER: pepper,
    ADMIN_BOOTSTRAP_TOKEN: randomBytes(32).toString("base64url"),
    AIRLOCK_MODEL_BASE_URL: `${planner.url}/v1`,
    AIRLOCK_MODEL_MODELS: "bench-model",
    AIRLOCK_MODEL_API_KEY: `sk-bench-${randomBytes(12).toString("hex")}`,
  },
});

/** The local D1, read-only, from its SQLite file. */
function d1() {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return new DatabaseSync(join(dir, file), { readOnly: true });
}

async function call(token, path, init = {}) {
  // wrangler's dev proxy drops a connection now and then on a loaded machine: tried again (a schedule made
  // twice is counted from D1, so a retry cannot skew the figures).
  let res;
  for (let attempt = 0; !res; attempt++) {
    try {
      res = await fetch(`${edge.base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(500);
    }
  }
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

try {
  const tokens = await many.tokens(edge.base, pool);
  const due = Date.now() + 15_000 + TOTAL * Number(process.env.AIRLOCK_BENCH_LEAD_MS_PER_SCHEDULE ?? 120);
  await pool(
    tokens.flatMap((token, u) =>
      Array.from(
        { length: PER_USER },
        (_, k) => () =>
          call(token, "/v1/schedules", {
            method: "POST",
            body: JSON.stringify({
              name: `u${u}-s${k}`,
              kind: "at",
              at: new Date(due).toISOString(),
              task: { instructions: "Say done." },
            }),
          }),
      ),
    ),
    10,
  );
  if (Date.now() >= due - 3_000) throw new Error("creating the schedules took past their due time");
  const db = d1();
  // A wakeup is done when its turn started: its schedule.fired audit row follows the start.
  const recordedCount = db.prepare(
    "SELECT COUNT(*) AS n FROM audit_log WHERE event = 'schedule.fired' AND at >= ?",
  );
  // A wakeup is recorded (ahead of the due time, PREPARE_LEAD_MS) when its claim names its job.
  const preparedCount = db.prepare(
    "SELECT COUNT(*) AS n FROM wakeup_events WHERE due_at = ? AND job_id IS NOT NULL",
  );
  const finishedCount = db.prepare(
    `SELECT COUNT(*) AS n FROM jobs j JOIN turns t ON t.id = j.turn_id
     WHERE j.trigger_kind = 'schedule' AND t.state IN ('succeeded', 'failed', 'partial', 'cancelled')`,
  );
  const expected = db.prepare("SELECT COUNT(*) AS n FROM schedules WHERE next_run_at = ?").get(due).n;
  const pids = workerdPids();
  // The idle floor: what workerd burns with nothing to do, over 2 s ending before the hubs' records start.
  await sleep(due - PREPARE_LEAD_MS - 3_000 - Date.now());
  const idle0 = cpuMs(pids);
  await sleep(2_000);
  const idleMsPerS = (cpuMs(pids) - idle0) / 2;
  const session = PROFILE ? await inspector(inspectorPort) : undefined;
  if (session) {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 500 });
    await session.send("Profiler.start");
  }
  const profiledFrom = Date.now();
  await sleep(due - PREPARE_LEAD_MS - 500 - Date.now());
  const cpu0 = cpuMs(pids);
  const cpuAt0 = Date.now();
  let loadAtDue;
  let recordedAt;
  let cpuRecorded;
  let preparedAt;
  let cpuPrepared;
  let profile;
  const deadline = due + WAIT_MS;
  while (Date.now() < deadline) {
    await sleep(100);
    if (loadAtDue === undefined && Date.now() >= due) loadAtDue = loadavg()[0];
    if (preparedAt === undefined && preparedCount.get(due).n >= expected) {
      preparedAt = Date.now();
      cpuPrepared = cpuMs(pids) - cpu0;
    }
    if (recordedAt === undefined && recordedCount.get(due).n >= expected) {
      recordedAt = Date.now();
      cpuRecorded = cpuMs(pids) - cpu0;
      if (session) profile = (await session.send("Profiler.stop")).result.profile;
    }
    if (recordedAt !== undefined && finishedCount.get().n >= expected) break;
  }
  const finishedAt = Date.now();
  const cpuFinished = cpuMs(pids) - cpu0;
  const recorded = recordedCount.get(due).n;
  const finished = finishedCount.get().n;
  const lateness = db
    .prepare("SELECT MIN(at) - ? AS late FROM audit_log WHERE event = 'schedule.fired' GROUP BY target")
    .all(due)
    .map((r) => r.late);
  db.close();
  if (session && !profile) profile = (await session.send("Profiler.stop")).result.profile;
  session?.close();
  let summary;
  if (profile) {
    const scratch = join(here, "..", ".scratch");
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, "schedules.cpuprofile"), JSON.stringify(profile));
    // The firing window alone: from just before the due time until every wakeup was recorded.
    summary = summarizeProfile(
      profile,
      await sourceMapper(scratch),
      (recordedAt ?? finishedAt) - profiledFrom,
    );
    printSummary(summary);
  }
  const results = {
    benchmark: "runtime-schedules-cpu",
    date: new Date().toISOString(),
    machine: machine(),
    method:
      "one local wrangler dev (test entry) and the scripted model server; USERS x PER_USER one-shot schedules due at one instant; workerd CPU (user+system from /proc, all workerd processes) from 0.5 s before the hubs record their wakeups (PREPARE_LEAD_MS ahead) until every turn started (its schedule.fired audit row is in D1), and until every job's turn finished; D1 polled from its SQLite file. Lateness = the schedule.fired audit row's time (the turn's start) - due (wall clock: depends on the load average).",
    load_average_1m: {
      at_due: +(loadAtDue ?? loadavg()[0]).toFixed(2),
      after: +loadavg()[0].toFixed(2),
      cores: machine().cores,
    },
    users: USERS,
    schedules: TOTAL,
    due_in_d1: expected,
    profiled: Boolean(session),
    workerd_idle_cpu_ms_per_s: +idleMsPerS.toFixed(1),
    started: recorded,
    all_recorded_vs_due_ms: preparedAt === undefined ? null : Math.max(preparedAt, cpuAt0) - due,
    cpu_ms_per_wakeup_recorded: cpuPrepared === undefined ? null : +(cpuPrepared / expected).toFixed(2),
    started_after_due_ms: recordedAt === undefined ? null : recordedAt - due,
    cpu_ms_until_started: cpuRecorded === undefined ? null : +cpuRecorded.toFixed(0),
    cpu_ms_per_wakeup_started: cpuRecorded === undefined ? null : +(cpuRecorded / expected).toFixed(2),
    finished,
    finished_after_due_ms: finishedAt - due,
    cpu_ms_until_finished: +cpuFinished.toFixed(0),
    cpu_ms_per_job_finished: +(cpuFinished / Math.max(1, finished)).toFixed(2),
    lateness: summarize(lateness),
    profile_top_files: summary?.byFileTotal.slice(0, 25),
  };
  writeResults(resultsFile(join(here, "schedules-cpu.json")), results);
  console.log(JSON.stringify({ ...results, profile_top_files: undefined }, null, 2));
} catch (error) {
  console.error(`edge output (tail):\n${edge.output().slice(-4000)}`);
  throw error;
} finally {
  await edge.stop();
  await planner.close();
}
