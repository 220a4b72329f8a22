// Reading a configuration file the guards consult (ignore files, .npmrc) when it may well not be there.
import { readFileSync } from "node:fs";
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
