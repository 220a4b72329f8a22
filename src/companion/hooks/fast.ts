// The agent hook entry that an agent spawns for every tool call: read the event, hand it whole to the daemon, print
// the daemon's answer. It loads Node built-ins and three small modules, no schema library and no policy engine, and is
// bundled into one CommonJS file (scripts/bundle-hook.mjs), which loads faster than ES modules. The daemon is asked
// once: without one, it starts one for the next call; refused, lost or absent, this call is decided the slow way (the
// full hook, in this process, never asking the daemon again). Every failure denies in the agent's own shape.
import { existsSync, readFileSync, writeSync } from "node:fs";
import { connect } from "node:net";
import { daemonDisabled, HOOK_ENV_KEYS, hookBudgetMs, httpEndpointPath, socketPath } from "../cli/config.ts";
import { startDaemonInBackground, waitForDaemon } from "../control/autostart.ts";
import { agentDeny, type HookAgent, type HookResult } from "./output.ts";

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

/**
 * The in-process decision: the agent's whole hook (schema, policy engine) in this process, deciding without the
 * daemon. Outside the bundle on purpose: it loads only when the daemon cannot answer. Found beside the bin, so this
 * works from the one-file bundle (CommonJS) and from tsc's output alike. Those modules are large, so Node's compile
 * cache (Node >= 22.1) is worth turning on here.
 */
async function inProcess(
  agent: HookAgent,
  stdin: string,
  env: NodeJS.ProcessEnv,
  binPath: string,
): Promise<HookResult> {
  (await import("node:module")).enableCompileCache?.();
  const { pathToFileURL } = await import("node:url");
  const { dirname, join } = await import("node:path");
  const runners = pathToFileURL(
    join(dirname(binPath), "..", "dist", "companion", "hooks", "runners.js"),
  ).href;
  return ((await import(runners)) as typeof import("./runners.ts")).runHookInProcess(agent, stdin, env);
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
    if (daemonDisabled(env)) return await inProcess(agent, stdin, env, binPath);
    const passed: Record<string, string> = {};
    for (const key of HOOK_ENV_KEYS) {
      const value = env[key];
      if (value !== undefined) passed[key] = value;
    }
    // The entry tells the daemon which `airlock` to name when it rewrites a command to be served from a future.
    const entry = { node: process.execPath, bin: binPath };
    const request = `${JSON.stringify({ id: `hook-${process.pid}`, type: "hook", agent, stdin, env: passed, entry })}\n`;
    const deadline = Date.now() + hookBudgetMs(env) + 5_000;
    const path = socketPath(env);
    let outcome = await askDaemon(path, request, deadline - Date.now());
    if (outcome === "unavailable") {
      // No daemon: start one for the calls that follow; for http hooks, wait for it and let it answer this one.
      await startDaemonInBackground(env, binPath);
      if (startsDaemonForHttp(agent, event(), env) && (await waitForDaemon(env, HTTP_DAEMON_START_MS)))
        outcome = await askDaemon(path, request, Math.max(1, deadline - Date.now()));
    }
    if (typeof outcome === "object") return outcome;
    if (outcome === "malformed")
      return agentDeny(agent, event(), "Airlock denied this call: the daemon sent a malformed answer");
    // Refused (too large for the control socket, say), lost mid-answer, or absent: decided here, and the daemon is
    // not asked again. One it lost journaled the call; the in-process decision asks the edge with the same call,
    // which joins the prompt the daemon opened (see control/client.ts, which does the same for every adapter).
    return await inProcess(agent, stdin, env, binPath);
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
