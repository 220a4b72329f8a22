// A file's status, or none when nothing is there. Node's `throwIfNoEntry: false` answers undefined for
// ENOENT only on some versions: Node 22 still throws ENOTDIR (`stat b.txt/.envrc` where b.txt is a file),
// and a throw in a disk check failed the whole decision (red team, round 23: `cp a.txt b.txt` onto an
// existing file denied "deciding it failed"). Every other error still throws: the caller's check fails
// closed on what it cannot read.
import { lstatSync, type Stats, statSync } from "node:fs";

function absent(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** statSync following links, undefined when the path (or a directory on the way) is not there. */
export function statEntry(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    if (absent(e)) return undefined;
    throw e;
  }
}

/** lstatSync (the link itself), undefined when the path (or a directory on the way) is not there. */
export function lstatEntry(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if (absent(e)) return undefined;
    throw e;
  }
}
