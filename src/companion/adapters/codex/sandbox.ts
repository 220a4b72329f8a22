// Which sandbox a Codex turn runs in, read from the session's own transcript (Codex writes the turn's context, with
// `sandbox_policy`, before any tool call; the hook input itself does not say). Precognition rewrites a command to
// `airlock futures serve`, which must reach the daemon's socket: Codex's read-only and workspace-write sandboxes
// refuse that connection, so the command would miss and run a second time. Only a turn known to run outside any
// sandbox is rewritten; anything unknown is not.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** How much of the transcript's end is read: the newest turn context sits near it. */
const TAIL_BYTES = 4 * 1024 * 1024;
const MARK = '"sandbox_policy":{"type":"';

/** The newest turn's sandbox type in a Codex transcript (`danger-full-access`, `workspace-write`, …), if found. */
export function codexSandboxType(transcriptPath: string | null | undefined): string | undefined {
  if (!transcriptPath) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(transcriptPath, "r");
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString("utf8");
    const at = text.lastIndexOf(MARK);
    if (at < 0) return undefined;
    const end = text.indexOf('"', at + MARK.length);
    return end < 0 ? undefined : text.slice(at + MARK.length, end);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether a command rewritten for serving can reach the daemon from this turn's sandbox. */
export function codexCanServe(transcriptPath: string | null | undefined): boolean {
  return codexSandboxType(transcriptPath) === "danger-full-access";
}
