// Whether a file holds a private key, wherever in the file it sits: read in chunks (sharing an overlap,
// so a header split between two is seen), up to a bound; a bigger file is not known to be free of one,
// and the call asks. Used for a file a call reads by name and for every file a recursive read reaches.
//
// Answers are kept by the file's identity (device, inode, size, mtime, ctime; the kernel moves ctime on
// every change of content and no program can set it back), so a walk reads each file once per version,
// not once per call. An answer is not kept while the file's times are within a second of now: a second
// write in the same clock tick, with the same size, would leave the identity unchanged (git's "racy
// clean" case), and a stale "none" must never be served.
//
// A compressed file (gzip, zip) is judged by what it unpacks to, and an archive's member names as paths
// (archive-scan.ts): printed whole, in base64 or hex, it is its members in a reversible encoding. One in
// a format not opened here is "packed".
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { basename } from "node:path";
import { KEY_SCAN_MAX_BYTES, KEY_SCAN_OVERLAP, PrivateKeyScan } from "../../policy/secret-families.ts";
import { type SecretSetting, secretSettingFor } from "../../policy/secret-settings.ts";
import { packedFormat, scanPacked } from "./archive-scan.ts";

const CHUNK = 256 * 1024;
/** Identities remembered (a 20,000-file workspace twice over); the oldest go first. */
const CACHE_ENTRIES = 50_000;
const RACY_MS = 1_000;

export type KeyScan = "key" | "none" | "too-large" | "packed";

/** What a "packed" answer tells a person: why its contents could not be looked at. */
export const PACKED_REASON =
  "is compressed and its contents are not checked for a key or a secret (xz, bzip2, zstd, 7z, rar, lz4, an encrypted or zip64 member, or more than 16 MiB unpacked)";

const scanned = new Map<string, KeyScan>();

function identity(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** Whether the file changed too recently for its identity to stand for its content. */
function racy(st: Stats, now: number): boolean {
  return now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS;
}

/** The answer kept for a file whose (l)stat is `st`, reached as `path`, if any: no open, no read. */
export function knownScan(st: Stats, urls = false, path = ""): KeyScan | undefined {
  return scanned.get(key(st, urls, secretSettingFor(basename(path))));
}

/**
 * A git file's answer (URLs with a password count there) is kept apart from the plain one, and so is a
 * settings file's (its name makes a literal password count), so a rename is judged again.
 */
function key(st: Stats, urls: boolean, setting: SecretSetting | undefined): string {
  const kind = (urls ? ":urls" : "") + (setting === undefined ? "" : `:${setting.names.source}`);
  return identity(st) + kind;
}

function remember(st: Stats, cacheKey: string, result: KeyScan): void {
  if (racy(st, Date.now())) return;
  if (scanned.size >= CACHE_ENTRIES) scanned.delete(scanned.keys().next().value as string);
  scanned.set(cacheKey, result);
}

/** Whether bytes already read hold a key, read in overlapping chunks as a file is. */
function holdsKey(bytes: Buffer, urls: boolean): boolean {
  const scan = new PrivateKeyScan(urls);
  for (let at = 0; at < bytes.length; at += CHUNK - KEY_SCAN_OVERLAP) {
    if (scan.feed(bytes.toString("latin1", at, Math.min(bytes.length, at + CHUNK)))) return true;
    if (at + CHUNK >= bytes.length) break;
  }
  return false;
}

/** A whole file's bytes: a key in them, or, for a compressed file, in what it unpacks to (`max` in all). */
function judgeBytes(bytes: Buffer, max: number, urls: boolean): KeyScan {
  if (holdsKey(bytes, urls)) return "key";
  const format = packedFormat(bytes);
  if (format === null) return "none";
  return scanPacked(bytes, format, max, (unpacked) => holdsKey(unpacked, false));
}

/** Scans text already read (a buffer) the way scanFile reads a file. */
export function scanBytes(bytes: Buffer, max = KEY_SCAN_MAX_BYTES): KeyScan {
  if (bytes.length > max) return "too-large";
  return judgeBytes(bytes, max, false);
}

/**
 * Scans the file at `path` (of `size` bytes by the caller's stat); "none" too when it cannot be opened
 * (nothing is read then). Opened as the program would open it (a link followed) but without blocking,
 * so a FIFO swapped in cannot hang the decision; the answer is kept under the identity of what was opened.
 * `urls`: a URL with a password is a credential too (a file of git's own, isGitMetadataPath).
 */
export function scanFile(path: string, size: number, max = KEY_SCAN_MAX_BYTES, urls = false): KeyScan {
  if (size === 0) return "none";
  if (size > max) return "too-large";
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return "none";
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return "none";
    const setting = secretSettingFor(basename(path));
    const cacheKey = key(st, urls, setting);
    const hit = scanned.get(cacheKey);
    if (hit !== undefined) return hit;
    const result = st.size > max ? "too-large" : scanOpen(fd, st.size, max, urls, setting);
    remember(st, cacheKey, result);
    return result;
  } finally {
    closeSync(fd);
  }
}

function scanOpen(
  fd: number,
  size: number,
  max: number,
  urls: boolean,
  setting: SecretSetting | undefined,
): KeyScan {
  const buf = Buffer.alloc(Math.min(CHUNK, size));
  const scan = new PrivateKeyScan(urls, setting);
  let carry = "";
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n <= 0) break;
    // A compressed file is unpacked from its whole bytes (a zip's directory is at its end).
    if (pos === 0 && packedFormat(buf.subarray(0, n)) !== null)
      return judgeBytes(readWhole(fd, size), max, urls);
    const text = carry + buf.toString("latin1", 0, n);
    if (scan.feed(text)) return "key";
    carry = text.slice(-KEY_SCAN_OVERLAP);
    pos += n;
  }
  return "none";
}

/** Bytes within which a compressed file's first NUL must come for a search to print none of it. */
const BINARY_HEAD = 16;

/**
 * Whether rg and grep (without -a or -z) print nothing of the file at `path`: a NUL in the first block
 * they read makes the whole file binary, and nothing of that block or after it is printed (lines before a
 * NUL in a later block are). xz, 7z, rar and zip have one in their header; a bzip2 or zstd file may not.
 */
export function binaryFromStart(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(BINARY_HEAD);
    return head.subarray(0, readSync(fd, head, 0, BINARY_HEAD, 0)).includes(0);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes (`size`, within the scan's bound), as far as they can be read. */
function readWhole(fd: number, size: number): Buffer {
  const whole = Buffer.alloc(size);
  let pos = 0;
  while (pos < size) {
    const n = readSync(fd, whole, pos, size - pos, pos);
    if (n <= 0) break;
    pos += n;
  }
  return whole.subarray(0, pos);
}
