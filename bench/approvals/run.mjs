#!/usr/bin/env node
// bench/approvals: against one local `wrangler dev`, in one run:
//  1. round trip of POST /v1/decisions answered by a saved grant (baseline: GET /healthz, interleaved);
//  2. delivery latency, companion tool_request -> dashboard capability_prompt (includes the 250 ms batch window);
//  3. delivery latency, dashboard capability_decision -> companion capability_decision;
//  4. sustained decisions per second from 50 concurrent companion sockets on one user, counting lost and
//     duplicated decisions (both must be zero).
// Writes bench/approvals/results.json with --record (else a scratch copy in bench/.scratch).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { startEdge } from "../../test/e2e/support/edge.ts";
import { machine, resultsFile, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const GRANT_ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 500);
const DELIVERY_ROUNDS = 40;
const SOCKETS = 50;
const PER_SOCKET = Number(process.env.AIRLOCK_BENCH_PER_SOCKET ?? 40);
const IN_FLIGHT = 5;

const agent = { id: "bench-agent", name: "Bench Agent", version: "1.0.0" };
let seq = 0;
const callId = (p) => `${p}-${Date.now()}-${++seq}`;
const readCall = (path, id = callId("r")) => ({
  call_id: id,
  session_id: "bench-session",
  agent,
  tool: "read",
  input: { path },
  cwd: "/work/repo",
});

function socket(base, token, role) {
  const ws = new WebSocket(`${base.replace("http", "ws")}/v1/connect?role=${role}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const listeners = new Set();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    for (const listener of listeners) listener(message);
  });
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("open", () => {
      ws.send(JSON.stringify({ type: "hello", client: { name: `bench-${role}` } }));
      const api = {
        ws,
        send: (m) => ws.send(JSON.stringify(m)),
        on: (fn) => listeners.add(fn),
        off: (fn) => listeners.delete(fn),
        waitFor(predicate, timeoutMs = 15000) {
          return new Promise((res, rej) => {
            const timer = setTimeout(() => {
              listeners.delete(fn);
              rej(new Error("timed out waiting for a message"));
            }, timeoutMs);
            const fn = (m) => {
              if (predicate(m)) {
                clearTimeout(timer);
                listeners.delete(fn);
                res(m);
              }
            };
            listeners.add(fn);
          });
        },
      };
      api.waitFor((m) => m.type === "welcome").then(() => resolve(api), reject);
    });
  });
}

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

const edge = await startEdge();
try {
  const { token } = await edge.pairDevice("companion", "bench");
  // Only an approver (the phone) may answer prompts; the companion submits calls.
  const phone = await edge.pairDevice("browser", "bench phone");
  const as = (bearer) => (path, body) =>
    fetch(`${edge.base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const post = as(token);
  const phonePost = as(phone.token);

  // Seed a grant: ask once for src/, approve "always".
  const first = await json(await post("/v1/decisions?wait=false", readCall("/work/repo/src/seed.ts")));
  await json(await phonePost(`/v1/approvals/${first.prompt_id}/approve`, { scope: "always" }));

  // 1. Grant-hit round trip vs /healthz.
  console.log("phase 1: grant-hit round trips");
  const grantSamples = [];
  const healthSamples = [];
  for (let i = 0; i < GRANT_ROUNDS + 50; i++) {
    let t = performance.now();
    await (await fetch(`${edge.base}/healthz`)).arrayBuffer();
    const h = performance.now() - t;
    t = performance.now();
    const answer = await json(await post("/v1/decisions", readCall(`/work/repo/src/f${i}.ts`)));
    const g = performance.now() - t;
    if (answer.source !== "grant" || answer.decision !== "allow")
      throw new Error(`not a grant hit: ${JSON.stringify(answer)}`);
    if (i >= 50) {
      healthSamples.push(h);
      grantSamples.push(g);
    }
  }

  // 2 and 3. Socket delivery latencies.
  console.log("phase 2: socket delivery");
  const companion = await socket(edge.base, token, "companion");
  const dashboard = await socket(edge.base, phone.token, "approver");
  if (process.env.AIRLOCK_BENCH_DEBUG) {
    dashboard.on((m) => console.log("dashboard <-", JSON.stringify(m).slice(0, 160)));
    companion.on((m) => console.log("companion <-", JSON.stringify(m).slice(0, 160)));
  }
  const toDashboard = [];
  const toCompanion = [];
  for (let i = 0; i < DELIVERY_ROUNDS; i++) {
    const call = readCall(`/work/repo/dir${i}/x.ts`, callId("d"));
    const shown = dashboard.waitFor(
      (m) => m.type === "capability_prompt" && m.data.callIds.includes(call.call_id),
    );
    let t = performance.now();
    companion.send({ type: "tool_request", id: call.call_id, request: call });
    const prompt = await shown;
    toDashboard.push(performance.now() - t);
    const decided = companion.waitFor(
      (m) => m.type === "capability_decision" && m.data.call_id === call.call_id,
    );
    t = performance.now();
    dashboard.send({
      type: "capability_decision",
      id: `x${i}`,
      promptId: prompt.data.promptId,
      decision: "allow_once",
    });
    const decision = await decided;
    toCompanion.push(performance.now() - t);
    if (decision.data.decision !== "allow") throw new Error("wrong decision delivered");
  }
  companion.ws.close();
  dashboard.ws.close();

  // 4. Sustained throughput from 50 sockets, every call answered by the grant.
  console.log(`phase 3: ${SOCKETS} sockets x ${PER_SOCKET} calls`);
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, () => socket(edge.base, token, "companion")),
  );
  console.log(`${sockets.length} sockets connected`);
  const expected = new Set();
  const seen = new Map();
  const start = performance.now();
  await Promise.all(
    sockets.map(async (s, si) => {
      let sent = 0;
      let done = 0;
      await new Promise((resolveAll) => {
        const sendNext = () => {
          if (sent >= PER_SOCKET) return;
          const call = readCall(`/work/repo/src/s${si}/c${sent}.ts`, `t-${si}-${sent}`);
          expected.add(call.call_id);
          sent += 1;
          s.send({ type: "tool_request", id: call.call_id, request: call });
        };
        s.on((m) => {
          if (m.type !== "capability_decision") return;
          seen.set(m.data.call_id, (seen.get(m.data.call_id) ?? 0) + 1);
          done += 1;
          if (done >= PER_SOCKET) resolveAll();
          else sendNext();
        });
        for (let k = 0; k < IN_FLIGHT; k++) sendNext();
        setTimeout(resolveAll, 120_000).unref();
      });
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  for (const s of sockets) s.ws.close();
  const lost = [...expected].filter((id) => !seen.has(id)).length;
  const duplicated = [...seen.values()].filter((n) => n > 1).length;
  const decided = [...seen.keys()].filter((id) => expected.has(id)).length;

  const grant = summarize(grantSamples);
  const health = summarize(healthSamples);
  const results = {
    benchmark: "approvals",
    date: new Date().toISOString(),
    machine: machine(),
    method:
      "one local wrangler dev (workerd, local D1 and Durable Objects); Node client on the same machine; keep-alive fetch and ws sockets",
    grant_hit_round_trip: { name: "POST /v1/decisions answered by a saved allow_always grant", ...grant },
    baseline_healthz: { name: "GET /healthz, interleaved with the grant hits", ...health },
    ratio_grant_vs_healthz: {
      p50: +(grant.p50_ms / health.p50_ms).toFixed(2),
      p99: +(grant.p99_ms / health.p99_ms).toFixed(2),
    },
    delivery_request_to_dashboard: {
      name: "companion tool_request -> dashboard capability_prompt (includes the 250 ms batching window by design)",
      ...summarize(toDashboard),
    },
    delivery_decision_to_companion: {
      name: "dashboard capability_decision -> companion capability_decision",
      ...summarize(toCompanion),
    },
    sustained: {
      sockets: SOCKETS,
      requests: expected.size,
      decided,
      seconds: +seconds.toFixed(2),
      decisions_per_second: +(decided / seconds).toFixed(1),
      in_flight_per_socket: IN_FLIGHT,
      lost,
      duplicated,
    },
  };
  writeResults(resultsFile(join(here, "results.json")), results);
  console.log(JSON.stringify(results, null, 2));
  if (lost || duplicated) process.exitCode = 1;
} finally {
  await edge.stop();
}
