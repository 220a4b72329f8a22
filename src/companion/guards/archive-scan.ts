// What an archive holds, for the key scan (red team, round 14: `base64 backup.zip` printed a `.env` and
// `cat home.tgz` a private key, in a reversible encoding, while the scan saw deflated bytes). gzip is
// inflated and zip's members are inflated one by one, up to the scan's bound in all, and their bytes
// scanned as a file's are; every member's name (zip's directory, a tar's headers, plain or inside a gzip)
// is judged as a path. A format not opened here (xz, bzip2, zstd, 7z, rar, lz4, an encrypted or zip64
// member), or contents past the bound, is "packed": not known to be free of a key.
import { gunzipSync, inflateRawSync } from "node:zlib";
import { isDenylistedPath } from "../../policy/secret-paths.ts";

/** What kind of archive a file is, by its first bytes; null for any other file. */
export type PackedFormat = "gzip" | "zip" | "tar" | "other";

/** Formats by their magic numbers (hex), at offset 0. */
const MAGIC: readonly [string, PackedFormat][] = [
  ["1f8b08", "gzip"],
  ["504b0304", "zip"], // PK\3\4: a member
  ["504b0506", "zip"], // PK\5\6: an empty zip's directory end
  ["fd377a585a00", "other"], // xz
  ...["1", "2", "3", "4", "5", "6", "7", "8", "9"].flatMap((level): [string, PackedFormat][] => [
    [`425a683${level}314159265359`, "other"], // bzip2 `BZh1`…`BZh9`, a block
    [`425a683${level}177245385090`, "other"], // bzip2, the empty stream's end
  ]),
  ["28b52ffd", "other"], // zstd
  ["377abcaf271c", "other"], // 7z
  ["526172211a07", "other"], // rar 4 and 5 (`Rar!`)
  ["04224d18", "other"], // lz4 frame
  ["02214c18", "other"], // lz4 legacy
  ["4c5a4950", "other"], // lzip (`LZIP`)
  ["1f9d", "other"], // compress (.Z)
];

/** The bytes of the longest magic number (bzip2's is 10). */
const MAGIC_BYTES = 16;

/** The format of a file whose first bytes (at least 262 of them, for a tar) are `head`. */
export function packedFormat(head: Buffer): PackedFormat | null {
  const hex = head.toString("hex", 0, Math.min(head.length, MAGIC_BYTES));
  for (const [magic, format] of MAGIC) if (hex.startsWith(magic)) return format;
  // A tar is not compressed, but its members' names are judged as paths (ustar and GNU: `ustar` at 257).
  return isTarHeader(head) ? "tar" : null;
}

function isTarHeader(header: Buffer): boolean {
  return header.length >= 512 && header.toString("latin1", 257, 262) === "ustar";
}

/** What the archive's contents are: a key or a secret name is in them, none, or not known ("packed"). */
export type Unpacked = "key" | "none" | "packed";

/** Reads unpacked bytes as a file's (the caller's scan); true when they hold a key. */
export type ScanBytes = (bytes: Buffer) => boolean;

/** Archives inside archives are opened this deep; deeper ones are not known. */
const MAX_DEPTH = 3;

interface Budget {
  /** Bytes that may still be unpacked, in all, for this file. */
  left: number;
}

/** Opens `bytes` (a whole file whose format is `format`) and judges what it holds. */
export function scanPacked(bytes: Buffer, format: PackedFormat, max: number, scan: ScanBytes): Unpacked {
  return unpacked(bytes, format, { left: max }, scan, 0);
}

function unpacked(
  bytes: Buffer,
  format: PackedFormat,
  budget: Budget,
  scan: ScanBytes,
  depth: number,
): Unpacked {
  if (format === "other" || depth >= MAX_DEPTH) return "packed";
  if (format === "zip") return zipMembers(bytes, budget, scan, depth);
  if (format === "tar") return tarMembersHold(bytes, budget, scan, depth);
  const out = inflated(() => gunzipSync(bytes, { maxOutputLength: budget.left + 1 }), budget);
  return out === null ? "packed" : contents(out, budget, scan, depth);
}

/** zlib's output within the budget, or null when it is past it or corrupt (not known either way). */
function inflated(inflate: () => Buffer, budget: Budget): Buffer | null {
  let out: Buffer;
  try {
    out = inflate();
  } catch {
    return null;
  }
  if (out.length > budget.left) return null;
  budget.left -= out.length;
  return out;
}

/** Unpacked bytes: the bytes themselves, and, when they are an archive (a tar in a gzip), its members. */
function contents(bytes: Buffer, budget: Budget, scan: ScanBytes, depth: number): Unpacked {
  if (scan(bytes)) return "key";
  const inner = packedFormat(bytes);
  return inner === null ? "none" : unpacked(bytes, inner, budget, scan, depth + 1);
}

/** A tar's members (whose bytes the caller's scan already read in place): names judged, archives opened. */
function tarMembersHold(bytes: Buffer, budget: Budget, scan: ScanBytes, depth: number): Unpacked {
  const members = tarMembers(bytes);
  if (members.some((m) => isDenylistedPath(m.name))) return "key";
  for (const m of members) {
    const inner = packedFormat(m.body);
    const verdict = inner === null ? "none" : unpacked(m.body, inner, budget, scan, depth + 1);
    if (verdict !== "none") return verdict;
  }
  return "none";
}

/**
 * The member names a tar (plain or in a gzip) extracts, or null when it is another format, bigger than `max`
 * unpacked, or its headers do not run cleanly to the zero blocks at its end: what tar would make is then not
 * known (fix17a: the names are judged where they land, guards/copy-landings.ts).
 */
export function tarNames(bytes: Buffer, max: number): string[] | null {
  let tar: Buffer | null = bytes;
  if (packedFormat(bytes) === "gzip")
    tar = inflated(() => gunzipSync(bytes, { maxOutputLength: max + 1 }), { left: max });
  if (tar === null || packedFormat(tar) !== "tar") return null;
  const { members, end } = tarWalk(tar);
  return tar.subarray(end).every((b) => b === 0) ? members.map((m) => m.name) : null;
}

/** A tar's members (ustar, GNU long names, pax `path`), as far as its headers are well formed. */
function tarMembers(bytes: Buffer): { name: string; body: Buffer }[] {
  return tarWalk(bytes).members;
}

/** The members, and where the well-formed headers end. */
function tarWalk(bytes: Buffer): { members: { name: string; body: Buffer }[]; end: number } {
  const members: { name: string; body: Buffer }[] = [];
  let long: string | null = null;
  let at = 0;
  while (at + 512 <= bytes.length) {
    const header = bytes.subarray(at, at + 512);
    if (!isTarHeader(header)) break;
    const size = Number.parseInt(header.toString("latin1", 124, 136).replace(/\0.*$/s, "").trim() || "0", 8);
    if (!Number.isSafeInteger(size) || size < 0) break;
    const body = bytes.subarray(at + 512, at + 512 + size);
    const type = header.toString("latin1", 156, 157);
    if (type === "L") long = body.toString("utf8").replace(/\0.*$/s, "");
    else if (type === "x") long = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString("utf8"))?.[1] ?? long;
    else {
      const prefix = header.toString("utf8", 345, 500).replace(/\0.*$/s, "");
      const name = header.toString("utf8", 0, 100).replace(/\0.*$/s, "");
      members.push({
        name: (long ?? (prefix === "" ? name : `${prefix}/${name}`)).replace(/^(\.\/)+/, ""),
        body,
      });
      long = null;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return { members, end: at };
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The zip's central directory, as `unzip` reads it: every member by name, each one's bytes judged. */
function zipMembers(bytes: Buffer, budget: Budget, scan: ScanBytes, depth: number): Unpacked {
  const end = endOfDirectory(bytes);
  if (end === null) return "packed";
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const members: { name: string; at: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) return "packed";
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    if (isDenylistedPath(name)) return "key";
    members.push({ name, at });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  for (const m of members) {
    const verdict = zipMember(bytes, m.at, budget, scan, depth);
    if (verdict !== "none") return verdict;
  }
  return "none";
}

/** The end-of-central-directory record's offset (it ends the file, before a comment of up to 64 KiB). */
function endOfDirectory(bytes: Buffer): number | null {
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--)
    if (bytes.readUInt32LE(at) === EOCD) return at;
  return null;
}

/** One member, found by its central directory entry at `entry`: stored or deflated, it is unpacked and judged. */
function zipMember(bytes: Buffer, entry: number, budget: Budget, scan: ScanBytes, depth: number): Unpacked {
  const flags = bytes.readUInt16LE(entry + 8);
  const method = bytes.readUInt16LE(entry + 10);
  const packedSize = bytes.readUInt32LE(entry + 20);
  const local = bytes.readUInt32LE(entry + 42);
  // Encrypted (bit 0), zip64 sizes, another method (bzip2, lzma, zstd): what it holds is not known here.
  if (
    (flags & 1) !== 0 ||
    packedSize === 0xffffffff ||
    local === 0xffffffff ||
    (method !== 0 && method !== 8)
  )
    return "packed";
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL) return "packed";
  // The local header's own name is what a streaming reader extracts under.
  const localName = bytes.toString("utf8", local + 30, local + 30 + bytes.readUInt16LE(local + 26));
  if (isDenylistedPath(localName)) return "key";
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  const data = bytes.subarray(start, start + packedSize);
  const out =
    method === 0
      ? inflated(() => data, budget)
      : inflated(() => inflateRawSync(data, { maxOutputLength: budget.left + 1 }), budget);
  return out === null ? "packed" : contents(out, budget, scan, depth);
}
