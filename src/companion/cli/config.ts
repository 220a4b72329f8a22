// Where the companion keeps its files and which AIRLOCK_* switches it reads; every path comes from here.
import { join, resolve } from "node:path";
import { promptTimeoutMs as clampPromptTimeout, DEFAULT_PROMPT_TIMEOUT_MS } from "../../policy/deadlines.ts";

/** The account's home when HOME is unset; node:os is loaded only then (the fast hook never needs it). */
function osHome(): string {
  return process.getBuiltinModule("node:os").homedir();
}

export type Env = NodeJS.ProcessEnv;

/** `AIRLOCK_HOME`, default `~/.airlock`: credentials, state journal, fallback socket directory. */
export function airlockHome(env: Env = process.env): string {
  const set = env.AIRLOCK_HOME?.trim();
  return set ? resolve(set) : join(env.HOME?.trim() || osHome(), ".airlock");
}

export function credentialsPath(env: Env = process.env): string {
  return join(airlockHome(env), "credentials.json");
}

/** The daemon's http hook endpoint (port and secret, 0600), written by `airlock hook claude-code --install`. */
export function httpEndpointPath(env: Env = process.env): string {
  return join(airlockHome(env), "http-hook.json");
}

/** The durable journal of in-flight calls, queued audit events and the persisted-grant cache. */
export function stateDir(env: Env = process.env): string {
  return join(airlockHome(env), "state");
}

/**
 * The daemon's control socket: `AIRLOCK_SOCKET`, else `$XDG_RUNTIME_DIR/airlock/daemon.sock` (a per-user tmpfs
 * that the OS cleans at logout), else `$AIRLOCK_HOME/run/daemon.sock`.
 */
export function socketPath(env: Env = process.env): string {
  const set = env.AIRLOCK_SOCKET?.trim();
  if (set) return resolve(set);
  const runtime = env.XDG_RUNTIME_DIR?.trim();
  if (runtime) return join(runtime, "airlock", "daemon.sock");
  return join(airlockHome(env), "run", "daemon.sock");
}

function positiveInt(raw: string | undefined, fallback: number): number {
  if (!raw?.trim()) return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/**
 * How long a call waits for a person before it is denied (`AIRLOCK_PROMPT_TIMEOUT_MS`, default 30 s), clamped
 * by the one owner of deadlines as the edge clamps it.
 */
export function promptTimeoutMs(env: Env = process.env): number {
  return clampPromptTimeout(positiveInt(env.AIRLOCK_PROMPT_TIMEOUT_MS, DEFAULT_PROMPT_TIMEOUT_MS));
}

/** How long an edge HTTP request (other than a wait for a person) may take (`AIRLOCK_EDGE_TIMEOUT_MS`). */
export function edgeTimeoutMs(env: Env = process.env): number {
  return positiveInt(env.AIRLOCK_EDGE_TIMEOUT_MS, 5_000);
}

/**
 * How long the daemon waits for a lost edge connection to come back before it denies the calls waiting for a person
 * (`AIRLOCK_EDGE_GRACE_MS`, default 10 s): long enough for an edge restart, short of the prompt timeout.
 */
export function edgeGraceMs(env: Env = process.env): number {
  return positiveInt(env.AIRLOCK_EDGE_GRACE_MS, 10_000);
}

/** How long a daemon started on demand by a hook stays up with nothing to do (`AIRLOCK_DAEMON_IDLE_MS`, 30 min). */
export function daemonIdleMs(env: Env = process.env): number {
  return positiveInt(env.AIRLOCK_DAEMON_IDLE_MS, 30 * 60_000);
}

/** `AIRLOCK_NO_DAEMON=1`: hooks and adapters skip the daemon and decide directly (debugging, CI). */
export function daemonDisabled(env: Env = process.env): boolean {
  return env.AIRLOCK_NO_DAEMON === "1" || env.AIRLOCK_NO_DAEMON === "true";
}

/**
 * `AIRLOCK_CLAUDE_ASK=local`: when policy says ask, hand the question to Claude Code's own terminal prompt
 * instead of the phone. Default `phone`.
 */
export function claudeAskMode(env: Env = process.env): "phone" | "local" {
  return env.AIRLOCK_CLAUDE_ASK === "local" ? "local" : "phone";
}

/** `AIRLOCK_SERVER` overrides the server stored at pairing (e.g. a tunnel during development). */
export function serverOverride(env: Env = process.env): string | undefined {
  const set = env.AIRLOCK_SERVER?.trim();
  return set ? set.replace(/\/+$/, "") : undefined;
}

export const DEFAULT_SERVER = "http://127.0.0.1:8787";

/** The hook's own deadline: the prompt timeout plus 20 s, always below the installed hook timeout. */
export function hookBudgetMs(env: Env): number {
  const set = Number(env.AIRLOCK_HOOK_TIMEOUT_MS);
  return Number.isFinite(set) && set > 0 ? set : promptTimeoutMs(env) + 20_000;
}

/** Installed hook timeout in seconds: above the hook's own budget, so Airlock (not the agent) decides. */
export function installTimeoutSeconds(env: Env): number {
  return Math.ceil((promptTimeoutMs(env) + 30_000) / 1000);
}

/** The switches a hook passes to the daemon with its event; everything else is the daemon's own environment. */
export const HOOK_ENV_KEYS = [
  "AIRLOCK_CLAUDE_ASK",
  "AIRLOCK_PROMPT_TIMEOUT_MS",
  "AIRLOCK_HOOK_TIMEOUT_MS",
  // Precognition's switches that shape a hook's answer (warm or not, rewrite or not, what the model is told), and
  // the rewritten command's prefix; the engine's own limits are the daemon's.
  "AIRLOCK_PRECOG",
  "PI_PRECOG",
  "AIRLOCK_PRECOG_TOOL_CACHE",
  "PI_PRECOG_TOOL_CACHE",
  "AIRLOCK_PRECOG_COMMAND_FUTURES",
  "PI_PRECOG_COMMAND_FUTURES",
  "AIRLOCK_PRECOG_INJECTION_MODE",
  "PI_PRECOG_INJECTION_MODE",
  "AIRLOCK_FUTURES_COMMAND",
] as const;
