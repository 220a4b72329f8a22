// The agent hook entry that an agent spawns for every tool call: read the event, hand it whole to the daemon, print
// the daemon's answer. It loads Node built-ins and three small modules, no schema library and no policy engine, and is
// bundled into one CommonJS file (scripts/bundle-hook.mjs), which loads faster than ES modules. Without a daemon it starts one for the next call and decides this
// one the slow way (the full hook, in this process). Every failure denies in the agent's own shape.
import { existsSync, readFileSync, writeSync } from "node:fs";
import { connect } from "node:net";
import { daemonDisabled, HOOK_ENV_KEYS, hookBudgetMs, httpEndpointPath, socketPath } from "../cli/config.ts";
import { startDaemonInBackground, waitForDaemon } from "../control/autostart.ts";
import { agentDeny, type HookAgent, type HookResult } from "./output.ts";

/** How long a daemon that vanished mid-answer gets to come back (it journaled the call) before the slow path. */
const DAEMON_RESTART_GRACE_MS = 8_000;

/** How long a session-level hook waits for the daemon it started, so the http hooks that follow find it. */
const HTTP_DAEMON_START_MS = 10_000;

/**
 * Claude Code with http hooks: its per-call hooks post to the daemon and block when none answers, so the command
 * hooks that run once per session or prompt start the daemon and wait for it instead of deciding alone.
 */
function startsDaemonForHttp(agent: HookAgent, event: string | undefined, env: NodeJS.ProcessEnv): boolean {
  return (
    agent === "claude-code" &&
    (event === "SessionStart" || event === "UserPromptSubmit") &&
    existsSync(httpEndpointPath(env))
  );
}

/** The daemon's answer, or why there is none: it refused the request, sent garbage, is not there, or went away. */
type Outcome = HookResult | "refused" | "malformed" | "unavailable" | "lost";

function eventOf(stdin: string): string | undefined {
  try {
    const raw: unknown = JSON.parse(stdin);
    if (raw && typeof raw === "object" && "hook_event_name" in raw) {
      const name = (raw as { hook_event_name: unknown }).hook_event_name;
      return typeof name === "string" ? name : undefined;
    }
  } catch {
    // the daemon or the slow path says why; here only the deny's shape needs the event
  }
  return undefined;
}

/** The daemon's answer, checked field by field (the daemon validated the event; this checks only its reply). */
function resultOf(line: string): HookResult | "refused" | "malformed" {
  try {
    const raw: unknown = JSON.parse(line);
    if (!raw || typeof raw !== "object") return "malformed";
    const r = raw as Record<string, unknown>;
    if (r.type === "error" && r.id === "") return "refused";
    if (
      r.type === "hook_result" &&
      typeof r.stdout === "string" &&
      typeof r.stderr === "string" &&
      Number.isInteger(r.exitCode)
    )
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode as number };
  } catch {
    // malformed
  }
  return "malformed";
}

function askDaemon(path: string, request: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let sent = false;
    let buffer = "";
    let done = false;
    const socket = connect(path);
    const finish = (value: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish("lost"), timeoutMs);
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      sent = true;
      socket.write(request);
    });
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const nl = buffer.indexOf("\n");
      if (nl < 0) return;
      finish(resultOf(buffer.slice(0, nl)));
    });
    socket.on("error", () => finish(sent ? "lost" : "unavailable"));
    socket.on("close", () => finish(sent ? "lost" : "unavailable"));
  });
}

async function slowPath(
  agent: HookAgent,
  stdin: string,
  env: NodeJS.ProcessEnv,
  binPath: string,
): Promise<HookResult> {
  // Outside the bundle on purpose: the full hook (schema, policy engine) loads only when the daemon cannot answer.
  // Found beside the bin, so this works from the one-file bundle (CommonJS) and from tsc's output alike. Those
  // modules are large, so Node's compile cache (Node >= 22.1) is worth turning on here.
  (await import("node:module")).enableCompileCache?.();
  const { pathToFileURL } = await import("node:url");
  const { dirname, join } = await import("node:path");
  const dist = join(dirname(binPath), "..", "dist", "companion", "adapters");
  const url = (file: string) => pathToFileURL(join(dist, agent, file)).href;
  switch (agent) {
    case "claude-code":
      return (
        (await import(url("hook.js"))) as typeof import("../adapters/claude-code/hook.ts")
      ).runClaudeCodeHook(stdin, env);
    case "codex":
      return ((await import(url("hook.js"))) as typeof import("../adapters/codex/hook.ts")).runCodexHook(
        stdin,
        env,
      );
    case "gemini":
      return ((await import(url("hook.js"))) as typeof import("../adapters/gemini/hook.ts")).runGeminiHook(
        stdin,
        env,
      );
    case "opencode":
      return (
        (await import(url("hook.js"))) as typeof import("../adapters/opencode/hook.ts")
      ).runOpenCodeHook(stdin, env);
    case "copilot":
      return ((await import(url("hook.js"))) as typeof import("../adapters/copilot/hook.ts")).runCopilotHook(
        stdin,
        env,
      );
  }
}

/** One hook event from `stdin` to the agent's answer. Never throws. */
export async function decideHook(
  agent: HookAgent,
  stdin: string,
  env: NodeJS.ProcessEnv,
  binPath: string,
): Promise<HookResult> {
  // Parsed only when a deny must be shaped here: a Write's stdin can be large, and the daemon parses it anyway.
  const event = () => eventOf(stdin);
  try {
    if (daemonDisabled(env)) return await slowPath(agent, stdin, env, binPath);
    const passed: Record<string, string> = {};
    for (const key of HOOK_ENV_KEYS) {
      const value = env[key];
      if (value !== undefined) passed[key] = value;
    }
    // The entry tells the daemon which `airlock` to name when it rewrites a command to be served from a future.
    const entry = { node: process.execPath, bin: binPath };
    const request = `${JSON.stringify({ id: `hook-${process.pid}`, type: "hook", agent, stdin, env: passed, entry })}\n`;
    const budget = hookBudgetMs(env) + 5_000;
    const deadline = Date.now() + budget;
    const path = socketPath(env);
    let first = true;
    for (;;) {
      const outcome = await askDaemon(path, request, Math.max(1, deadline - Date.now()));
      if (typeof outcome === "object") return outcome;
      if (outcome === "malformed")
        return agentDeny(agent, event(), "Airlock denied this call: the daemon sent a malformed answer");
      // Too large for the control socket, say: the full hook decides it here.
      if (outcome === "refused") return await slowPath(agent, stdin, env, binPath);
      if (outcome === "unavailable" && first) {
        // No daemon: start one for the calls that follow, and decide this one here (or, for http hooks, there).
        await startDaemonInBackground(env, binPath);
        first = false;
        if (startsDaemonForHttp(agent, event(), env) && (await waitForDaemon(env, HTTP_DAEMON_START_MS)))
          continue;
        return await slowPath(agent, stdin, env, binPath);
      }
      // Lost mid-answer (or gone while we retried): the daemon journaled the call; ask again while it restarts.
      first = false;
      if (Date.now() > deadline - budget + DAEMON_RESTART_GRACE_MS || Date.now() >= deadline)
        return await slowPath(agent, stdin, env, binPath);
      await new Promise((r) => setTimeout(r, 150));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return agentDeny(agent, event(), `Airlock denied this call because the hook failed: ${message}`);
  }
}

/** `airlock hook <agent>` as spawned by the agent: stdin in, the answer out, its exit code returned. */
export async function runFastHook(agent: HookAgent, binPath: string): Promise<never> {
  let stdin = "";
  try {
    // One blocking read of the whole pipe: cheaper than building process.stdin's stream, and the agent closes it.
    stdin = readFileSync(0, "utf8");
  } catch {
    // an unreadable stdin is answered as malformed input
  }
  const result = await decideHook(agent, stdin, process.env, binPath);
  // Plain writes to the descriptors: building process.stdout's stream would cost more than the answer.
  if (result.stderr) writeSync(2, result.stderr);
  if (result.stdout) writeSync(1, result.stdout);
  process.exit(result.exitCode);
}
