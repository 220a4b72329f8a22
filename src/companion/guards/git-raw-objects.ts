// A read of a git repository's object store as raw bytes (red team, round 14: `base64 .git/objects/pack/*.pack`,
// `cat .git/objects/ab/cdef…`, the Read tool): the objects are the whole history, dangling objects and
// messages too, zlib-compressed, so the content scan sees no key, and the history check guards git's own
// printers only. Agents do not read raw objects in everyday work, so any such read is a question; the text
// files of `objects/info/` (packs, alternates) hold no contents.
import { basename, dirname, relative } from "node:path";
import { looksLikeGitDir } from "./git-discovery.ts";

/**
 * The repository directory whose object store holds `file` (a real path), when `file` is an object or a
 * pack of it (not under `objects/info/`); null otherwise.
 */
export function rawObjectStore(file: string): string | null {
  for (let d = dirname(file); dirname(d) !== d; d = dirname(d)) {
    if (basename(d) !== "objects") continue;
    const repo = dirname(d);
    if (basename(repo) !== ".git" && !looksLikeGitDir(repo)) continue;
    return relative(d, file).startsWith("info/") ? null : repo;
  }
  return null;
}
