// Real agents against the scripted local model: Pi (RPC mode, event timestamps) and Claude Code (`claude -p`,
// tool round trip seen by the model server), each run paired: precognition off, then on, back to back.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const TEST_SECONDS = Number(process.env.BENCH_TEST_SECONDS ?? 5);

// mode: sole, because a served call must be pre-approved: in the default composed mode Airlock serves Claude Code
// only where the call runs without Claude Code's own check (a person's answer, or bypassPermissions).
const POLICY = `version: 1
mode: sole
default_action: deny
rules:
  - name: Read the workspace
    condition: tool == "read" || tool == "grep" || tool == "ls" || tool == "find"
    action: allow
  - name: Run the tests
    condition: tool == "bash" && command == "npm test"
    action: allow
  - name: The floor arms' do-nothing call
    condition: tool == "bash" && command == "true"
    action: allow
`;

// A slow test suite: it waits (as tests waiting on I/O do) rather than spinning, so the two cores measure
// the agents, not the suite.
const TEST_SCRIPT = `const fs = require("fs");
setTimeout(() => {
  console.log("checked", fs.readFileSync("src/helper.ts", "utf8").trim());
  console.log("41 passing, 1 failing");
  process.exitCode = 1;
}, ${TEST_SECONDS * 1000});
`;

export function benchWorkspace(root) {
  const base = mkdtempSync(join(tmpdir(), "airlock-precog-agents-"));
  const ws = join(base, "ws");
  const home = join(base, "home");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(ws, "test"), { recursive: true });
  mkdirSync(join(ws, ".git"), { recursive: true });
  mkdirSync(join(home, ".airlock"), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".airlock", "permissions.yaml"), POLICY);
  writeFileSync(
    join(ws, "package.json"),
    JSON.stringify({ name: "demo", scripts: { test: "node test/run.js" } }),
  );
  writeFileSync(join(ws, "test/run.js"), TEST_SCRIPT);
  writeFileSync(join(ws, "src/helper.ts"), "export const helper = (n: number) => n + 1;\n");
  const env = (socket, extra = {}) => ({
    PATH: process.env.PATH,
    HOME: home,
    AIRLOCK_HOME: join(home, ".airlock"),
    AIRLOCK_SOCKET: join(base, socket),
    // npm's occasional "new version available" notice would make otherwise identical outputs differ.
    npm_config_update_notifier: "false",
    ...extra,
  });
  return {
    base,
    ws,
    env,
    /** A causal change: the next precognition run must warm afresh. */
    // A file the suite does not print, so outputs stay comparable across arms.
    invalidate: (i) => writeFileSync(join(ws, "src/touched.ts"), `export const edits = ${i};\n`),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
    root,
  };
}

/** Starts `airlock up` and resolves once its control socket is ready. */
export function startDaemon(node, bin, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, "up"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const onData = (d) => {
      log += d;
      if (log.includes("ready (socket"))
        resolve({
          stop: () =>
            new Promise((r) => {
              child.once("exit", r);
              child.kill("SIGTERM");
            }),
        });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`daemon exited (${code}): ${log}`)));
  });
}

export { piAgentDir } from "../../test/support/pi-agent-dir.ts";

/**
 * One Pi run in RPC mode: the prompt is sent, and the times of the first tool's start and end are taken from
 * Pi's own event stream (so Pi's start-up is not counted).
 */
export function piRpcRun({ node, piCli, extension, cwd, env, prompt }) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      node,
      [
        piCli,
        "--mode",
        "rpc",
        "--no-session",
        "--provider",
        "scripted",
        "--model",
        "scripted-model",
        // No extension: Pi alone (the floor arm).
        ...(extension ? ["-e", extension] : []),
      ],
      { cwd, env, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const t = { sent: 0, toolStart: 0, toolEnd: 0, text: "" };
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (t.toolEnd === 0) reject(new Error(`pi ended (${code}) before a tool result:\n${stderr}`));
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      const now = performance.now();
      if (event.id === "ready" && t.sent === 0) {
        t.sent = now;
        child.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: prompt })}\n`);
      }
      if (event.type === "tool_execution_start" && t.toolStart === 0) t.toolStart = now;
      if (event.type === "tool_execution_end" && t.toolEnd === 0) {
        t.toolEnd = now;
        t.text = JSON.stringify(event.result?.content ?? []);
      }
      if (event.type === "agent_settled") {
        child.stdin.end();
        child.kill("SIGTERM");
        resolve({ firstToolResultMs: t.toolEnd - t.sent, toolMs: t.toolEnd - t.toolStart, text: t.text });
      }
    });
    // The clock starts when the prompt is written, once Pi has answered a first command (it is up).
    child.stdin.write(`${JSON.stringify({ id: "ready", type: "get_state" })}\n`);
  });
}

/** One `claude -p` run; the tool round trip is what the model server saw between its answer and the next call. */
export function claudeRun({ claude, cwd, env, model, prompt }) {
  return new Promise((resolve, reject) => {
    const child = spawn(claude, ["-p", prompt, "--output-format", "json"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.once("close", (code) => {
      const turns = model.agentTurns();
      const first = turns[0];
      const second = turns[1];
      if (code !== 0 || !first?.answeredAt || !second)
        return reject(new Error(`claude failed (${code}): ${err}${out}`));
      if (process.env.BENCH_DEBUG_REQUESTS)
        for (const r of model.requests)
          console.log(
            `  ${r.path} +${(r.receivedAt - first.answeredAt).toFixed(1)} ms ${turns.includes(r) ? "turn" : "side"}`,
          );
      resolve({ toolRoundTripMs: second.receivedAt - first.answeredAt, results: model.toolResults() });
    });
  });
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}
