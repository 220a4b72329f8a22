// Command futures: one allowlisted command run ahead of time, niced, output capped, killable at once.
import { spawn } from "node:child_process";
import type { CommandClass } from "./command-classes.ts";
import type { Fingerprint } from "./fingerprints.ts";

export interface OutputChunk {
  stream: "stdout" | "stderr";
  data: Buffer;
}

export interface CommandFuture {
  kind: "command";
  root: string;
  /** The exact (blank-normalized) command text: the only request this future answers. */
  command: string;
  classId: string;
  /** Undefined for unfingerprinted classes, which live only for the TTL. */
  fingerprint: Fingerprint | undefined;
  chunks: OutputChunk[];
  exitCode: number;
  warmedAt: number;
  /** How long the command took cold (the time a hit saves, before the delay). */
  coldMs: number;
}

/** A future whose output would not fit is dropped, never served cut short. */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
export const WARM_TIMEOUT_MS = 10 * 60_000;

export type RunOutcome =
  | { ok: true; chunks: OutputChunk[]; exitCode: number; ms: number }
  | { ok: false; reason: "killed" | "timeout" | "too-large" | "spawn-failed" | "signal" };

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * Runs `command` with bash in `cwd` at low priority, in its own process group so that a kill takes its
 * children too. Stdin is closed: a warm can never wait for input.
 */
export function runWarm(
  command: string,
  cwd: string,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = WARM_TIMEOUT_MS,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ ok: false, reason: "killed" });
      return;
    }
    const started = performance.now();
    const child = spawn("nice", ["-n", "10", "bash", "-c", command], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const chunks: OutputChunk[] = [];
    let bytes = 0;
    let ending: "killed" | "timeout" | "too-large" | undefined;
    const stop = (why: "killed" | "timeout" | "too-large") => {
      ending ??= why;
      killGroup(child.pid);
    };
    const onData = (stream: OutputChunk["stream"]) => (data: Buffer) => {
      bytes += data.length;
      if (bytes > MAX_OUTPUT_BYTES) stop("too-large");
      else chunks.push({ stream, data });
    };
    child.stdout.on("data", onData("stdout"));
    child.stderr.on("data", onData("stderr"));
    const onAbort = () => stop("killed");
    signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    child.once("error", () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve({ ok: false, reason: "spawn-failed" });
    });
    child.once("close", (code, sig) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (ending) resolve({ ok: false, reason: ending });
      else if (code === null) resolve({ ok: false, reason: sig ? "signal" : "spawn-failed" });
      else resolve({ ok: true, chunks, exitCode: code, ms: performance.now() - started });
    });
  });
}

export function outputText(future: Pick<CommandFuture, "chunks">): string {
  return Buffer.concat(future.chunks.map((c) => c.data)).toString("utf8");
}

export function classAllowsLsPath(
  cls: CommandClass,
  command: string,
  refusal: (p: string) => string | null,
): boolean {
  if (cls.id !== "bash:ls") return true;
  const words = command
    .split(" ")
    .slice(1)
    .filter((w) => !w.startsWith("-"));
  return words.every((w) => refusal(w) === null);
}
