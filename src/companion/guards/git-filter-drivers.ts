// Filter drivers of the user's configuration and the project's attributes that select them. git runs a
// filter's clean program without printing anything (`git status` hashes a file whose stat changed through
// it; strace shows the exec, issue 20), so a `filter.X.clean` in ~/.gitconfig runs on whatever file the
// project's `.gitattributes` gives it. Only the attributes git reads for the work tree's tracked files are
// looked at, and only when the user has such a driver: a plain `git status` reads nothing more.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LayerEntry } from "./git-config-layers.ts";
import { indexPaths } from "./git-contents.ts";
import type { Repository } from "./git-discovery.ts";

/**
 * git-lfs's filter as `git lfs install` writes it (with `--skip-smudge` too), on many machines: it turns a
 * file into a pointer and back, printing nothing of the file it was not given.
 */
const LFS_FILTER: Readonly<Record<string, RegExp>> = {
  "filter.lfs.clean": /^git-lfs clean -- %f$/,
  "filter.lfs.smudge": /^git-lfs smudge (--skip )?-- %f$/,
  "filter.lfs.process": /^git-lfs filter-process( --skip)?$/,
};
const CLEAN_KEY = /^filter\.(.+)\.(clean|process)$/;
const SELECTS_FILTER = /(?:^|\s)filter=(\S+)/g;
const MAX_ATTRIBUTES_BYTES = 1024 * 1024;

/** git-lfs's own filter, as its installer writes it. */
export function isLfsFilter(key: string, value: string): boolean {
  return LFS_FILTER[key]?.test(value) === true;
}

/** The user's filters that run a clean program (not git-lfs's), by driver name. */
function userCleanFilters(entries: readonly LayerEntry[]): Map<string, LayerEntry> {
  const out = new Map<string, LayerEntry>();
  for (const e of entries) {
    const m = CLEAN_KEY.exec(e.key);
    if (e.scope !== "user" || m === null || e.value === "" || isLfsFilter(e.key, e.value)) continue;
    out.set(m[1] as string, e);
  }
  return out;
}

/** The directories of the work tree that hold a tracked file, the top ("") included. */
function trackedDirs(paths: ReadonlySet<string>): Set<string> {
  const dirs = new Set([""]);
  for (const p of paths) for (let d = dirname(p); d !== "." && !dirs.has(d); d = dirname(d)) dirs.add(d);
  return dirs;
}

function readAttributes(file: string): string | null {
  try {
    return readFileSync(file, "utf8").slice(0, MAX_ATTRIBUTES_BYTES);
  } catch {
    return null;
  }
}

export type SelectedFilter = { driver: LayerEntry; file: string } | { unknown: string };

/**
 * A user's clean filter that an attributes file of the repository selects (`filter=NAME` in a `.gitattributes`
 * beside or above a tracked file, or in `.git/info/attributes`); null when none does or the user has none.
 */
export function selectedUserFilter(
  repo: Repository,
  entries: readonly LayerEntry[],
  top: string | null,
): SelectedFilter | null {
  const drivers = userCleanFilters(entries);
  if (drivers.size === 0 || top === null) return null;
  const listing = indexPaths(join(repo.gitDir, "index"));
  if ("unknown" in listing) return { unknown: listing.unknown };
  const files: [string, string][] = [[join(repo.commonDir, "info", "attributes"), ".git/info/attributes"]];
  for (const d of trackedDirs(listing.paths)) {
    const rel = d === "" ? ".gitattributes" : `${d}/.gitattributes`;
    files.push([join(top, rel), rel]);
  }
  for (const [file, shown] of files) {
    const text = readAttributes(file);
    // A tracked one missing from the work tree is read from the index, which is not looked at here.
    if (text === null && listing.paths.has(shown))
      return {
        unknown: `\`${shown}\` is tracked but missing from the work tree; git reads its attributes from the index`,
      };
    for (const m of (text ?? "").matchAll(SELECTS_FILTER)) {
      const driver = drivers.get(m[1] as string);
      if (driver !== undefined) return { driver, file: shown };
    }
  }
  return null;
}
