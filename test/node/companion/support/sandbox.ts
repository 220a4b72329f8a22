// Test support: builds dist/ once (under a lock, skipped when up to date), and gives each test a private HOME,
// AIRLOCK_HOME, socket path and project directory, plus helpers to run the real `airlock` binary.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const BIN = join(ROOT, "bin", "airlock.js");
const STAMP = join(ROOT, "dist", ".companion-build-stamp");
const LOCK = join(tmpdir(), `airlock-build-lock-${Buffer.from(ROOT).toString("hex").slice(-16)}`);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function sourceStamp(): string {
  return String(
    Math.max(...["companion", "policy", "protocol"].map((d) => newestSource(join(ROOT, "src", d)))),
  );
}

/** `tsc -p tsconfig.node.json` unless dist/ already matches the sources; concurrent test files wait on a lock. */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`build lock ${LOCK} held too long`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    const want = sourceStamp();
    let have = "";
    try {
      have = readFileSync(STAMP, "utf8");
    } catch {}
    if (have === want) return;
    // Type errors elsewhere in the tree must not stop the emit these tests need.
    spawnSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.node.json"], {
      cwd: ROOT,
      stdio: "ignore",
    });
    writeFileSync(STAMP, want);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

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
  Object.assign(env, { HOME: home, AIRLOCK_HOME: airlockHome, AIRLOCK_SOCKET: socket }, extraEnv);
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
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
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
