#!/usr/bin/env node
// bench/conveyor: against one local `wrangler dev` (the test entry, so the executor may reach a local
// target server on loopback), in one run:
//  0. one user, one proposal at a time: the latency from the approve request to the executed proposal
//     with nothing else in flight;
//  1. one user: proposals created, approved and executed per second (C in flight), and that latency;
//  2. 100 users, the same, all at once;
//  3. baseline: the same POST sent straight from Node to the target server, interleaved with phase 1.
// Every proposal's effect is counted by the target server by Idempotency-Key: 0 lost, 0 duplicated.
// Writes bench/conveyor/results.json.
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { egressEdge } from "../lib/egress-edge.mjs";
import { machine, resultsFile, summarize, writeResults } from "../lib/stats.mjs";
import { benchUsers, pool } from "../lib/users.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ONE_USER = Number(process.env.AIRLOCK_BENCH_PROPOSALS ?? 300);
const USERS = 100;
const PER_USER = Number(process.env.AIRLOCK_BENCH_PER_USER ?? 3);
const IN_FLIGHT = 10;
let clientRetries = 0;

const local = await egressEdge({ name: "conveyor" });
const { servers, stateDir, pepper } = local;

// 100 extra users, written to local D1 before the edge starts; their approver codes are bound later, in waves.
const people = benchUsers({ stateDir, pepper, count: USERS });
people.create();

const edge = await local.start();

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** One proposal's whole path; returns the ms from the approve request to the executed proposal. */
async function conveyOne(token, keys) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  // A connection the local dev proxy drops under load is retried (every step is safe to repeat: the key
  // names the proposal, an approval answered twice is a 409, execute joins the run); retries are counted.
  const post = async (path, body, retried = 0) => {
    try {
      const res = await fetch(`${edge.base}${path}`, {
        method: "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (retried > 0 && res.status === 409 && path.endsWith("/approve")) return new Response("{}");
      return res;
    } catch (error) {
      if (retried >= 3 || !(error instanceof TypeError)) throw error;
      clientRetries++;
      return post(path, body, retried + 1);
    }
  };
  const key = `bench-${randomUUID()}`;
  keys.push(`http.request:${key}`);
  const { proposal } = await json(
    await post("/v1/proposals", {
      tool: "http.request",
      identity: "bot",
      idempotency_key: key,
      justification: "bench",
      args: { method: "POST", url: `http://127.0.0.1:${servers.targetPort}/effect` },
    }),
  );
  if (proposal.state !== "PENDING") throw new Error(`expected PENDING, got ${proposal.state}`);
  const t = performance.now();
  await json(await post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" }));
  // Joins the run the approval started and answers when it has finished.
  const done = await json(await post(`/v1/proposals/${proposal.id}/execute`));
  const ms = performance.now() - t;
  if (done.proposal.state !== "EXECUTED") throw new Error(`not executed: ${JSON.stringify(done.proposal)}`);
  return ms;
}

try {
  const ownerToken = (await edge.pairDevice("browser", "bench owner")).token;

  const loadBefore = loadavg()[0];
  // Warm-up (not measured).
  await pool(
    Array.from({ length: 20 }, () => () => conveyOne(ownerToken, [])),
    5,
  );
  console.log("phase 0: one user, one proposal at a time");
  const serialKeys = [];
  const serial = [];
  for (let i = 0; i < 50; i++) serial.push(await conveyOne(ownerToken, serialKeys));

  const workerd = workerdPids();
  const cpuPer = (from, n) => +((cpuMs(workerd) - from) / n).toFixed(2);
  console.log(`phase 1: one user, ${ONE_USER} proposals, ${IN_FLIGHT} in flight`);
  let cpu0 = cpuMs(workerd);
  const oneKeys = [];
  const baseline = [];
  let start = performance.now();
  const oneLatencies = await pool(
    Array.from({ length: ONE_USER }, (_, i) => async () => {
      if (i % 3 === 0) {
        const t = performance.now();
        await (
          await fetch(`http://127.0.0.1:${servers.targetPort}/effect`, {
            method: "POST",
            headers: { "idempotency-key": `baseline-${randomUUID()}` },
            body: "{}",
          })
        ).arrayBuffer();
        baseline.push(performance.now() - t);
      }
      return conveyOne(ownerToken, oneKeys);
    }),
    IN_FLIGHT,
  );
  const oneSeconds = (performance.now() - start) / 1000;
  // The direct POSTs of the baseline cost the edge nothing; the proposals' three requests are all of it.
  const oneCpu = cpuPer(cpu0, ONE_USER);

  console.log(`phase 2: ${USERS} users x ${PER_USER} proposals, all at once`);
  const tokens = await people.tokens(edge.base, pool);
  const manyKeys = [];
  cpu0 = cpuMs(workerd);
  start = performance.now();
  const manyLatencies = (
    await Promise.all(
      tokens.map((token) =>
        pool(
          Array.from({ length: PER_USER }, () => () => conveyOne(token, manyKeys)),
          1,
        ),
      ),
    )
  ).flat();
  const manySeconds = (performance.now() - start) / 1000;
  const manyCpu = cpuPer(cpu0, manyLatencies.length);

  const { effects } = await (await fetch(`${servers.controlUrl}/stats`)).json();
  const count = (keys) => ({
    lost: keys.filter((k) => !effects[k]).length,
    duplicated: keys.filter((k) => (effects[k] ?? 0) > 1).length,
  });
  const one = summarize(oneLatencies);
  const base = summarize(baseline);
  const results = {
    benchmark: "conveyor",
    date: new Date().toISOString(),
    machine: machine(),
    method:
      "one local wrangler dev (workerd, local D1 and Durable Objects) with the test entry; Node client and target server on the same machine. Each proposal: POST /v1/proposals (http.request POST to the target), POST /v1/approvals/{id}/approve, then POST /v1/proposals/{id}/execute, which joins the run the approval started; latency is approve request -> executed answer.",
    client_retries_after_dropped_connections: clientRetries,
    d1_round_trips_per_proposal: {
      hub: 4,
      with_auth: 7,
      before: { hub: 11, with_auth: 14 },
      counted_by: "test/edge/conveyor/round-trips.test.ts (the count does not depend on the machine's load)",
    },
    load_average_1m: {
      before: +loadBefore.toFixed(2),
      after: +loadavg()[0].toFixed(2),
      cores: machine().cores,
    },
    one_user_serial: {
      proposals: serial.length,
      approve_to_executed: summarize(serial),
      ...count(serialKeys),
    },
    one_user: {
      proposals: ONE_USER,
      in_flight: IN_FLIGHT,
      seconds: +oneSeconds.toFixed(2),
      proposals_per_second: +(ONE_USER / oneSeconds).toFixed(1),
      workerd_cpu_ms_per_proposal: oneCpu,
      approve_to_executed: one,
      ...count(oneKeys),
    },
    hundred_users: {
      users: USERS,
      proposals: manyLatencies.length,
      seconds: +manySeconds.toFixed(2),
      proposals_per_second: +(manyLatencies.length / manySeconds).toFixed(1),
      workerd_cpu_ms_per_proposal: manyCpu,
      approve_to_executed: summarize(manyLatencies),
      ...count(manyKeys),
    },
    baseline_direct_post: {
      name: "the same POST from Node straight to the target server (no Airlock)",
      ...base,
    },
    ratio_approve_to_executed_vs_direct: {
      p50: +(one.p50_ms / base.p50_ms).toFixed(2),
      p99: +(one.p99_ms / base.p99_ms).toFixed(2),
    },
  };
  writeResults(resultsFile(join(here, "results.json")), results);
  console.log(JSON.stringify(results, null, 2));
  const bad =
    results.one_user.lost +
    results.one_user.duplicated +
    results.hundred_users.lost +
    results.hundred_users.duplicated;
  if (bad) process.exitCode = 1;
} catch (error) {
  // What the edge said last is usually why (a crashed hub, an overloaded workerd).
  console.error(`edge output (tail):\n${edge.output().slice(-4000)}`);
  throw error;
} finally {
  await edge.stop();
  await servers.close();
}
