// Reading a configuration file the guards consult (ignore files, .npmrc) when it may well not be there, and
// the head of a file a command reads names from (a patch, a checksum list), up to a bound.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { statEntry } from "./fs-entry.ts";

/** A regular file's text, or null when it is missing, not a file or unreadable (the caller treats all three as "no file"). */
export function textFileOrNull(path: string): string | null {
  // Most of the names asked for are not there: a stat that does not throw is far cheaper than a failed open.
  if (statEntry(path)?.isFile() !== true) return null;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The file's bytes when it holds at most `max` of them; null when it is longer or cannot be opened or read. */
export function boundedBytes(file: string, max: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(max + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return n > max ? null : buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
