// Repositories git enters from the workspace's own: `git status` or `git diff` at the root runs git
// again inside every checked-out submodule (a gitlink in the index), with that repository's own
// configuration — core.fsmonitor runs a program. Looked for cheaply, erring towards asking: a
// `.gitmodules`, a `.git/modules` directory, or the bytes of a gitlink's mode anywhere in the index
// (a match inside a hash only costs a question). A bounded scan then names the nested repository.
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import type { Repository } from "./git-discovery.ts";

/** An index bigger than this is not read: the call asks. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** Directories the naming scan visits before it gives up naming. */
const NAME_SCAN_DIRS = 5_000;
/** Mode 160000 (a gitlink) as the index stores it, a 32-bit big-endian word. */
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);

const WHY = "its configuration can run programs (core.fsmonitor, hooks)";

function exists(p: string, dir: boolean): boolean {
  try {
    const s = statSync(p);
    return dir ? s.isDirectory() : s.isFile();
  } catch {
    return false;
  }
}

/** Answers by index file, its size and mtime: the index changes on every `git add`, and only then. */
const gitlinkCache = new Map<string, boolean | null>();

/** Whether an index file may hold a gitlink; null when it is too large to read. */
function indexMayHoldGitlink(path: string): boolean | null {
  let key: string;
  try {
    const s = statSync(path);
    key = `${path}\0${s.size}\0${s.mtimeMs}\0${s.ino}`;
  } catch {
    return false;
  }
  const hit = gitlinkCache.get(key);
  if (hit !== undefined) return hit;
  const found = scanIndexForGitlink(path);
  if (gitlinkCache.size >= 16) gitlinkCache.delete(gitlinkCache.keys().next().value as string);
  gitlinkCache.set(key, found);
  return found;
}

function scanIndexForGitlink(path: string): boolean | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const size = statSync(path).size;
    if (size > MAX_INDEX_BYTES) return null;
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, 0);
    return buf.subarray(0, n).indexOf(GITLINK_MODE) !== -1;
  } finally {
    closeSync(fd);
  }
}

/** The index files of a git directory: `index`, and a split index's shared parts. */
function indexFiles(gitDir: string): string[] {
  try {
    return readdirSync(gitDir)
      .filter((n) => n === "index" || n.startsWith("sharedindex."))
      .map((n) => join(gitDir, n));
  } catch {
    return [];
  }
}

/** The first directory below `root` holding a `.git`, breadth first, symlinks not followed. */
function nestedGitBelow(root: string): string | null {
  const queue = [root];
  for (let visited = 0; visited < queue.length && visited < NAME_SCAN_DIRS; visited++) {
    const dir = queue[visited] as string;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (dir !== root && names.includes(".git")) return dir;
    for (const name of names) {
      if (dir === root && name === ".git") continue;
      const p = join(dir, name);
      try {
        if (lstatSync(p).isDirectory()) queue.push(p);
      } catch {
        // gone since the listing
      }
    }
  }
  return null;
}

/** Why git run with `own` in `workTree` may enter another repository; null when it cannot. */
export function nestedRepositoryFact(own: Repository, workTree: string, subject: string): CallFact | null {
  if (exists(join(workTree, ".gitmodules"), false))
    return { subject, reason: `the workspace has submodules (\`.gitmodules\`) git may run in; ${WHY}` };
  if (exists(join(own.commonDir, "modules"), true))
    return { subject, reason: `the repository has submodules (\`.git/modules\`) git may run in; ${WHY}` };
  for (const file of indexFiles(own.gitDir)) {
    const holds = indexMayHoldGitlink(file);
    if (holds === null)
      return {
        subject,
        reason: "the repository's index is too large to check for submodules git may run in",
      };
    if (!holds) continue;
    const nested = nestedGitBelow(workTree);
    const named = nested === null ? "" : ` \`${relative(workTree, nested)}\``;
    return {
      subject,
      reason: `git may enter the nested repository${named} (a submodule or gitlink in the index); ${WHY}`,
    };
  }
  return null;
}
