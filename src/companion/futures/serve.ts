// Serving: a future answers only the exact call it was warmed for, only if policy allows that call now
// (a deny or an emergency block wins), and only after it re-validates; then it waits out the class delay.
import { createHash } from "node:crypto";
import type { FutureMissReason } from "../../protocol/futures.ts";
import { resolveWorkspacePath } from "../guards/index.ts";
import { classOf, normalizeCommand } from "./command-classes.ts";
import type { CommandFuture } from "./command-futures.ts";
import { type ReadFuture, validateRead } from "./read-futures.ts";
import type { PrecogSwitches } from "./switches.ts";
import type { Workspace } from "./workspace.ts";

export type ServeRequest =
  | { tool: "read"; path: string }
  | {
      tool: "bash";
      command: string /** `airlock futures serve <key>`: must name this very command. */;
      key?: string;
    };

export type ServeResult =
  | { hit: true; future: ReadFuture | CommandFuture; servedMs: number }
  | { hit: false; reason: FutureMissReason; detail?: string };

/** Whether policy answers this call `allow` without asking anyone, at this moment (emergency controls included). */
export type PolicyCheck = (tool: string, input: Record<string, unknown>) => boolean | Promise<boolean>;

export function readKey(relative: string): string {
  return `read:${relative}`;
}

export function commandKey(command: string): string {
  return `bash:${normalizeCommand(command)}`;
}

/** The key printed into a rewritten command: binds the future to its workspace and exact command text. */
export function publicKey(workspace: Pick<Workspace, "root">, internalKey: string): string {
  return `f${createHash("sha256").update(`${workspace.root}\0${internalKey}`).digest("hex").slice(0, 24)}`;
}

async function waitUntil(startedAt: number, delayMs: number): Promise<void> {
  const left = startedAt + delayMs - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/** Validates a command future: unfingerprinted by TTL; fingerprinted by barrier, epoch and causal version. */
async function validateCommand(
  ws: Workspace,
  future: CommandFuture,
  switches: PrecogSwitches,
): Promise<FutureMissReason | null> {
  if (!future.fingerprint) return Date.now() - future.warmedAt > switches.ttlMs ? "expired" : null;
  if (!(await ws.sync())) return "watcher";
  return ws.versions.isCurrent(future.classId, future.fingerprint) ? null : "stale";
}

export async function serve(
  ws: Workspace,
  request: ServeRequest,
  switches: PrecogSwitches,
  allowedNow: PolicyCheck,
): Promise<ServeResult> {
  const startedAt = performance.now();
  const known = request.tool === "bash" ? ws.get(commandKey(request.command)) : undefined;
  const cls =
    request.tool === "read"
      ? "read"
      : known?.kind === "command"
        ? known.classId
        : (classOf(request.command)?.id ?? "bash:other");
  const miss = (reason: FutureMissReason, detail?: string): ServeResult => {
    ws.stats.miss(cls, reason);
    return detail === undefined ? { hit: false, reason } : { hit: false, reason, detail };
  };
  if (!switches.enabled || !switches.toolCache) return miss("disabled");
  if (request.tool === "bash" && !switches.commandFutures) return miss("disabled");
  ws.lastUsed = Date.now();

  const input: Record<string, unknown> =
    request.tool === "read" ? { path: request.path } : { command: request.command };
  if (!(await allowedNow(request.tool, input))) return miss("policy");

  if (request.tool === "read") {
    const resolved = await resolveWorkspacePath(ws.root, request.path);
    if (!resolved.ok) return miss("guard", resolved.reason);
    const key = readKey(resolved.relative);
    const future = ws.get(key);
    if (future?.kind !== "read") return miss("no_future");
    const valid = await validateRead(future, request.path);
    if (!valid.ok) {
      ws.drop(key);
      return miss(valid.reason);
    }
    await waitUntil(startedAt, switches.delayMs.read);
    const servedMs = performance.now() - startedAt;
    ws.stats.hit(cls, future.coldMs - servedMs);
    return { hit: true, future, servedMs };
  }

  const key = commandKey(request.command);
  if (request.key !== undefined && request.key !== publicKey(ws, key))
    return miss("no_future", "key mismatch");
  const future = ws.get(key);
  if (future?.kind !== "command") return miss("no_future");
  const invalid = await validateCommand(ws, future, switches);
  if (invalid) {
    ws.drop(key);
    return miss(invalid);
  }
  await waitUntil(startedAt, switches.delayMs.bash);
  const servedMs = performance.now() - startedAt;
  ws.stats.hit(cls, future.coldMs - servedMs);
  return { hit: true, future, servedMs };
}
