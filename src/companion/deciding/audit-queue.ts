// Local decisions waiting for the edge's audit: an append-only JSONL file under state/, flushed when connected.
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Env, stateDir } from "../cli/config.ts";
import { AuditEvent } from "../edge/client.ts";

export function auditQueuePath(env: Env = process.env): string {
  return join(stateDir(env), "audit-queue.jsonl");
}

/** State directories this process made sure of: the daemon appends on every decision and needs the mkdir once. */
const madeDirs = new Set<string>();

/** One line per event; O_APPEND keeps concurrent writers (hooks, daemon) from interleaving small lines. */
export function enqueueAudit(events: readonly AuditEvent[], env: Env = process.env): void {
  if (events.length === 0) return;
  const dir = stateDir(env);
  const lines = events.map((e) => `${JSON.stringify(e)}\n`).join("");
  if (madeDirs.has(dir)) {
    try {
      appendFileSync(auditQueuePath(env), lines, { mode: 0o600 });
      return;
    } catch (error) {
      // The directory went away under us (removed by hand, a test's temp dir): make it again below.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  madeDirs.add(dir);
  appendFileSync(auditQueuePath(env), lines, { mode: 0o600 });
}

export function queuedAuditCount(env: Env = process.env): number {
  try {
    const size = statSync(auditQueuePath(env)).size;
    if (size === 0) return 0;
    return readFileSync(auditQueuePath(env), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/**
 * Takes the queue (rename, so writers start a fresh file), sends it in batches, and puts back whatever was not
 * sent. Lines that do not parse are dropped: they can never be sent.
 */
export async function flushAudit(
  send: (batch: AuditEvent[]) => Promise<void>,
  env: Env = process.env,
): Promise<number> {
  const path = auditQueuePath(env);
  const taking = `${path}.${process.pid}.flushing`;
  try {
    renameSync(path, taking);
  } catch {
    return 0;
  }
  const events: AuditEvent[] = [];
  for (const line of readFileSync(taking, "utf8").split("\n")) {
    if (!line) continue;
    try {
      const parsed = AuditEvent.safeParse(JSON.parse(line));
      if (parsed.success) events.push(parsed.data);
    } catch {
      // a torn line from a crashed writer
    }
  }
  let sent = 0;
  try {
    for (let i = 0; i < events.length; i += 500) {
      await send(events.slice(i, i + 500));
      sent = Math.min(events.length, i + 500);
    }
  } finally {
    enqueueAudit(events.slice(sent), env);
    rmSync(taking, { force: true });
  }
  return sent;
}
