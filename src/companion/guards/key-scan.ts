// Whether a file a call reads by name holds a private key, wherever in the file it sits: read in chunks
// (sharing an overlap, so a header split between two is seen), up to a bound; a bigger file is not known
// to be free of one, and the call asks. Walks read only small files whole (tree-walk.ts): reading every
// byte of a tree would make them slow.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { holdsPrivateKey, KEY_SCAN_MAX_BYTES, KEY_SCAN_OVERLAP } from "../../policy/secret-families.ts";

const CHUNK = 256 * 1024;

export type KeyScan = "key" | "none" | "too-large";

/** Answers for large files by identity (device, inode, size, mtime, ctime): a big log is read once, not per call. */
const scanned = new Map<string, KeyScan>();
const CACHED_FROM_BYTES = 256 * 1024;

/** Scans text already read (a buffer) the way scanFile reads a file. */
export function scanBytes(bytes: Buffer, max = KEY_SCAN_MAX_BYTES): KeyScan {
  if (bytes.length > max) return "too-large";
  for (let at = 0; at < bytes.length; at += CHUNK - KEY_SCAN_OVERLAP) {
    if (holdsPrivateKey(bytes.toString("latin1", at, Math.min(bytes.length, at + CHUNK)))) return "key";
    if (at + CHUNK >= bytes.length) break;
  }
  return "none";
}

/** Scans the file at `path` (of `size` bytes); "none" too when it cannot be opened (nothing is read then). */
export function scanFile(path: string, size: number, max = KEY_SCAN_MAX_BYTES): KeyScan {
  if (size === 0) return "none";
  if (size > max) return "too-large";
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return "none";
  }
  try {
    const st = fstatSync(fd);
    const id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const hit = st.size >= CACHED_FROM_BYTES ? scanned.get(id) : undefined;
    if (hit !== undefined) return hit;
    const result = scanOpen(fd, size);
    if (st.size >= CACHED_FROM_BYTES) {
      if (scanned.size >= 64) scanned.delete(scanned.keys().next().value as string);
      scanned.set(id, result);
    }
    return result;
  } finally {
    closeSync(fd);
  }
}

function scanOpen(fd: number, size: number): KeyScan {
  const buf = Buffer.alloc(Math.min(CHUNK, size));
  let carry = "";
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n <= 0) break;
    const text = carry + buf.toString("latin1", 0, n);
    if (holdsPrivateKey(text)) return "key";
    carry = text.slice(-KEY_SCAN_OVERLAP);
    pos += n;
  }
  return "none";
}
