#!/usr/bin/env node
// Where a proposal's CPU goes: one local `wrangler dev` (the test entry) with its devtools port open; a CPU profile
// (DevTools protocol, Profiler domain) is taken while one user conveys N proposals (10 in flight), and the
// self time is summed by function and by source file. Prints the top entries and the workerd CPU ms per proposal;
// writes the full profile to bench/.scratch/conveyor.cpuprofile (open it in Chrome DevTools).
import { randomBytes, randomUUID } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { freePort, ROOT, startEdge } from "../../test/e2e/support/edge.ts";
import { startEgressServers } from "../../test/support/egress-servers.ts";
import { pool } from "../lib/users.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.AIRLOCK_BENCH_PROPOSALS ?? 200);

const servers = await startEgressServers();
const stateDir = mkdtempSync(join(tmpdir(), "airlock-bench-profile-"));
const inspectorPort = await freePort();
process.env.AIRLOCK_DEV_INSPECTOR_PORT = String(inspectorPort);
const edge = await startEdge({
  stateDir,
  entry: "test/edge/worker-entry.ts",
  vars: {
    TOKEN_PEPPER: randomBytes(32).toString("base64url"),
    ADMIN_BOOTSTRAP_TOKEN: randomBytes(32).toString("base64url"),
    AIRLOCK_DOH_URL: servers.dohUrl,
    TEST_TARGET_PORT: String(servers.targetPort),
  },
});

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

/** A devtools session on the Worker (wrangler's inspector proxy lists it at /json). */
async function inspector() {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target: ${JSON.stringify(targets)}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id !== undefined && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  });
  return {
    send(method, params = {}) {
      const n = ++id;
      ws.send(JSON.stringify({ id: n, method, params }));
      return new Promise((resolve) => waiting.set(n, resolve));
    },
    close: () => ws.close(),
  };
}

/** Maps a bundle position to its source (wrangler dev writes the bundle and its map under .wrangler/tmp). */
async function sourceMapper(scratch) {
  const tmp = join(ROOT, ".wrangler", "tmp");
  const dirs = existsSync(tmp) ? readdirSync(tmp).filter((d) => d.startsWith("dev-")) : [];
  const map = dirs.map((d) => join(tmp, d, "worker-entry.js.map")).find((f) => existsSync(f));
  if (!map) return () => undefined;
  copyFileSync(map, join(scratch, "conveyor-worker-entry.js.map"));
  const { TraceMap, originalPositionFor } = await import("@jridgewell/trace-mapping");
  const traced = new TraceMap(readFileSync(map, "utf8"));
  return (line, column) => {
    const pos = originalPositionFor(traced, { line: line + 1, column });
    return pos.source
      ? `${pos.source.replace(/^.*?\/(src|node_modules|test)\//, "$1/")}:${pos.line}`
      : undefined;
  };
}

/** Self and total time by function, self time by file, from a V8 CPU profile. */
function summarizeProfile(profile, mapped) {
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const parent = new Map();
  const byId = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const keyOf = new Map();
  const fileOf = new Map();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const where =
      (f.url.endsWith("worker-entry.js") && mapped(f.lineNumber, f.columnNumber)) ||
      `${f.url || "(native)"}${f.url ? `:${f.lineNumber + 1}` : ""}`;
    keyOf.set(node.id, `${f.functionName || "(anonymous)"} ${where}`);
    fileOf.set(node.id, where.replace(/:\d+$/, ""));
  }
  const bySelf = new Map();
  const byTotal = new Map();
  const byFile = new Map();
  const byFileTotal = new Map();
  for (const [id, us] of self) {
    const key = keyOf.get(id);
    bySelf.set(key, (bySelf.get(key) ?? 0) + us);
    byFile.set(fileOf.get(id), (byFile.get(fileOf.get(id)) ?? 0) + us);
    const seen = new Set();
    const seenFiles = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      seen.add(keyOf.get(n));
      seenFiles.add(fileOf.get(n));
    }
    for (const k of seen) byTotal.set(k, (byTotal.get(k) ?? 0) + us);
    for (const k of seenFiles) byFileTotal.set(k, (byFileTotal.get(k) ?? 0) + us);
  }
  const top = (m, n) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) =>
          `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      );
  return {
    totalMs: total / 1000,
    bySelf: top(bySelf, 40),
    byTotal: top(byTotal, 70),
    byFile: top(byFile, 30),
    byFileTotal: top(byFileTotal, 50),
  };
}

try {
  const { token } = await edge.pairDevice("browser", "profile owner");
  await pool(
    Array.from({ length: 20 }, () => () => conveyOne(token)),
    5,
  );
  const pids = workerdPids();
  const session = await inspector();
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
  for (const [title, lines] of [
    ["self time by function", summary.bySelf],
    ["total time by function (callees included)", summary.byTotal],
    ["self time by file", summary.byFile],
    ["total time by file (callees included)", summary.byFileTotal],
  ]) {
    console.log(`\n${title}:`);
    for (const line of lines) console.log(line);
  }
} finally {
  await edge.stop();
  await servers.close();
}
