// Real agents against the scripted local model: Pi (RPC mode, event timestamps) and Claude Code (`claude -p`,
// tool round trip seen by the model server), each run paired: precognition off, then on, back to back. The
// arms, the draft warm and the two daemons live here so run.mjs (5 s suite) and slow-suite.mjs (60 s) share them.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startModelServer } from "../../test/support/model-server.ts";
import { piAgentDir } from "../../test/support/pi-agent-dir.ts";

export const TEST_SECONDS = Number(process.env.BENCH_TEST_SECONDS ?? 5);
export const PROMPT = "The tests fail. Run them and tell me what breaks.";
const NODE = process.execPath;
const PI_ENV = { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
const OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
};

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
const testScript = (seconds) => `const fs = require("fs");
setTimeout(() => {
  console.log("checked", fs.readFileSync("src/helper.ts", "utf8").trim());
  console.log("41 passing, 1 failing");
  process.exitCode = 1;
}, ${seconds * 1000});
`;

/** The bench's workspace and home; `testSeconds` is how long its `npm test` takes (BENCH_TEST_SECONDS). */
export function benchWorkspace(root, testSeconds = TEST_SECONDS) {
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
  writeFileSync(join(ws, "test/run.js"), testScript(testSeconds));
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
    testSeconds,
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

export { piAgentDir };

/**
 * The two daemons every agent bench runs: one with the default delays, and one at delay 0 with a home of its
 * own and an http hook endpoint (one endpoint per home), so Claude Code's served arm takes the http hook: one
 * request decides, validates and serves a shell-only replay.
 */
export async function startDaemons(box) {
  const { ensureHttpEndpoint } = await import(join(box.root, "dist/companion/daemon/http-endpoint.js"));
  const bin = join(box.root, "bin", "airlock.js");
  const sockets = { standard: "d-default.sock", zero: "d-zero.sock" };
  const zeroHome = join(box.base, "home-zero", ".airlock");
  mkdirSync(zeroHome, { recursive: true, mode: 0o700 });
  copyFileSync(join(box.base, "home", ".airlock", "permissions.yaml"), join(zeroHome, "permissions.yaml"));
  const zeroEnv = { AIRLOCK_HOME: zeroHome, AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };
  const endpoint = await ensureHttpEndpoint({ AIRLOCK_HOME: zeroHome });
  const daemons = [
    await startDaemon(NODE, bin, box.env(sockets.standard)),
    await startDaemon(NODE, bin, box.env(sockets.zero, zeroEnv)),
  ];
  return {
    sockets,
    zeroEnv,
    endpoint,
    stop: async () => {
      for (const d of daemons) await d.stop();
    },
  };
}

/**
 * The person types the prompt for longer than the suite takes: the draft warms (what Pi's debounced draft
 * trigger sends), and the run starts once the warm has finished.
 */
let edits = 0;

export async function typeDraft(box, socket) {
  const { sendControl } = await import(join(box.root, "dist/companion/control/connection.js"));
  // A causal edit first, so this run warms afresh instead of reusing an earlier run's future.
  box.invalidate(++edits);
  const cwd = box.ws;
  const warmsOf = async () => {
    const res = await sendControl(socket, { type: "futures_status" }, 5_000);
    const ws = res.stats.workspaces.find((w) => w.name === "ws");
    return ws?.classes.find((c) => c.class === "bash:npm test")?.warms ?? 0;
  };
  const before = await warmsOf();
  await sendControl(socket, { type: "futures_warm", cwd, source: "draft", text: PROMPT }, 5_000);
  const end = Date.now() + (box.testSeconds + 30) * 1000;
  while ((await warmsOf()) === before) {
    if (Date.now() > end) throw new Error("the draft warm did not finish");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One Pi run whose model asks for one bash call (`options.command`, `npm test` by default). */
export async function piArm(box, name, socket, precog, options = {}) {
  const command = options.command ?? "npm test";
  const model = await startModelServer([{ toolCalls: [{ name: "bash", input: { command } }] }]);
  try {
    return await piRpcRun({
      node: NODE,
      piCli: join(box.root, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"),
      extension:
        options.airlock === false ? undefined : join(box.root, "dist/companion/adapters/pi/extension.js"),
      cwd: box.ws,
      env: {
        ...box.env(socket, precog),
        ...PI_ENV,
        PI_CODING_AGENT_DIR: piAgentDir(box.base, name, model.url),
      },
      prompt: PROMPT,
    });
  } finally {
    await model.close();
  }
}

/**
 * One Claude Code run. `options.hooks`: "command" (the default), "http" (PreToolUse posted to the daemon whose
 * endpoint is `options.endpoint`, as the installer writes it for Claude Code ≥ 2.1.295) or "none" (Claude Code
 * alone, the floor arm); `options.command` is the Bash command the model asks for.
 */
export async function claudeArm(box, name, socket, precog, options = {}) {
  const command = options.command ?? "npm test";
  const bin = join(box.root, "bin", "airlock.js");
  const model = await startModelServer([
    { toolCalls: [{ name: "Bash", input: { command, description: "Run the tests" } }] },
  ]);
  const configDir = join(box.base, name);
  mkdirSync(configDir, { recursive: true });
  const hook = `${NODE} ${bin} hook claude-code`;
  const pre =
    options.hooks === "http"
      ? {
          type: "http",
          url: `http://127.0.0.1:${options.endpoint.port}/hooks/claude-code`,
          headers: { "x-airlock-hook-secret": options.endpoint.secret },
          timeout: 60,
          onFailure: "block",
        }
      : { type: "command", command: hook };
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify(
      options.hooks === "none"
        ? { permissions: { allow: [`Bash(${command})`] } }
        : {
            hooks: {
              UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }],
              PreToolUse: [{ matcher: "*", hooks: [pre] }],
            },
          },
    ),
  );
  try {
    return await claudeRun({
      claude: join(box.root, "node_modules/.bin/claude"),
      cwd: box.ws,
      model,
      prompt: PROMPT,
      env: {
        ...box.env(socket, precog),
        ...OFFLINE,
        AIRLOCK_FUTURES_COMMAND: `${NODE} ${bin}`,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "sk-ant-bench-dummy",
      },
    });
  } finally {
    await model.close();
  }
}

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

/** The best ratio any serving could reach: the cold mean over the mean of a tool call that does nothing. */
export function ceiling(cold, floor) {
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.round((mean(cold) / mean(floor)) * 100) / 100;
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}
