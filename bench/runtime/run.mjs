#!/usr/bin/env node
// bench/runtime: against one local `wrangler dev` (the test entry, so web.fetch may reach a local page) and
// the scripted model server, in one run:
//  1. turn overhead excluding model time: jobs of one web.fetch round and a final answer, one at a time;
//     overhead = the turn's started→finished time minus the time the model server spent on its requests;
//     baseline: the same web.fetch as a conveyor proposal (POST /v1/proposals, a READ: run at once);
//  2. schedules due per second one hub fires on time: K one-shot schedules of one user due at the same
//     instant; each one's lateness is its turn's start (schedule.fired audit row) minus the due time; baseline: K jobs posted
//     straight to POST /v1/jobs from Node (the same jobs without the scheduler), measured the same way.
// Writes bench/runtime/results.json.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEdge } from "../../test/e2e/support/edge.ts";
import { startEgressServers } from "../../test/support/egress-servers.ts";
import { PhoneDashboard } from "../../test/support/phone-dashboard.ts";
import { startPlannerServer } from "../../test/support/planner-server.ts";
import { machine, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const TURNS = Number(process.env.AIRLOCK_BENCH_TURNS ?? 30);
const SCHEDULES = Number(process.env.AIRLOCK_BENCH_SCHEDULES ?? 60);
const ON_TIME_MS = 1_000;

const [servers, planner] = await Promise.all([startEgressServers(), startPlannerServer()]);
const target = `http://127.0.0.1:${servers.targetPort}`;
const loadBefore = loadavg()[0];
const edge = await startEdge({
  stateDir: mkdtempSync(join(tmpdir(), "airlock-bench-runtime-")),
  entry: "test/edge/worker-entry.ts",
  vars: {
    AIRLOCK_DOH_URL: servers.dohUrl,
    TEST_TARGET_PORT: String(servers.targetPort),
    AIRLOCK_MODEL_BASE_URL: `${planner.url}/v1`,
    AIRLOCK_MODEL_MODELS: "bench-model",
    AIRLOCK_MODEL_API_KEY: `sk-bench-${randomBytes(12).toString("hex")}`,
  },
});

try {
  const { token } = await edge.pairDevice("browser", "bench phone");
  const companion = await edge.pairDevice("companion", "bench companion");
  const phone = await PhoneDashboard.connect(edge.base, token);
  const call = async (path, init = {}, bearer = token) => {
    const res = await fetch(`${edge.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const finished = (jobId) =>
    phone.first((m) =>
      m.type === "job_updated" && m.data.id === jobId && ["succeeded", "failed"].includes(m.data.state)
        ? m.data
        : undefined,
    );

  // 1. Turn overhead, serial.
  const overhead = [];
  const modelMs = [];
  const total = [];
  const proposalMs = [];
  for (let i = 0; i < TURNS; i++) {
    const id = `turn${i}`;
    planner.script(id, [
      {
        calls: [
          {
            name: "web_fetch",
            // Every step declares itself (the plan validation contract, docs/runtime.md).
            arguments: {
              url: `${target}/page?bench=${i}`,
              risk_level: "low",
              requires_confirmation: false,
              verification_plan: "The page answers HTTP 200.",
              description: "Read the page.",
            },
          },
        ],
      },
      { text: "The page is green." },
    ]);
    const { job } = await call("/v1/jobs", {
      method: "POST",
      body: JSON.stringify({ instructions: `Read. [script:${id}]` }),
    });
    const done = await finished(job.id);
    if (done.state !== "succeeded")
      throw new Error(`job ${job.id} ${done.state}: ${JSON.stringify(done.error)}`);
    const turnMs = Date.parse(done.finished_at) - Date.parse(done.started_at);
    const model = planner.calls(id).reduce((sum, c) => sum + (c.answeredAt - c.receivedAt), 0);
    total.push(turnMs);
    modelMs.push(model);
    overhead.push(turnMs - model);
    // Baseline, interleaved: the same read as a proposal the conveyor runs at once.
    const started = performance.now();
    const { proposal } = await call(
      "/v1/proposals",
      {
        method: "POST",
        body: JSON.stringify({
          tool: "web.fetch",
          identity: "bot",
          idempotency_key: `bench-read-${i}-${randomBytes(4).toString("hex")}`,
          justification: "bench baseline",
          args: { url: `${target}/page?baseline=${i}` },
        }),
      },
      companion.token,
    );
    if (proposal.state !== "EXECUTED") throw new Error(`baseline proposal ${proposal.state}`);
    proposalMs.push(performance.now() - started);
  }

  // 2. Schedules due at one instant, for one hub.
  const due = new Date(Date.now() + 15_000 + SCHEDULES * 60);
  const ids = [];
  for (let i = 0; i < SCHEDULES; i++) {
    const made = await call("/v1/schedules", {
      method: "POST",
      body: JSON.stringify({
        name: `s${i}`,
        kind: "at",
        at: due.toISOString(),
        task: { instructions: "Say done." },
      }),
    });
    ids.push(made.id);
  }
  if (Date.now() >= due.getTime()) throw new Error("creating the schedules took past their due time");
  const scheduled = ids.map((id) =>
    phone.first((m) =>
      m.type === "job_updated" && m.data.trigger.kind === "schedule" && m.data.trigger.ref === id
        ? m.data
        : undefined,
    ),
  );
  await Promise.all(scheduled);
  // Each turn's start is its schedule.fired audit row (the job row is written up to 10 s ahead of the due
  // time, so its created_at is not when it ran); the row follows the start, so it is awaited too.
  let fired = [];
  for (const wanted = new Set(ids); fired.length < ids.length; ) {
    const { events } = await call(`/v1/audit?event=schedule.fired&limit=${ids.length * 2}`);
    fired = events.filter((e) => wanted.has(e.target));
    if (fired.length < ids.length) await new Promise((r) => setTimeout(r, 500));
  }
  const lateness = fired.map((e) => Date.parse(e.at) - due.getTime());
  const lastFired = Math.max(...fired.map((e) => Date.parse(e.at)));
  const onTime = lateness.filter((ms) => ms <= ON_TIME_MS).length;
  const fireSeconds = Math.max(0.001, (lastFired - due.getTime()) / 1000);

  // Baseline: the same number of jobs posted at once from Node.
  const postedAt = Date.now();
  const posted = await Promise.all(
    Array.from({ length: SCHEDULES }, () =>
      call("/v1/jobs", { method: "POST", body: JSON.stringify({ instructions: "Say done." }) }),
    ),
  );
  const directLast = Math.max(...posted.map((p) => Date.parse(p.job.created_at)));
  const directSeconds = Math.max(0.001, (directLast - postedAt) / 1000);
  phone.close();

  const turn = summarize(overhead);
  const base = summarize(proposalMs);
  const results = {
    benchmark: "runtime",
    date: new Date().toISOString(),
    machine: machine(),
    method:
      "one local wrangler dev (workerd: Workflows, Durable Objects, local D1) with the test entry; the scripted model server and the target page on the same machine. Turn overhead: jobs of one web.fetch round and a final answer, run one at a time; overhead = turn started->finished minus the model server's time on its requests. Schedules: K one-shot schedules of one user due at the same instant; lateness = the turn's start (its schedule.fired audit row) - due time; 'on time' = within 1 s.",
    load_average_1m: { before: loadBefore, after: loadavg()[0], cores: machine().cores },
    turn_overhead: {
      turns: TURNS,
      overhead_excluding_model: turn,
      turn_total: summarize(total),
      model_time: summarize(modelMs),
    },
    baseline_read_proposal: {
      name: "the same web.fetch as one POST /v1/proposals (READ: the conveyor runs it at once), client round trip",
      ...base,
    },
    ratio_turn_overhead_vs_read_proposal: {
      p50: +(turn.p50_ms / base.p50_ms).toFixed(2),
      p99: +(turn.p99_ms / base.p99_ms).toFixed(2),
    },
    schedules_one_hub: {
      schedules: SCHEDULES,
      on_time_within_1s: onTime,
      lateness: summarize(lateness),
      fired_per_second: +(SCHEDULES / fireSeconds).toFixed(1),
      duplicate_runs: fired.length - new Set(fired.map((j) => j.id)).size,
    },
    baseline_direct_jobs: {
      name: "the same number of jobs posted at once to POST /v1/jobs from Node",
      jobs_per_second: +(SCHEDULES / directSeconds).toFixed(1),
    },
    ratio_scheduled_vs_direct_per_second: +(SCHEDULES / fireSeconds / (SCHEDULES / directSeconds)).toFixed(2),
  };
  writeResults(join(here, "results.json"), results);
  console.log(JSON.stringify(results, null, 2));
} finally {
  await edge.stop();
  await planner.close();
  await servers.close();
}
