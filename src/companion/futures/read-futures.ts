// Read futures: the bytes of one repo-local file, opened through the one guard (openInside: I5–I9, no
// hard links, no symlinks out, no secrets) and served only while the file's identity (device, inode, size,
// mtime, ctime) is unchanged.

import { imageMimeOf } from "../adapters/image-kind.ts";
import { openInside, readOpened } from "../guards/index.ts";

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
  const started = performance.now();
  const opened = await openInside(root, requested);
  if (!opened.ok) {
    if (opened.code === "ENOENT" || opened.code === "ENOTDIR")
      return { refused: "missing", detail: "cannot open" };
    if (opened.code === "EISDIR") return { refused: "not-a-file", detail: opened.reason };
    return { refused: "guard", detail: opened.reason };
  }
  const info = opened.stat;
  // I8: larger files are skipped, never truncated.
  const read = await readOpened(opened, maxFileBytes);
  if ("refused" in read)
    return { refused: read.refused === "secret" ? "guard" : "too-large", detail: read.reason };
  const { bytes } = read;
  // I9: a NUL byte anywhere in the (bounded) first pass is a binary file.
  if (bytes.includes(0)) return { refused: "binary", detail: "contains a NUL byte" };
  // Read tools show images as attachments, not text: never a text future.
  if (imageMimeOf(bytes)) return { refused: "image", detail: "image file" };
  return {
    kind: "read",
    root,
    relative: opened.relative,
    absolute: opened.absolute,
    bytes,
    identity: identityOf(info),
    warmedAt: Date.now(),
    coldMs: performance.now() - started,
  };
}

export type ReadValidation = { ok: true } | { ok: false; reason: "guard" | "stale" };

/**
 * Serve-time check for a read of `requested`, through the same opener: it still opens the future's very
 * file (a path swapped to a symlink elsewhere, or a name replaced by a hard link, misses), and the opened
 * file's identity is unchanged.
 */
export async function validateRead(future: ReadFuture, requested: string): Promise<ReadValidation> {
  const opened = await openInside(future.root, requested);
  if (!opened.ok) return { ok: false, reason: opened.code === "ENOENT" ? "stale" : "guard" };
  await opened.handle.close();
  if (opened.absolute !== future.absolute) return { ok: false, reason: "guard" };
  return sameIdentity(identityOf(opened.stat), future.identity)
    ? { ok: true }
    : { ok: false, reason: "stale" };
}
