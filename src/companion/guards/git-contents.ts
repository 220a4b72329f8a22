// What a git command can print without naming a file: `git log -p`, `git show <rev|blob id>`, `git diff`,
// `git grep` print the contents of whatever paths their pathspecs reach (all, when none) — in the index,
// or in any commit when a revision is involved — and `git remote -v` prints remote URLs. Such a command is
// allowed only when those paths hold no secret family (and the URLs no credentials); otherwise it
// asks, naming the path. The paths come from the index file (read here) and `git rev-list --objects
// --all --reflog` (bounded in time and size; above the bound it asks), cached by the files a commit,
// checkout or `git add` changes. When the repository's top is above the workspace (a dotfiles repository
// at $HOME, a monorepo), every such path must also lie in the workspace's part of the tree.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import type { CallFact, GitPrints } from "../../policy/call-facts.ts";
import { holdsCredential, KEY_SCAN_MAX_BYTES } from "../../policy/secret-families.ts";
import { isDenylistedPath, secretFamilyOf } from "../../policy/secret-paths.ts";
import { simpleKeyPattern } from "../../policy/shell/grammar/programs/git-config-keys.ts";
import { lstatEntry } from "./fs-entry.ts";
import { matchedCredential } from "./git-config-credentials.ts";
import { configKey, configValues } from "./git-config-values.ts";
import type { Repository } from "./git-discovery.ts";
import {
  allCommits,
  allObjects,
  databaseStamp,
  GUARD_GIT_OBJECTS,
  gitEnv,
  objectsContentFact,
} from "./git-objects.ts";
import { type OutsideCheck, outsideCheck } from "./git-workspace-part.ts";
import { knownScan, scanFile } from "./key-scan.ts";
import { WALK_SCAN_BUDGET_BYTES } from "./tree-walk.ts";
import { stagedChanges, workTreeChanges } from "./work-tree-changes.ts";

/** An index bigger than this is not read: the call asks. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** Listing every path of the history may take this long and print this much; beyond, the call asks. */
const HISTORY_TIMEOUT_MS = 2_000;
const HISTORY_MAX_BYTES = 64 * 1024 * 1024;
const CACHE_SIZE = 16;

type Listing =
  | { paths: ReadonlySet<string>; blobs?: readonly string[]; gitlinks?: readonly string[] }
  | { unknown: string };

/** Mode 160000, a gitlink (a submodule's commit), as the index stores it. */
const GITLINK = 0o160000;
/**
 * A listing reduced to its secret-family paths, once per cache entry (most listings hold none), and
 * the object ids whose contents git may print (the index's blobs; with history, every object).
 */
type Secrets =
  | {
      secrets: readonly string[];
      objects: readonly string[] | null;
      content?: string | null;
      /** The index's paths, for the work tree's files a command prints. */
      paths: ReadonlySet<string>;
    }
  | { unknown: string };

const cache = new Map<string, Secrets>();

function remember(key: string, value: Listing): Secrets {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  const secrets: Secrets =
    "unknown" in value
      ? value
      : {
          secrets: [...value.paths].filter((p) => isDenylistedPath(p)),
          objects: value.blobs ?? null,
          paths: value.paths,
        };
  cache.set(key, secrets);
  return secrets;
}

/** The paths an index file names (versions 2, 3 and 4) and which are gitlinks, or why it cannot say. */
export function indexPaths(file: string): Listing {
  let buf: Buffer;
  try {
    if (statSync(file).size > MAX_INDEX_BYTES)
      return { unknown: "the repository's index is too large to check" };
    buf = readFileSync(file);
  } catch {
    return { paths: new Set() };
  }
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC")
    return { unknown: "the repository's index is in a form Airlock does not read" };
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  if (version < 2 || version > 4) return { unknown: `the repository's index is version ${version}` };
  const paths = new Set<string>();
  const blobs: string[] = [];
  const gitlinks: string[] = [];
  let off = 12;
  let previous = "";
  for (let n = 0; n < count; n++) {
    if (off + 62 > buf.length) return { unknown: "the repository's index is cut short" };
    const flags = buf.readUInt16BE(off + 60);
    const gitlink = buf.readUInt32BE(off + 24) === GITLINK;
    blobs.push(buf.toString("hex", off + 40, off + 60));
    let head = off + 62;
    if (version >= 3 && flags & 0x4000) head += 2;
    let name: string;
    if (version === 4) {
      // The name is the previous one minus N bytes (a varint), then the rest up to a NUL.
      let strip = 0;
      let b = buf[head++] ?? 0;
      strip = b & 0x7f;
      while (b & 0x80) {
        b = buf[head++] ?? 0;
        strip = ((strip + 1) << 7) | (b & 0x7f);
      }
      const end = buf.indexOf(0, head);
      if (end < 0) return { unknown: "the repository's index is cut short" };
      const prev = Buffer.from(previous, "utf8");
      name = Buffer.concat([
        prev.subarray(0, Math.max(0, prev.length - strip)),
        buf.subarray(head, end),
      ]).toString("utf8");
      off = end + 1;
    } else {
      const end = buf.indexOf(0, head);
      if (end < 0) return { unknown: "the repository's index is cut short" };
      name = buf.toString("utf8", head, end);
      // Entries are padded with NULs to a multiple of 8 bytes from their start.
      off += Math.ceil((end + 1 - off) / 8) * 8;
    }
    previous = name;
    paths.add(name);
    if (gitlink) gitlinks.push(name);
  }
  return { paths, blobs, gitlinks };
}

/** Every path any commit, reflog entry or stash of the repository holds, or why it cannot say. */
function historyPaths(repo: Repository, ids: readonly string[]): Listing {
  const r = spawnSync(
    "git",
    [
      "--git-dir",
      repo.gitDir,
      ...GUARD_GIT_OBJECTS,
      "rev-list",
      "--objects",
      "--all",
      "--reflog",
      "--indexed-objects",
    ],
    {
      encoding: "buffer",
      timeout: HISTORY_TIMEOUT_MS,
      maxBuffer: HISTORY_MAX_BYTES,
      stdio: ["ignore", "pipe", "ignore"],
      env: gitEnv(),
    },
  );
  if (r.error !== undefined || r.status !== 0)
    return { unknown: "the repository's history could not be listed in time to check what it holds" };
  const paths = new Set<string>();
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) paths.add(line.slice(space + 1));
  }
  // rev-list names each object once, by the first path it meets: a blob committed as `.env` and later
  // renamed, or reached first through a tag, is listed under the other name; and it never meets a
  // dangling commit (a dropped stash), which `git show <id>` prints all the same (red team, round 7).
  // Every path any commit of the object database added, changed, renamed or deleted adds the rest.
  const changed = spawnSync(
    "git",
    [
      ...["--git-dir", repo.gitDir, ...GUARD_GIT_OBJECTS, "log", "--stdin", "--no-walk=unsorted", "-m"],
      ...["--no-renames", "--name-only", "--format=", "-z"],
    ],
    {
      encoding: "buffer",
      input: Buffer.from(ids.length > 0 ? `${ids.join("\n")}\n` : "", "latin1"),
      timeout: HISTORY_TIMEOUT_MS,
      maxBuffer: HISTORY_MAX_BYTES,
      stdio: ["pipe", "pipe", "ignore"],
      env: gitEnv(),
    },
  );
  if (changed.error !== undefined || changed.status !== 0)
    return { unknown: "the repository's history could not be listed in time to check what it holds" };
  for (const path of changed.stdout.toString("utf8").split("\0")) {
    const p = path.replace(/^\n+/, "");
    if (p !== "") paths.add(p);
  }
  return { paths };
}

function listing(repo: Repository, history: boolean): Secrets {
  const key = databaseStamp(repo, history);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const index = indexPaths(join(repo.gitDir, "index"));
  if ("unknown" in index || !history) return remember(key, index);
  // One listing of the object database serves both: its blobs for the content scan, its commits (dangling
  // ones too) for the paths.
  const objects = allObjects(repo, key);
  if ("unknown" in objects) return remember(key, objects);
  const past = historyPaths(repo, objects.commits);
  if ("unknown" in past) return remember(key, past);
  return remember(key, { paths: new Set([...index.paths, ...past.paths]), blobs: objects.blobs });
}

/** Whether `path` (from the top of the work tree) is under one of the pathspecs (also from the top). */
function covered(path: string, specs: readonly string[] | null): boolean {
  if (specs === null) return true;
  return specs.some((s) => s === "" || path === s || path.startsWith(`${s}/`) || s.startsWith(`${path}/`));
}

/** Pathspecs from the top of the work tree; null (all) for magic, globs, or a spec leaving the tree. */
function fromTop(specs: readonly string[] | null, dir: string, top: string | null): string[] | null {
  if (specs === null || top === null) return null;
  const out: string[] = [];
  for (const s of specs) {
    if (/[*?[\]:\\]/.test(s) || s.startsWith(":")) return null;
    const rel = relative(top, s.startsWith("/") ? s : join(dir, s));
    if (rel.startsWith("..")) return null;
    out.push(rel);
  }
  return out;
}

/** Legacy remote files read per directory; past this the command asks. */
const MAX_LEGACY_REMOTES = 256;

/** A remote URL with a user and password or token in it, or an extra header, in a configuration file. */
const CREDENTIAL_IN_CONFIG = /:\/\/[^/\s@]+@|extraheader|insteadof\s*=\s*\S*:\/\/[^/\s@]+@/i;

/** Git's global and system configuration files, as git finds them (GIT_CONFIG_GLOBAL/SYSTEM, XDG, home). */
function globalConfigs(): string[] {
  const env = process.env;
  const xdg = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return [
    env.GIT_CONFIG_GLOBAL ?? join(homedir(), ".gitconfig"),
    join(xdg, "git", "config"),
    env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
  ];
}

/** The legacy remote files git reads (`remotes/NAME`: `URL: …` lines; `branches/NAME`: a URL), as [file, shown]. */
function legacyRemoteFiles(commonDir: string): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of ["remotes", "branches"]) {
    let names: string[];
    try {
      names = readdirSync(join(commonDir, dir));
    } catch {
      continue; // none: the usual case
    }
    for (const n of names.slice(0, MAX_LEGACY_REMOTES))
      out.push([join(commonDir, dir, n), `.git/${dir}/${n}`]);
    if (names.length > MAX_LEGACY_REMOTES) out.push([join(commonDir, dir), `.git/${dir}`]);
  }
  return out;
}

/**
 * Why printing remote URLs may print a credential: one of git's configuration files (the repository's,
 * the user's, the system's; every scope `git remote -v` reads) holds a URL with user-info or an extra
 * header, or includes another file (`[include]`, `[includeIf]`) not read here. Null when none does.
 */
function configCredentials(repo: Repository, onlyKey?: string, pattern?: string): string | null {
  // `git config KEY` reads only configuration files; the legacy remote files are for remotes' URLs.
  const key = onlyKey === undefined ? null : configKey(onlyKey);
  const matching = pattern === undefined ? null : simpleKeyPattern(pattern);
  const files: [string, string][] = [
    [join(repo.commonDir, "config"), ".git/config"],
    [join(repo.gitDir, "config.worktree"), "config.worktree"],
    // Git still reads a remote from the legacy `.git/remotes/NAME` and `.git/branches/NAME` files
    // (`git remote get-url NAME` prints their URL; red team, round 10).
    ...(key === null && matching === null ? legacyRemoteFiles(repo.commonDir) : []),
    ...globalConfigs().map((f): [string, string] => [f, f]),
  ];
  for (const [file, shown] of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8").slice(0, 1024 * 1024);
    } catch (error) {
      // A directory of more legacy remotes than are read here: not known to be free of a credential.
      if ((error as NodeJS.ErrnoException).code === "EISDIR")
        return `\`${shown}\` holds more than ${MAX_LEGACY_REMOTES} remotes, too many to check for a credential`;
      continue; // no such file
    }
    if (/^\s*\[include(if)?\b/im.test(text))
      return `git's configuration (\`${shown}\`) includes another file, which may hold a remote URL with a token, and git prints it`;
    if (matching !== null) {
      const why = matchedCredential(text, matching);
      if (why !== null) return `\`git config --get-regexp ${pattern}\` may print ${why} (\`${shown}\`)`;
      continue;
    }
    const values = key === null ? null : configValues(text, key);
    if (values !== null) {
      if (values.some((v) => CREDENTIAL_IN_CONFIG.test(v) || holdsCredential(v)))
        return `\`${onlyKey}\` in git's configuration (\`${shown}\`) holds a credential (a token in a URL), which git prints`;
      continue;
    }
    if (CREDENTIAL_IN_CONFIG.test(text))
      return `git's configuration (\`${shown}\`) holds a credential (a token in a remote URL or an extra header), which git prints`;
  }
  return null;
}

/**
 * `git diff` and `git grep` print the work tree's copy of tracked files: each covered one that may differ
 * from the index is scanned by content as a walk's files are (key-scan.ts keeps answers by identity),
 * within the same budget.
 */
function workTreeContentFact(
  top: string,
  paths: Iterable<string>,
  specs: readonly string[] | null,
): string | null {
  let budget = WALK_SCAN_BUDGET_BYTES;
  for (const p of paths) {
    if (!covered(p, specs)) continue;
    const st = lstatEntry(join(top, p));
    if (st === undefined || !st.isFile() || st.size === 0) continue;
    let scan = knownScan(st, false, p);
    if (scan === undefined) {
      if (st.size > KEY_SCAN_MAX_BYTES) scan = "too-large";
      else if (budget < st.size)
        return `git may print more than ${WALK_SCAN_BUDGET_BYTES / 1024 / 1024} MiB of the work tree not yet checked for a private key or a credential`;
      else {
        budget -= st.size;
        scan = scanFile(join(top, p), st.size);
      }
    }
    if (scan === "key")
      return `git may print \`${p}\` from the work tree, which holds a private key or a credential`;
    if (scan === "too-large")
      return `git may print \`${p}\` from the work tree, too large to check for a private key`;
  }
  return null;
}

/**
 * Why printing what this git unit prints may show a secret, or a file outside `workspace` (its real path);
 * null when it cannot.
 */
export function gitContentsFact(
  repo: Repository,
  prints: GitPrints,
  dir: string,
  subject: string,
  workspace: string,
): CallFact | null {
  if (prints.remotes) {
    const creds = configCredentials(repo, prints.configKey, prints.configPattern);
    return creds === null ? null : { subject, reason: creds };
  }
  const outside = outsideCheck(repo.workTree, workspace, subject);
  // `git blame FILE` prints FILE's work-tree lines (the history names only who wrote them): judged by that
  // copy, its name, and its content; with no copy in the work tree, git blames HEAD's: the history counts.
  if (prints.blamedFile !== undefined && repo.workTree !== null) {
    const [p] = fromTop([prints.blamedFile], dir, repo.workTree) ?? [];
    const st = p === undefined ? undefined : lstatEntry(join(repo.workTree, p));
    const out = p === undefined ? null : outside?.(p);
    if (out) return out;
    if (p !== undefined && st?.isFile() === true) {
      if (isDenylistedPath(p)) return { subject, reason: `git prints \`${p}\`, a secret` };
      const why = workTreeContentFact(repo.workTree, [p], null);
      return why === null ? null : { subject, reason: why };
    }
  }
  // `git show REV --stat` of commits prints no file's contents, whatever the history holds.
  if (prints.onlyCommits !== undefined && allCommits(repo, prints.onlyCommits)) return null;
  // A blob's id prints that blob whatever the pathspecs, and its file is not known; a commit's prints its
  // changes, which the listing below covers.
  const ids = outside === null ? [] : (prints.objectIds ?? []);
  const id = ids.length > 0 && !allCommits(repo, ids) ? ids[0] : undefined;
  if (id !== undefined)
    return {
      subject,
      reason: `git prints the object \`${id}\`, which may be a file outside the workspace (the repository's top is \`${repo.workTree}\`)`,
    };
  if (prints.stagedOnly === true && repo.workTree !== null) {
    const staged = stagedChanges(repo, repo.workTree);
    if (staged !== null)
      return changedFilesFact(
        repo,
        staged,
        fromTop(prints.pathspecs, dir, repo.workTree),
        subject,
        outside,
        false,
      );
  }
  if (prints.changedOnly === true && repo.workTree !== null) {
    const changed = workTreeChanges(repo, repo.workTree);
    if (changed !== null)
      return changedFilesFact(repo, changed, fromTop(prints.pathspecs, dir, repo.workTree), subject, outside);
  }
  const list = listing(repo, prints.history);
  if ("unknown" in list) return { subject, reason: list.unknown };
  const specs = fromTop(prints.pathspecs, dir, repo.workTree);
  for (const p of list.secrets) {
    if (!covered(p, specs)) continue;
    const family = secretFamilyOf(p);
    return {
      subject,
      reason: `git may print \`${p}\`, a secret${family ? ` (${family.family})` : ""} the ${prints.history ? "history" : "index"} holds`,
    };
  }
  // Blobs named by path were placed from the top already (disk-view.ts, topPathsFact).
  if (outside !== null && prints.namedBlobs !== true)
    for (const p of list.paths) {
      const out = covered(p, specs) ? outside(p) : null;
      if (out !== null) return out;
    }
  // By content too: a key committed in config.js, whatever pathspec (a blob id prints it alone).
  if (list.objects !== null) {
    if (list.content === undefined) {
      const content = objectsContentFact(repo, list.objects, prints.history ? "history" : "index");
      // Kept for this listing only when it is an answer about the objects (not a bound or a timeout,
      // which the next call may get past: what this one read is known by id then).
      if (content === null) list.content = null;
      else if ("found" in content) list.content = content.why;
      else return { subject, reason: content.why };
    }
    if (list.content !== null) return { subject, reason: list.content };
  }
  if (prints.workTree === true && repo.workTree !== null) {
    // Unchanged files hold their index blob, checked above; only the changed ones can print more.
    const changed = workTreeChanges(repo, repo.workTree)?.map((c) => c.path) ?? list.paths;
    const why = workTreeContentFact(repo.workTree, changed, specs);
    if (why !== null) return { subject, reason: why };
  }
  return null;
}

/**
 * `git diff` of the work tree against the index prints the changed files only, each as the index has it
 * and as the work tree has it: judged by their names, their index blobs and their work-tree copies, not by
 * everything the index holds (a key fixture left alone is not printed).
 */
function changedFilesFact(
  repo: Repository,
  changed: readonly { path: string; blob: string | null }[],
  specs: readonly string[] | null,
  subject: string,
  outside: OutsideCheck | null,
  workTree = true,
): CallFact | null {
  const mine = changed.filter((c) => covered(c.path, specs));
  for (const c of mine) {
    const out = outside?.(c.path);
    if (out) return out;
  }
  for (const c of mine)
    if (isDenylistedPath(c.path)) {
      const family = secretFamilyOf(c.path);
      return {
        subject,
        reason: `git may print \`${c.path}\`, a secret${family ? ` (${family.family})` : ""} the index holds, ${workTree ? "changed in the work tree" : "staged"}`,
      };
    }
  const blobs = mine.flatMap((c) => (c.blob === null ? [] : [c.blob]));
  const content = blobs.length === 0 ? null : objectsContentFact(repo, blobs, "index");
  if (content !== null) return { subject, reason: content.why };
  if (repo.workTree === null || !workTree) return null;
  const why = workTreeContentFact(
    repo.workTree,
    mine.map((c) => c.path),
    null,
  );
  return why === null ? null : { subject, reason: why };
}
