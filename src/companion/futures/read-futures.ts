// Read futures: the bytes of one repo-local file, taken under the guards (I5–I9) and served only while the
// file's identity (device, inode, size, mtime, ctime) is unchanged.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { resolveWorkspacePath } from "../guards/index.ts";
import { imageMimeOf } from "../image-kind.ts";

export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export interface ReadFuture {
  kind: "read";
  root: string;
  /** Real path, workspace-relative, as the guard resolved it. */
  relative: string;
  absolute: string;
  bytes: Buffer;
  identity: FileIdentity;
  warmedAt: number;
  /** How long reading it cold took (the time a hit saves, before the delay). */
  coldMs: number;
}

export type WarmRefusal =
  | "unsafe-path"
  | "guard"
  | "missing"
  | "not-a-file"
  | "too-large"
  | "binary"
  | "image";

/**
 * I5 for text-derived candidates, before the guard: draft text is untrusted, so a candidate never starts
 * with `~` or `/`, never holds a NUL or a `..` segment, even when the guard would resolve it inside.
 */
export function isPlainRelativePath(candidate: string): boolean {
  if (candidate === "" || candidate.length > 1024) return false;
  if (candidate.startsWith("~") || candidate.startsWith("/") || candidate.includes("\0")) return false;
  if (candidate.includes("\\")) return false;
  return !candidate.split("/").some((s) => s === "..");
}

function identityOf(s: {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}): FileIdentity {
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/** Reads a candidate under every guard, or says which guard refused it. Never follows a swapped-in symlink. */
export async function warmRead(
  root: string,
  requested: string,
  maxFileBytes: number,
): Promise<ReadFuture | { refused: WarmRefusal; detail: string }> {
  const resolved = await resolveWorkspacePath(root, requested);
  if (!resolved.ok) return { refused: "guard", detail: resolved.reason };
  const started = performance.now();
  const handle = await open(resolved.absolute, constants.O_RDONLY | constants.O_NOFOLLOW).catch(
    () => undefined,
  );
  if (!handle) return { refused: "missing", detail: "cannot open" };
  try {
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) return { refused: "not-a-file", detail: "not a regular file" };
    // I8: larger files are skipped, never truncated.
    if (info.size > BigInt(maxFileBytes)) return { refused: "too-large", detail: `${info.size} bytes` };
    const bytes = await handle.readFile();
    // The file grew between stat and read: what was read is not what the identity describes.
    if (BigInt(bytes.length) !== info.size) return { refused: "too-large", detail: "changed while read" };
    // I9: a NUL byte anywhere in the (bounded) first pass is a binary file.
    if (bytes.includes(0)) return { refused: "binary", detail: "contains a NUL byte" };
    // Read tools show images as attachments, not text: never a text future.
    if (imageMimeOf(bytes)) return { refused: "image", detail: "image file" };
    return {
      kind: "read",
      root,
      relative: resolved.relative,
      absolute: resolved.absolute,
      bytes,
      identity: identityOf(info),
      warmedAt: Date.now(),
      coldMs: performance.now() - started,
    };
  } finally {
    await handle.close();
  }
}

export type ReadValidation = { ok: true } | { ok: false; reason: "guard" | "stale" };

/**
 * Serve-time check for a read of `requested`: the guard still resolves it to the future's real path (so a
 * path swapped to a symlink elsewhere misses), and the file's identity is unchanged.
 */
export async function validateRead(future: ReadFuture, requested: string): Promise<ReadValidation> {
  const resolved = await resolveWorkspacePath(future.root, requested);
  if (!resolved.ok || resolved.absolute !== future.absolute) return { ok: false, reason: "guard" };
  const info = await lstat(future.absolute, { bigint: true }).catch(() => undefined);
  if (!info?.isFile()) return { ok: false, reason: "stale" };
  return sameIdentity(identityOf(info), future.identity) ? { ok: true } : { ok: false, reason: "stale" };
}
