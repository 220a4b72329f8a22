// `bash`: runs an approved command in the workspace with a timeout; stdout and stderr interleaved,
// the tail kept when long (as Pi does), non-zero exits reported as errors.
import { spawn } from "node:child_process";
import { errorResult, ToolFailure, type ToolResult, textResult } from "./tool-result.ts";
import { formatSize, MAX_BYTES, truncateTail } from "./truncate.ts";

export interface BashArgs {
  command: string;
  /** Seconds. */
  timeout?: number | undefined;
}

/** Output kept in memory while the command runs; only the tail is ever shown. */
const MAX_BUFFERED_BYTES = 4 * MAX_BYTES;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // The command runs in its own process group so its children go too.
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function bashTool(cwd: string, args: BashArgs, signal?: AbortSignal): Promise<ToolResult> {
  if (args.timeout !== undefined && (!Number.isFinite(args.timeout) || args.timeout <= 0)) {
    throw new ToolFailure("Invalid timeout: must be a finite number of seconds");
  }
  const child = spawn("bash", ["-c", args.command], {
    cwd,
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let chunks: Buffer[] = [];
  let buffered = 0;
  let dropped = false;
  const onData = (data: Buffer) => {
    chunks.push(data);
    buffered += data.length;
    if (buffered > MAX_BUFFERED_BYTES) {
      const all = Buffer.concat(chunks).subarray(-MAX_BUFFERED_BYTES);
      chunks = [all];
      buffered = all.length;
      dropped = true;
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);

  let ending: "timeout" | "aborted" | undefined;
  const timer =
    args.timeout !== undefined
      ? setTimeout(() => {
          ending = "timeout";
          killGroup(child.pid);
        }, args.timeout * 1000)
      : undefined;
  const onAbort = () => {
    ending = "aborted";
    killGroup(child.pid);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, error }));
    child.once("close", (code, sig) => resolve({ code: code ?? (sig ? 128 : null) }));
  });
  if (timer) clearTimeout(timer);
  signal?.removeEventListener("abort", onAbort);
  if (exit.error) throw new ToolFailure(`Cannot run bash: ${exit.error.message}`);

  return bashResult(Buffer.concat(chunks), {
    dropped,
    ending,
    exitCode: exit.code,
    timeout: args.timeout,
  });
}

/** The bash result for a command's combined output: from a run, or from a re-validated precognition future. */
export function bashResult(
  output: Buffer,
  run: {
    dropped: boolean;
    ending?: "timeout" | "aborted" | undefined;
    exitCode: number | null;
    timeout?: number | undefined;
  },
): ToolResult {
  const kept = output.length > MAX_BUFFERED_BYTES ? output.subarray(-MAX_BUFFERED_BYTES) : output;
  const dropped = run.dropped || kept.length < output.length;
  const raw = kept.toString("utf8");
  const truncation = truncateTail(raw);
  let text = truncation.content || "(no output)";
  if (truncation.truncated || dropped) {
    const first = truncation.totalLines - truncation.outputLines + 1;
    const why = truncation.truncatedBy === "bytes" ? ` (${formatSize(MAX_BYTES)} limit)` : "";
    text += dropped
      ? `\n\n[Showing the last ${truncation.outputLines} lines${why}; earlier output was dropped]`
      : `\n\n[Showing lines ${first}-${truncation.totalLines} of ${truncation.totalLines}${why}]`;
  }
  const withStatus = (status: string) => `${truncation.content ? `${text}\n\n` : ""}${status}`;
  if (run.ending === "timeout")
    return errorResult(withStatus(`Command timed out after ${run.timeout} seconds`));
  if (run.ending === "aborted") return errorResult(withStatus("Command aborted"));
  if (run.exitCode === null) return errorResult(withStatus("Command terminated without an exit code"));
  if (run.exitCode !== 0) return errorResult(withStatus(`Command exited with code ${run.exitCode}`));
  return textResult(text);
}
