#!/usr/bin/env node
// bench/auth: p50/p99 of an authenticated GET /v1/devices against GET /healthz (the baseline),
// both against one local `wrangler dev`, interleaved in one run. Writes bench/auth/results.json with --record (else bench/.scratch).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEdge } from "../../test/e2e/support/edge.ts";
import { machine, resultsFile, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 2000);
const WARMUP = 200;

async function timed(url, init) {
  const start = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return ms;
}

const edge = await startEdge();
try {
  const { token } = await edge.pairDevice("companion", "bench");
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const health = `${edge.base}/healthz`;
  const devices = `${edge.base}/v1/devices`;
  for (let i = 0; i < WARMUP; i++) {
    await timed(health);
    await timed(devices, auth);
  }
  const baseline = [];
  const measured = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Interleaved so both see the same machine state.
    baseline.push(await timed(health));
    measured.push(await timed(devices, auth));
  }
  const healthz = summarize(baseline);
  const list = summarize(measured);
  const results = {
    benchmark: "auth",
    date: new Date().toISOString(),
    machine: machine(),
    method: `sequential keep-alive requests from one Node client to local wrangler dev; ${WARMUP} warm-up pairs, then ${ROUNDS} interleaved pairs`,
    baseline: { name: "GET /healthz (no auth, no D1)", ...healthz },
    target: {
      name: "GET /v1/devices (bearer token: HMAC verify, D1 token+device lookup, device list)",
      ...list,
    },
    ratio: {
      p50: Math.round((list.p50_ms / healthz.p50_ms) * 100) / 100,
      p99: Math.round((list.p99_ms / healthz.p99_ms) * 100) / 100,
    },
  };
  writeResults(resultsFile(join(here, "results.json")), results);
  console.log(
    JSON.stringify({ baseline: results.baseline, target: results.target, ratio: results.ratio }, null, 2),
  );
} finally {
  await edge.stop();
}
