// Test support: re-exports the one dist/ build step, and gives each test a private HOME,
// AIRLOCK_HOME, socket path and project directory, plus helpers to run the real `airlock` binary.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const BIN = join(ROOT, "bin", "airlock.cjs");
export { ensureBuilt } from "../../../support/build.ts";

export interface Sandbox {
  dir: string;
  home: string;
  airlockHome: string;
  project: string;
  socket: string;
  env: NodeJS.ProcessEnv;
  writePolicy(yaml: string): string;
  cleanup(): void;
}

export function sandbox(extraEnv: NodeJS.ProcessEnv = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "airlock-co-"));
  const home = join(dir, "home");
  const airlockHome = join(home, ".airlock");
  const project = join(dir, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(airlockHome, { recursive: true, mode: 0o700 });
  const socket = join(dir, "run", "daemon.sock");
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      !k.startsWith("AIRLOCK_") &&
      k !== "XDG_RUNTIME_DIR" &&
      !k.startsWith("CLAUDE_") &&
      k !== "CODEX_HOME"
    )
      env[k] = v;
  }
  // Tests start their daemons themselves; a hook must not start one on demand unless the test asks for that.
  Object.assign(
    env,
    { HOME: home, AIRLOCK_HOME: airlockHome, AIRLOCK_SOCKET: socket, AIRLOCK_AUTOSTART: "0" },
    extraEnv,
  );
  return {
    dir,
    home,
    airlockHome,
    project,
    socket,
    env,
    writePolicy(yaml: string) {
      const path = join(airlockHome, "permissions.yaml");
      writeFileSync(path, yaml);
      return path;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `airlock <args>` with `stdin`, the way an agent runs a hook. */
export function runAirlock(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = "",
  timeoutMs = 60_000,
): Promise<RunResult> {
  return runAirlockWith(BIN, args, env, stdin, timeoutMs);
}

/** `runAirlock` through another `airlock` entry (a copy of bin/airlock.cjs beside a link to dist/). */
export function runAirlockWith(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = "",
  timeoutMs = 60_000,
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`airlock ${args.join(" ")} did not exit in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

export interface Daemon {
  child: ChildProcess;
  log(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `airlock up` and resolves once it reports ready. */
export function startDaemon(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Daemon> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, "up"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const timer = setTimeout(
      () => reject(new Error(`daemon not ready in ${timeoutMs} ms:\n${log}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      log += d;
      if (log.includes("ready (socket")) {
        clearTimeout(timer);
        resolvePromise({
          child,
          log: () => log,
          stop: (signal = "SIGTERM") =>
            new Promise((r) => {
              if (child.exitCode !== null || child.signalCode !== null) return r(child.exitCode);
              child.once("exit", (code) => r(code));
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited (${code}) before ready:\n${log}`));
    });
  });
}

/** Waits until `check` holds, polling; for state that has no event to await (files written by another process). */
export async function until<T>(
  check: () => T | undefined | false,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
