// Starting the daemon on demand: the first hook that finds none starts one in the background, so the slow no-daemon
// path is paid once, not on every call. Node built-ins only: the fast hook entry bundles this file.
import { connect } from "node:net";
import { join } from "node:path";
import { airlockHome, daemonDisabled, type Env, socketPath } from "../cli/config.ts";

/** Another starter within this window is taken to be starting the same daemon. */
const STARTING_MS = 10_000;

/** `AIRLOCK_AUTOSTART=0` (or AIRLOCK_NO_DAEMON=1) keeps hooks from starting a daemon. */
export function autostartDisabled(env: Env): boolean {
  return daemonDisabled(env) || env.AIRLOCK_AUTOSTART === "0" || env.AIRLOCK_AUTOSTART === "false";
}

export function daemonLogPath(env: Env): string {
  return join(airlockHome(env), "daemon.log");
}

/**
 * Starts `airlock up --on-demand` detached (its log in $AIRLOCK_HOME/daemon.log) unless one is already starting.
 * Resolves whether this call started it. Never throws: a hook must decide even when this fails.
 */
export async function startDaemonInBackground(env: Env, binPath: string): Promise<boolean> {
  if (autostartDisabled(env)) return false;
  // Loaded here, not at the top: a hook that finds its daemon never pays for them.
  const { spawn } = await import("node:child_process");
  const { closeSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } = await import("node:fs");
  const home = airlockHome(env);
  const marker = join(home, "run", "starting");
  try {
    mkdirSync(join(home, "run"), { recursive: true, mode: 0o700 });
    try {
      if (Date.now() - statSync(marker).mtimeMs < STARTING_MS) return false;
      rmSync(marker, { force: true });
    } catch {
      // no marker: nobody is starting one
    }
    // O_EXCL: of several hooks racing here, one starts the daemon.
    writeFileSync(marker, String(process.pid), { flag: "wx", mode: 0o600 });
    const log = openSync(daemonLogPath(env), "a", 0o600);
    try {
      const child = spawn(process.execPath, [binPath, "up", "--on-demand"], {
        detached: true,
        stdio: ["ignore", "ignore", log],
        env,
      });
      child.unref();
    } finally {
      closeSync(log);
    }
    return true;
  } catch {
    return false;
  }
}

/** Whether the control socket accepts a connection right now (a daemon runs). */
export function daemonAnswers(env: Env): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect(socketPath(env));
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Resolves true once the control socket accepts a connection, false when `timeoutMs` passes first. */
export async function waitForDaemon(env: Env, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await daemonAnswers(env)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
