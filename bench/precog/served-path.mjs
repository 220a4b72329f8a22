// Where a served `npm test` spends its time outside the agent: the pieces of Pi's tool window that Airlock owns
// (the call's policy decision over the daemon socket, the futures_serve round trip, Pi's bash tool replaying
// the cached output), each timed in a fresh process (the first call, as in a real Pi run) and then warm. Uses
// the daemon and workspace of bench/precog/agents.mjs with the cache-invariant delay 0. Prints a table; the
// analysis lives in served-path.md. BENCH_PROCESSES (default 10) fresh processes, 3 calls each; SERVED_PATH_ONE=1
// times the one-request path Pi's gate takes now (decide and serve together).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const dist = join(root, "dist", "companion");

async function child() {
  const env = JSON.parse(process.env.SERVED_PATH_ENV ?? "{}");
  const cwd = process.env.SERVED_PATH_CWD ?? "";
  const started = performance.now();
  const { requestDecision } = await import(join(dist, "control/client.js"));
  const { serveFuture } = await import(join(dist, "futures/client.js"));
  const { replayBash } = await import(join(dist, "adapters/pi/precognition.js"));
  const pi = join(root, "node_modules/@earendil-works/pi-coding-agent/dist/index.js");
  const { createBashToolDefinition } = await import(pi);
  const imported = performance.now() - started;
  const ctx = { cwd, sessionManager: { getSessionId: () => "bench", getSessionFile: () => undefined } };
  // SERVED_PATH_PRIMED=1 does what Pi's session_start does before the first call: keep one daemon connection,
  // the idle warm, the client warm-up (schemas, warm_up round trip) and Pi's replays over made-up bytes.
  // SERVED_PATH_PRIMED=idle is the earlier start-up, for comparison: the idle warm only, a connection per request.
  const primed = process.env.SERVED_PATH_PRIMED;
  if (primed === "1" || primed === "idle") {
    const { warmFutures } = await import(join(dist, "futures/client.js"));
    if (primed === "1") {
      const { keepControlConnection } = await import(join(dist, "control/connection.js"));
      const { warmUpClient } = await import(join(dist, "control/warm-up.js"));
      const { warmUpReplays } = await import(join(dist, "adapters/pi/precognition.js"));
      keepControlConnection();
      await Promise.all([
        warmFutures(cwd, "idle", "", env),
        warmUpClient(cwd, env),
        warmUpReplays(ctx, true),
      ]);
    } else await warmFutures(cwd, "idle", "", env);
  }
  const calls = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const call = {
      callId: `served-path-${process.pid}-${i}`,
      sessionId: "bench",
      agent: { id: "pi", name: "Pi" },
      tool: "bash",
      input: { command: "npm test" },
      cwd,
      hasUI: false,
    };
    // SERVED_PATH_ONE=1: what Pi's gate does now, one request decides and serves (the future comes with the allow).
    let answer;
    const decision = await requestDecision(call, {
      env,
      ...(process.env.SERVED_PATH_ONE === "1"
        ? { serve: { tool: "bash", command: "npm test" }, onServed: (f) => (answer = f) }
        : {}),
    });
    const t1 = performance.now();
    answer ??= await serveFuture(cwd, { tool: "bash", command: "npm test" }, env);
    const t2 = performance.now();
    if (decision.decision !== "allow" || !answer.hit) throw new Error("expected an allowed hit");
    const chunks = answer.chunks.map((c) => Buffer.from(c.data, "base64"));
    const bash = createBashToolDefinition(cwd, { operations: replayBash(chunks, answer.exitCode) });
    // Pi's bash reports a non-zero exit as a thrown error (the suite fails on purpose).
    await bash.execute("id", { command: "npm test" }, undefined, () => {}, ctx).catch(() => {});
    const t3 = performance.now();
    calls.push({ decide: t1 - t0, serve: t2 - t1, pi_bash: t3 - t2, total: t3 - t0 });
  }
  process.stdout.write(`${JSON.stringify({ imported, calls })}\n`);
}

async function main() {
  const { benchWorkspace, startDaemon } = await import(join(here, "agents.mjs"));
  const { sendControl } = await import(join(dist, "control/connection.js"));
  const { summarize } = await import(join(root, "bench/lib/stats.mjs"));
  const box = benchWorkspace(root);
  const env = box.env("served-path.sock", { AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" });
  const daemon = await startDaemon(process.execPath, join(root, "bin", "airlock.cjs"), env);
  const load0 = loadavg()[0];
  try {
    const status = async () =>
      (await sendControl(env.AIRLOCK_SOCKET, { type: "futures_status" }, 5_000)).stats;
    await sendControl(
      env.AIRLOCK_SOCKET,
      { type: "futures_warm", cwd: box.ws, source: "draft", text: "run the tests" },
      5_000,
    );
    const warmed = () =>
      status().then((s) => s.workspaces[0]?.classes.find((c) => c.class === "bash:npm test")?.warms ?? 0);
    while ((await warmed()) === 0) await new Promise((r) => setTimeout(r, 200));
    // The warm is counted when it starts: wait until a serve answers at once (the run has finished).
    for (;;) {
      const t = performance.now();
      await sendControl(
        env.AIRLOCK_SOCKET,
        { type: "futures_serve", cwd: box.ws, request: { tool: "bash", command: "npm test" } },
        60_000,
      );
      if (performance.now() - t < 500) break;
    }
    const runs = [];
    for (let i = 0; i < Number(process.env.BENCH_PROCESSES ?? 10); i++) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child"], {
        env: { ...process.env, SERVED_PATH_ENV: JSON.stringify(env), SERVED_PATH_CWD: box.ws },
        encoding: "utf8",
      });
      runs.push(JSON.parse(out));
    }
    const pick = (index, key) => summarize(runs.map((r) => r.calls[index][key]));
    const row = (label, index) =>
      `| ${label} | ${["decide", "serve", "pi_bash", "total"].map((k) => `${pick(index, k).p50_ms} / ${pick(index, k).mean_ms}`).join(" | ")} |`;
    const primed =
      {
        1: ", each after Pi's session_start warm-up (kept connection, schemas, warm_up, replays, idle warm)",
        idle: ", each after one idle warm round trip only (the earlier Pi start-up)",
      }[process.env.SERVED_PATH_PRIMED ?? ""] ?? "";
    const one =
      process.env.SERVED_PATH_ONE === "1"
        ? "; one request decides and serves (serve column: 0 unless it missed)"
        : "";
    console.log(
      `load ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}, ${runs.length} fresh processes${primed}${one}`,
    );
    console.log("| call | decide p50 / mean ms | serve | Pi bash replay | total |");
    console.log("|---|---|---|---|---|");
    console.log(row("first in the process", 0));
    console.log(row("second", 1));
    console.log(row("third", 2));
  } finally {
    await daemon.stop();
    box.cleanup?.();
  }
}

if (process.argv.includes("--child")) await child();
else await main();
