// Repositories git enters from the workspace's own: `git status` or `git diff` at the root runs git
// again inside every checked-out submodule (a gitlink in the index), with that repository's own
// configuration — core.fsmonitor runs a program. A unit that shows of a submodule only git's summary
// (`plainSubmodules`) looks at each one git enters: inside the workspace, its repository too, nothing in
// its configuration or hooks that runs, and the same for its own submodules (round 13: every submodule
// made `git status` ask). Any other unit is looked at cheaply, erring towards asking: a `.gitmodules`, a
// `.git/modules` directory, or the bytes of a gitlink's mode anywhere in the index (a match inside a hash
// only costs a question). A bounded scan then names the nested repository.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { lstatEntry } from "./fs-entry.ts";
import { configLayers } from "./git-config-layers.ts";
import { configEntries, programKey, readOnlyHook } from "./git-config-programs.ts";
import { indexPaths } from "./git-contents.ts";
import { type Repository, repositoryIn } from "./git-discovery.ts";
import { repositoryStateFact } from "./git-state-files.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** An index bigger than this is not read: the call asks. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** Directories the naming scan visits before it gives up naming. */
const NAME_SCAN_DIRS = 5_000;
/** Mode 160000 (a gitlink) as the index stores it, a 32-bit big-endian word. */
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);
/** Submodules of one repository looked at one by one, and how deep they nest; beyond, the call asks. */
const MAX_SUBMODULES = 64;
const MAX_DEPTH = 4;

const WHY = "its configuration can run programs (core.fsmonitor, hooks)";

export interface NestedOptions {
  /** The workspace's real path: a submodule git enters, and its repository, must lie in it. */
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The unit shows of a submodule only git's summary (the git target's `plainSubmodules`). */
  plain: boolean;
}

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

/** The gitlinks of a repository's index (paths from its top), or why they are not known. */
function gitlinksOf(repo: Repository): readonly string[] | { unknown: string } {
  const files = indexFiles(repo.gitDir);
  if (files.some((f) => basename(f) !== "index"))
    return {
      unknown: "the repository's index is split (a shared index), which Airlock does not read for submodules",
    };
  const [index] = files;
  if (index === undefined) return [];
  const holds = indexMayHoldGitlink(index);
  if (holds === null)
    return { unknown: "the repository's index is too large to check for submodules git may run in" };
  if (!holds) return [];
  const listed = indexPaths(index);
  return "unknown" in listed ? listed : (listed.gitlinks ?? []);
}

/**
 * A user's or the repository's setting that makes `git status`/`git diff` show what a submodule holds
 * (`diff.submodule=diff` its files' diffs, `=log` and `status.submoduleSummary` its commits' subjects).
 */
function submoduleOutput(own: Repository, env: NodeJS.ProcessEnv): string | null {
  for (const e of configLayers(own, env)) {
    const shows =
      (e.key === "diff.submodule" && e.value.toLowerCase() !== "short") ||
      (e.key === "status.submodulesummary" && !/^(false|no|off|0)$/i.test(e.value));
    if (shows)
      return `git's configuration (\`${e.from}\`) sets ${e.key}, so git shows what the submodules hold`;
  }
  return null;
}

/**
 * The first key of a submodule's configuration that runs a program or moves its work tree, or null. Git
 * writes `core.worktree` into an absorbed submodule's configuration, leading back to the submodule: that
 * one is its own.
 */
function submoduleProgram(sub: Repository, dir: string): string | null {
  for (const file of [join(sub.commonDir, "config"), join(sub.gitDir, "config.worktree")]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const e of configEntries(text)) {
      if (e.key !== "core.worktree") continue;
      const to = realPathOf(resolve(sub.gitDir, e.value));
      if (!to.ok || to.real !== dir) return "core.worktree";
    }
    const key = programKey(text.replace(/^\s*worktree\s*=.*$/gim, ""));
    if (key !== null) return key;
  }
  return null;
}

/** Why git entering the submodule at `path` (from `top`) may run a program or leave the workspace; null when plain. */
function submoduleReason(top: string, path: string, o: NestedOptions, depth: number): string | null {
  const dotGit = lstatEntry(join(top, path, ".git"));
  if (dotGit === undefined) return null; // not checked out: git has nothing to enter
  const at = realPathOf(join(top, path));
  const shown = `\`${at.ok && isWithin(o.workspace, at.real) ? relative(o.workspace, at.real) : path}\``;
  if (!at.ok || !isWithin(o.workspace, at.real))
    return `git may enter the submodule ${shown}, outside the workspace; ${WHY}`;
  const sub = dotGit.isSymbolicLink() ? null : repositoryIn(at.real);
  if (sub === null)
    return `git may enter the submodule ${shown}, whose \`.git\` Airlock does not read; ${WHY}`;
  if (!isWithin(o.workspace, sub.gitDir) || !isWithin(o.workspace, sub.commonDir))
    return `the submodule ${shown} keeps its repository at \`${sub.gitDir}\`, outside the workspace; ${WHY}`;
  const key = submoduleProgram(sub, at.real);
  if (key !== null)
    return `the submodule ${shown}'s configuration sets ${key}, which git uses when it runs there`;
  const hook = readOnlyHook(sub);
  if (hook !== null)
    return `the submodule ${shown} has the hook \`${hook}\`, which git runs there on a read-only command`;
  const state = repositoryStateFact(sub, {
    workspace: o.workspace,
    env: o.env,
    top: at.real,
    printsHistory: false,
    printsContents: false,
    // The summary git shows of a submodule comes from a `git status` there, which runs its filters.
    runsFilters: true,
  });
  if (state !== null) return `in the submodule ${shown}: ${state}`;
  return submodulesReason(sub, at.real, o, depth + 1);
}

/** Why git may run something in one of `repo`'s checked-out submodules (and theirs); null when all are plain. */
function submodulesReason(repo: Repository, top: string, o: NestedOptions, depth: number): string | null {
  const links = gitlinksOf(repo);
  if ("unknown" in links) return links.unknown;
  if (links.length === 0) return null;
  if (links.length > MAX_SUBMODULES)
    return `the repository has ${links.length} submodules, more than Airlock looks at; ${WHY}`;
  if (depth >= MAX_DEPTH)
    return `submodules nest more than ${MAX_DEPTH} deep, deeper than Airlock looks; ${WHY}`;
  for (const path of links) {
    const why = submoduleReason(top, path, o, depth);
    if (why !== null) return why;
  }
  return null;
}

/** Why git run with `own` in `workTree` may enter another repository; null when it cannot. */
export function nestedRepositoryFact(
  own: Repository,
  workTree: string,
  subject: string,
  o: NestedOptions,
): CallFact | null {
  if (o.plain) {
    const why = submoduleOutput(own, o.env) ?? submodulesReason(own, workTree, o, 0);
    return why === null ? null : { subject, reason: why };
  }
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
