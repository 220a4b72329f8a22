// The tracked files whose work-tree copy may differ from the index, by git's own stat check: `git
// diff-files --raw` (C, the index preloaded on every core) reports each entry whose stat information does
// not match and compares the content of a racily clean one. Any other file holds what its index blob holds.
// Looking at each file from Node cost an `lstat` per file (16-27 ms of CPU for a 5,000-file index); git's
// check costs about 5 ms.
import { spawnSync } from "node:child_process";
import type { Repository } from "./git-discovery.ts";
import { GUARD_GIT_CONFIG, gitEnv } from "./git-objects.ts";

const TIMEOUT_MS = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
const NO_BLOB = /^0+$/;

export interface WorkTreeChange {
  /** From the top of the work tree. */
  path: string;
  /** The index's blob for it (what `git diff` prints as the old side); null for none. */
  blob: string | null;
}

/**
 * The changed entries, or null when git does not answer in time or an entry is unmerged (a conflict's
 * diff prints the index's other stages, which this list does not name).
 */
export function workTreeChanges(repo: Repository, top: string): WorkTreeChange[] | null {
  return rawChanges(repo, top, ["diff-files"])?.map((c) => ({ path: c.path, blob: c.old })) ?? null;
}

/**
 * The entries whose index blob differs from HEAD's (what `git diff --cached` prints), each side as its own
 * change (HEAD's blob and the index's), or null when git does not answer (no HEAD yet, a conflict).
 */
export function stagedChanges(repo: Repository, top: string): WorkTreeChange[] | null {
  return (
    rawChanges(repo, top, ["diff-index", "--cached", "HEAD"])?.flatMap((c) => [
      { path: c.path, blob: c.old },
      { path: c.path, blob: c.new },
    ]) ?? null
  );
}

/** `git ARGS --raw -z --no-abbrev`: each entry's path and its two sides' blobs (null for none). */
function rawChanges(
  repo: Repository,
  top: string,
  args: string[],
): { path: string; old: string | null; new: string | null }[] | null {
  const r = spawnSync(
    "git",
    ["--git-dir", repo.gitDir, "--work-tree", top, ...GUARD_GIT_CONFIG, "--no-optional-locks"].concat([
      ...args,
      "--raw",
      "-z",
      "--no-abbrev",
    ]),
    {
      encoding: "buffer",
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_BYTES,
      stdio: ["ignore", "pipe", "ignore"],
      env: gitEnv(),
    },
  );
  if (r.error !== undefined || r.status !== 0) return null;
  // `:MODE MODE BLOB BLOB STATUS\0PATH\0`, one after another.
  const fields = r.stdout.toString("utf8").split("\0");
  const out: { path: string; old: string | null; new: string | null }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = (fields[i] as string).split(" ");
    const path = fields[i + 1] as string;
    const [old, now] = [meta[2], meta[3]];
    const status = meta[4] ?? "";
    if (
      !(fields[i] as string).startsWith(":") ||
      old === undefined ||
      now === undefined ||
      status.startsWith("U")
    )
      return null;
    out.push({ path, old: NO_BLOB.test(old) ? null : old, new: NO_BLOB.test(now) ? null : now });
  }
  return out;
}
