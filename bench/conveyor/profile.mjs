#!/usr/bin/env node
// Where a proposal's CPU goes: one local `wrangler dev` (the test entry) with its devtools port open; a CPU profile
// (DevTools protocol, Profiler domain) is taken while one user conveys N proposals (10 in flight), and the
// self time is summed by function and by source file. Prints the top entries and the workerd CPU ms per proposal;
// writes the full profile to bench/.scratch/conveyor.cpuprofile (open it in Chrome DevTools).
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspector, printSummary, sourceMapper, summarizeProfile } from "../lib/cpu-profile.mjs";
import { egressEdge } from "../lib/egress-edge.mjs";
import { pool } from "../lib/users.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.AIRLOCK_BENCH_PROPOSALS ?? 200);

const local = await egressEdge({ name: "profile", inspector: true });
const { servers, inspectorPort } = local;
const edge = await local.start();

async function conveyOne(token) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const post = async (path, body) => {
    const res = await fetch(`${edge.base}${path}`, {
      method: "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { proposal } = await post("/v1/proposals", {
    tool: "http.request",
    identity: "bot",
    idempotency_key: `profile-${randomUUID()}`,
    justification: "bench",
    args: { method: "POST", url: `http://127.0.0.1:${servers.targetPort}/effect` },
  });
  await post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" });
  const done = await post(`/v1/proposals/${proposal.id}/execute`);
  if (done.proposal.state !== "EXECUTED") throw new Error(`not executed: ${done.proposal.state}`);
}

try {
  const { token } = await edge.pairDevice("browser", "profile owner");
  await pool(
    Array.from({ length: 20 }, () => () => conveyOne(token)),
    5,
  );
  const pids = workerdPids();
  const session = await inspector(inspectorPort);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  await session.send("Profiler.start");
  const nodes = workerdPids(process.pid, "node").concat(workerdPids(process.pid, "MainThread"));
  const each0 = pids.map((p) => cpuMs([p]));
  const node0 = cpuMs(nodes);
  const self0 = process.cpuUsage();
  const cpu0 = cpuMs(pids);
  const t0 = performance.now();
  await pool(
    Array.from({ length: N }, () => () => conveyOne(token)),
    10,
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(pids) - cpu0;
  const each = pids.map((p, i) => `${p}: ${((cpuMs([p]) - each0[i]) / N).toFixed(2)}`);
  const nodeCpu = (cpuMs(nodes) - node0) / N;
  const selfCpu = process.cpuUsage(self0);
  console.log(
    `CPU ms per proposal: workerd ${each.join(", ")}; wrangler's node ${nodeCpu.toFixed(2)}; this client ${((selfCpu.user + selfCpu.system) / 1000 / N).toFixed(2)}`,
  );
  const { result } = await session.send("Profiler.stop");
  session.close();
  const scratch = join(here, "..", ".scratch");
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, "conveyor.cpuprofile"), JSON.stringify(result.profile));
  const summary = summarizeProfile(result.profile, await sourceMapper(scratch));
  console.log(
    `${N} proposals in ${seconds.toFixed(2)} s (${(N / seconds).toFixed(1)}/s); workerd CPU ${cpu.toFixed(0)} ms = ${(cpu / N).toFixed(2)} ms per proposal (pids ${pids.join(",")}); profiled ${summary.totalMs.toFixed(0)} ms`,
  );
  printSummary(summary);
} finally {
  await edge.stop();
  await servers.close();
}
