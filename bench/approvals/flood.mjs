#!/usr/bin/env node
import { mkdirSync, writeFileSync } from "node:fs";
// bench/approvals/flood: the person's emergency switch while one companion floods its hub.
// One local `wrangler dev`; one companion device sends FLOOD_RATE tool_requests a second (each one a call
// that needs a person, the hub's most expensive kind) for FLOOD_SECONDS, reconnecting whenever the hub
// closes its socket; meanwhile the person flips read-only mode every SWITCH_EVERY_MS over REST, and the
// bench times each flip until the REST answer and until the approver's socket hears `emergency_updated`.
// A quiet phase first gives the baseline. The workerd CPU (from /proc) per quiet switch and per flooded message
// is recorded beside the wall-clock figures: on a loaded machine it is the figure that holds. With
// AIRLOCK_FLOOD_PROFILE=1 a CPU profile of the Worker covers the flood (bench/.scratch/flood.cpuprofile).
// Writes bench/approvals/flood.json with --record.
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { freePort, startEdge } from "../../test/e2e/support/edge.ts";
import { inspector, printSummary, sourceMapper, summarizeProfile } from "../lib/cpu-profile.mjs";
import { machine, resultsFile, summarize, writeResults } from "../lib/stats.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FLOOD_RATE = Number(process.env.AIRLOCK_FLOOD_RATE ?? 2_000);
const FLOOD_SECONDS = Number(process.env.AIRLOCK_FLOOD_SECONDS ?? 30);
const SWITCH_EVERY_MS = 250;
const QUIET_SWITCHES = 20;
const PROFILE = process.env.AIRLOCK_FLOOD_PROFILE === "1";

const agent = { id: "flood-agent", name: "Flood Agent", version: "1.0.0" };
let seq = 0;

function open(base, token, role, onMessage, onClose) {
  const ws = new WebSocket(`${base.replace("http", "ws")}/v1/connect?role=${role}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  ws.on("message", (data) => onMessage(JSON.parse(String(data))));
  ws.on("close", (code) => onClose?.(code));
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("open", () => {
      ws.send(JSON.stringify({ type: "hello", client: { name: `flood-${role}` } }));
      resolve(ws);
    });
  });
}

const inspectorPort = PROFILE ? await freePort() : undefined;
if (inspectorPort) process.env.AIRLOCK_DEV_INSPECTOR_PORT = String(inspectorPort);
const edge = await startEdge();
try {
  const pids = workerdPids();
  const { token: companionToken } = await edge.pairDevice("companion", "flooder");
  const { token: phone } = await edge.pairDevice("browser", "phone");
  const phoneHeaders = { authorization: `Bearer ${phone}`, "content-type": "application/json" };

  // The approver's socket: each emergency_updated resolves the flip waiting for that state.
  const waiting = new Map();
  await open(edge.base, phone, "approver", (m) => {
    if (m.type !== "emergency_updated") return;
    const w = waiting.get(m.data.readOnly);
    if (w) {
      waiting.delete(m.data.readOnly);
      w();
    }
  });
  let readOnly = false;
  async function flip() {
    readOnly = !readOnly;
    const heard = new Promise((resolve) => waiting.set(readOnly, resolve));
    const t = performance.now();
    const res = await fetch(`${edge.base}/v1/settings/emergency`, {
      method: "POST",
      headers: phoneHeaders,
      body: JSON.stringify({ readOnly }),
      signal: AbortSignal.timeout(120_000),
    });
    if (!res.ok) throw new Error(`switch failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const rest = performance.now() - t;
    await heard;
    return { rest, socket: performance.now() - t };
  }

  console.log("quiet: baseline switches");
  const quiet = { rest: [], socket: [] };
  const quietCpu0 = cpuMs(pids);
  for (let i = 0; i < QUIET_SWITCHES; i++) {
    const r = await flip();
    quiet.rest.push(r.rest);
    quiet.socket.push(r.socket);
  }

  const quietCpuPerSwitch = (cpuMs(pids) - quietCpu0) / QUIET_SWITCHES;
  const session = inspectorPort ? await inspector(inspectorPort) : undefined;
  if (session) {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 500 });
    await session.send("Profiler.start");
  }
  const floodCpu0 = cpuMs(pids);
  console.log(`flood: ${FLOOD_RATE}/s for ${FLOOD_SECONDS} s`);
  const counts = {
    sent: 0,
    answered: 0,
    rate_limited: 0,
    other_errors: 0,
    closes: {},
    connects: 0,
    refused_reconnects: 0,
  };
  let flooder;
  let flooding = true;
  const onFloodMessage = (m) => {
    if (m.type === "capability_decision" || m.type === "decision_pending") counts.answered++;
    else if (m.type === "error") {
      if (m.code === "rate_limited") counts.rate_limited++;
      else counts.other_errors++;
    }
  };
  // One socket at a time: when the hub closes it, reconnect at once; a refused reconnect (429 while the
  // device sits out its penalty) is tried again 100 ms later.
  const floodLoop = (async () => {
    while (flooding) {
      let closed;
      const ws = await open(edge.base, companionToken, "companion", onFloodMessage, (code) => {
        counts.closes[code] = (counts.closes[code] ?? 0) + 1;
        flooder = undefined;
        closed?.();
      }).catch(() => undefined);
      if (!ws) {
        counts.refused_reconnects++;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      counts.connects++;
      flooder = ws;
      await new Promise((resolve) => {
        closed = resolve;
        if (ws.readyState !== WebSocket.OPEN) resolve();
      });
    }
  })();
  const tickMs = 10;
  const perTick = Math.max(1, Math.round((FLOOD_RATE * tickMs) / 1000));
  const started = performance.now();
  const pump = setInterval(() => {
    if (!flooder || flooder.readyState !== WebSocket.OPEN) return;
    for (let i = 0; i < perTick; i++) {
      const id = `f${++seq}`;
      flooder.send(
        JSON.stringify({
          type: "tool_request",
          id,
          request: {
            call_id: `${id}-${Date.now()}`,
            session_id: "flood",
            agent,
            tool: "read",
            input: { path: `/work/repo/flood/${seq}.ts` },
            cwd: "/work/repo",
          },
        }),
      );
      counts.sent++;
    }
  }, tickMs);
  const during = { rest: [], socket: [] };
  const progress = setInterval(() => console.log("progress", JSON.stringify(counts)), 1_000);
  // Give the flood a second to build a backlog before the person acts.
  await new Promise((r) => setTimeout(r, 1_000));
  while (performance.now() - started < FLOOD_SECONDS * 1000) {
    const t = performance.now();
    const r = await flip();
    during.rest.push(r.rest);
    during.socket.push(r.socket);
    const left = SWITCH_EVERY_MS - (performance.now() - t);
    if (left > 0) await new Promise((res) => setTimeout(res, left));
  }
  flooding = false;
  clearInterval(pump);
  clearInterval(progress);
  const floodSeconds = (performance.now() - started) / 1000;
  flooder?.close();
  await floodLoop;
  const floodCpu = cpuMs(pids) - floodCpu0;
  if (session) {
    const { profile } = (await session.send("Profiler.stop")).result;
    session.close();
    const scratch = join(here, "..", ".scratch");
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, "flood.cpuprofile"), JSON.stringify(profile));
    printSummary(summarizeProfile(profile, await sourceMapper(scratch)));
  }

  const during_socket = summarize(during.socket);
  const results = {
    benchmark: "approvals-flood",
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m_at_end: +loadavg()[0].toFixed(2),
    method:
      "one local wrangler dev; one companion device floods tool_requests (read calls that need a person) over its socket, reconnecting when closed; the person flips read-only mode over REST every 250 ms; latency = POST /v1/settings/emergency until the approver socket hears emergency_updated",
    quiet: { rest: summarize(quiet.rest), to_socket: summarize(quiet.socket) },
    flood: {
      rate_per_second: FLOOD_RATE,
      seconds: +floodSeconds.toFixed(1),
      ...counts,
      answered_per_second: +(counts.answered / floodSeconds).toFixed(1),
    },
    workerd_cpu: {
      profiled: PROFILE,
      quiet_ms_per_switch: +quietCpuPerSwitch.toFixed(2),
      flood_ms_per_second: +(floodCpu / floodSeconds).toFixed(1),
      flood_ms_per_message_sent: +(floodCpu / Math.max(1, counts.sent)).toFixed(3),
      switches_during_flood: during.socket.length,
    },
    switch_under_flood: {
      rest: summarize(during.rest),
      to_socket: during_socket,
      slowest_ms: [...during.socket]
        .sort((a, b) => b - a)
        .slice(0, 5)
        .map((x) => Math.round(x)),
      target_p99_ms: 1000,
      met: during_socket.p99_ms <= 1000,
    },
    baseline_issue_22: "before admission control: the switch took 90 s under 2,000/s for 15 s",
  };
  writeResults(resultsFile(join(here, "flood.json")), results);
  console.log(JSON.stringify(results, null, 2));
} finally {
  await edge.stop();
}
