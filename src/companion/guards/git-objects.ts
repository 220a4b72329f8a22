// The contents of git's objects, for commands that print them (`git log -p`, `git show REV`, `git show
// <blob id>`, `git diff --cached`): a private key or a credential committed under a harmless name
// (config.js) is printed as surely as a .env. Every object the command may print is read once with
// `git cat-file --batch` and its answer kept by object id — a blob's id is the hash of its content, so a
// kept "clean" can never be stale. Bounded: more unread bytes than the budget, a blob above the scan
// bound, or a git that does not answer in time make the call ask.
import { spawnSync } from "node:child_process";
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { KEY_SCAN_MAX_BYTES, PrivateKeyScan } from "../../policy/secret-families.ts";
import type { Repository } from "./git-discovery.ts";

/** Bytes of objects not yet read that one decision reads before it asks instead. */
export const OBJECT_SCAN_BUDGET_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 2_000;
const KEPT = 200_000;

/** Object ids read and found clean, and those found holding a secret. */
const clean = new Set<string>();
const holding = new Set<string>();

/** The environment git runs with here: no GIT_* variable of the agent's, no global or system configuration. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("GIT_")) delete env[k];
  return {
    ...env,
    HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    // git 2.44+: never fetch a missing object lazily (older gits: protocol.allow=never above).
    GIT_NO_LAZY_FETCH: "1",
    LC_ALL: "C",
  };
}

/**
 * Configuration every git the guards run takes: no fsmonitor, no hooks, and no transport at all, so a
 * partial clone's missing object is never fetched lazily from its promisor remote (which would run
 * `remote.*.uploadpack` or reach the network while a call is only being judged: red team, round 7).
 */
export const GUARD_GIT_CONFIG: readonly string[] = [
  "-c",
  "core.fsmonitor=",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "protocol.allow=never",
];

/**
 * What every git of the guards that reads the object database takes: GUARD_GIT_CONFIG, and each object as
 * itself (`--no-replace-objects`). With a replace ref standing, `cat-file --batch` printed the replacement's
 * content under the replaced id, and answers are kept by id: a commit holding a token, replaced by a clean
 * one, was kept clean, and `git log` printed it once the replace ref was gone; a walk (`rev-list --objects
 * --all`) never entered the replaced commit's tree, whose `.env` `git --no-replace-objects log -p` prints.
 * The replacements are objects and refs (`refs/replace/`) of the database too, read and walked as well.
 */
export const GUARD_GIT_OBJECTS: readonly string[] = ["--no-replace-objects", ...GUARD_GIT_CONFIG];

function git(repo: Repository, args: readonly string[], input?: string, maxBuffer = 64 * 1024 * 1024) {
  return spawnSync("git", ["--git-dir", repo.gitDir, ...GUARD_GIT_OBJECTS, ...args], {
    encoding: "buffer",
    timeout: TIMEOUT_MS,
    maxBuffer,
    ...(input !== undefined ? { input: Buffer.from(input, "latin1") } : {}),
    stdio: [input !== undefined ? "pipe" : "ignore", "pipe", "ignore"],
    env: gitEnv(),
  });
}

/** What the object database holds, by type (ids). */
export interface DatabaseObjects {
  blobs: string[];
  commits: string[];
  tags: string[];
}

const LISTINGS_KEPT = 4;
const listings = new Map<string, DatabaseObjects | { unknown: string }>();

function mtime(p: string): string {
  try {
    const s = statSync(p);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return "-";
  }
}

/** Ref directories listed at most; past it, the state is new on every call (nothing kept). */
const MAX_REF_DIRS = 1_000;

/**
 * The mtime of every directory under refs/: a ref is written by renaming a lock file into its directory,
 * so a fetch moving `refs/remotes/origin/main` changes `refs/remotes/origin`, not `refs/remotes`.
 */
function refDirectories(commonDir: string): string[] {
  const root = join(commonDir, "refs");
  const out = [mtime(root)];
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    if (out.length > MAX_REF_DIRS) return [...out, `now:${performance.now()}`];
    const p = join(e.parentPath, e.name);
    out.push(`${p.slice(root.length)}=${mtime(p)}`);
  }
  return out;
}

/**
 * What changes when a commit, a checkout, a fetch, a stash or `git add` happens: the index, HEAD and,
 * with `history`, every ref directory, packed refs, the HEAD reflog and the packs.
 */
export function databaseStamp(repo: Repository, history: boolean): string {
  const parts = [repo.gitDir, mtime(join(repo.gitDir, "index")), mtime(join(repo.gitDir, "HEAD"))];
  if (history) {
    for (const p of ["packed-refs", "logs/HEAD", "objects/pack"]) parts.push(mtime(join(repo.commonDir, p)));
    parts.push(...refDirectories(repo.commonDir));
  }
  return `${history ? "h" : "i"}\0${parts.join("\0")}`;
}

/**
 * Every blob, commit and tag in the object database, reachable or not (`git show <id>` prints a dangling
 * one too): one `cat-file --batch-all-objects`, kept per state of the database for the history's content
 * check and the messages' alike. `stamp` is the caller's `databaseStamp(repo, true)`, already taken for its
 * own cache (the stamp walks every ref directory: once per decision is enough).
 */
export function allObjects(repo: Repository, stamp: string): DatabaseObjects | { unknown: string } {
  const kept = listings.get(stamp);
  if (kept !== undefined) return kept;
  const r = git(repo, [
    "cat-file",
    "--batch-all-objects",
    "--unordered",
    "--batch-check=%(objectname) %(objecttype)",
  ]);
  if (r.error !== undefined || r.status !== 0)
    return { unknown: "the repository's objects could not be listed in time to check what they hold" };
  const out: DatabaseObjects = { blobs: [], commits: [], tags: [] };
  for (const line of r.stdout.toString("latin1").split("\n")) {
    const space = line.indexOf(" ");
    const type = line.slice(space + 1);
    if (type === "blob") out.blobs.push(line.slice(0, space));
    else if (type === "commit") out.commits.push(line.slice(0, space));
    else if (type === "tag") out.tags.push(line.slice(0, space));
  }
  if (listings.size >= LISTINGS_KEPT) listings.delete(listings.keys().next().value as string);
  listings.set(stamp, out);
  return out;
}

function keep(set: Set<string>, id: string): void {
  if (set.size >= KEPT) set.delete(set.values().next().value as string);
  set.add(id);
}

type ContentFact = { found: string; why: string } | { why: string } | null;

/**
 * Why printing these objects may show a secret (one holds a private key or a credential, or they could
 * not all be read within the bounds), or null when none can. `small`: objects that are mostly small
 * (commits, tags) are read in one `cat-file --batch` bounded by the budget, sizes checked as they come;
 * past the budget, as for blobs, their sizes are listed first and the budget's worth read.
 */
export function objectsContentFact(
  repo: Repository,
  ids: readonly string[],
  where: string,
  small = false,
): ContentFact {
  const holds = (id: string) => ({
    found: id,
    why: `the ${where} holds an object (\`${id.slice(0, 12)}\`) with a private key or a credential, which git may print`,
  });
  const unread: string[] = [];
  for (const id of ids) {
    if (holding.has(id)) return holds(id);
    if (!clean.has(id)) unread.push(id);
  }
  if (unread.length === 0) return null;
  const unreadable = {
    why: `the ${where}'s objects could not be read in time to check them for a private key or a credential`,
  };
  if (small) {
    const r = git(
      repo,
      ["cat-file", "--batch"],
      `${unread.join("\n")}\n`,
      OBJECT_SCAN_BUDGET_BYTES + unread.length * 128,
    );
    // More than the budget (ENOBUFS): read as blobs are, the budget's worth by their listed sizes.
    if (r.error === undefined && r.status === 0) return scanBatch(r.stdout, where, holds);
    if ((r.error as NodeJS.ErrnoException | undefined)?.code !== "ENOBUFS") return unreadable;
  }
  const sizes = git(
    repo,
    ["cat-file", "--batch-check=%(objectname) %(objectsize)"],
    `${unread.join("\n")}\n`,
  );
  if (sizes.error !== undefined || sizes.status !== 0) return unreadable;
  // Read up to the budget now; what is read is known by id, so the next call goes on from there.
  let total = 0;
  let over: { why: string } | null = null;
  const batch: string[] = [];
  for (const line of sizes.stdout.toString("latin1").split("\n")) {
    const [id, size] = line.split(" ");
    if (id === undefined || size === undefined || size === "missing") continue;
    const n = Number(size);
    if (n > KEY_SCAN_MAX_BYTES)
      return {
        why: `the ${where} holds an object (\`${id.slice(0, 12)}\`) of ${n} bytes, too large to check for a private key`,
      };
    if (total + n > OBJECT_SCAN_BUDGET_BYTES) {
      over = {
        why: `the ${where} holds more than ${OBJECT_SCAN_BUDGET_BYTES / 1024 / 1024} MiB of objects not yet checked for a private key or a credential`,
      };
      break;
    }
    total += n;
    batch.push(id);
  }
  const r = git(repo, ["cat-file", "--batch"], `${batch.join("\n")}\n`, total + batch.length * 128 + 4096);
  if (r.error !== undefined || r.status !== 0) return unreadable;
  return scanBatch(r.stdout, where, holds) ?? over;
}

/**
 * Scans `cat-file --batch` output (`<id> <type> <size>\n<content>\n`, one after another; `<id> missing\n`
 * for an id not there), keeping each object's answer by id: the first found holding a secret, an object
 * above the scan bound, or null when none holds one.
 */
function scanBatch(
  out: Buffer,
  where: string,
  holds: (id: string) => { found: string; why: string },
): ContentFact {
  let at = 0;
  let found: string | null = null;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    if (nl < 0) break;
    const [id, type, size] = out.toString("latin1", at, nl).split(" ");
    at = nl + 1;
    if (id === undefined || type === "missing" || size === undefined) continue;
    const n = Number(size);
    if (n > KEY_SCAN_MAX_BYTES)
      return {
        why: `the ${where} holds an object (\`${id.slice(0, 12)}\`) of ${n} bytes, too large to check for a private key`,
      };
    const scan = new PrivateKeyScan();
    // One pass over the whole object: the chunking of files (key-scan.ts) is not needed in memory.
    if (scan.feed(out.toString("latin1", at, at + n))) {
      keep(holding, id);
      found ??= id;
    } else keep(clean, id);
    at += n + 1;
  }
  return found !== null ? holds(found) : null;
}

/**
 * A replace ref makes git read another object in place of one (`git replace -f COMMIT BLOB`), and the
 * agent's git may or may not honour it (GIT_NO_REPLACE_OBJECTS): what a revision is cannot be said then.
 */
function hasReplaceRefs(repo: Repository): boolean {
  try {
    if (readdirSync(join(repo.commonDir, "refs", "replace")).length > 0) return true;
  } catch {
    // no such directory
  }
  try {
    return readFileSync(join(repo.commonDir, "packed-refs"), "latin1").includes(" refs/replace/");
  } catch {
    return false;
  }
}

/**
 * The first `n` commits of HEAD's walk (what `git log -n` prints with nothing else choosing), all of them
 * for "all" (what `git log` prints), or why it cannot say (replace refs, which make git print another
 * object in place of one; an unborn HEAD; git not answering in time), which the caller shows beside the
 * answer it reads instead. Grafts and a shallow file change the walk for this rev-list as for the agent's
 * git: both read them from the repository.
 */
export function headCommits(repo: Repository, n: number | "all"): string[] | { unknown: string } {
  if (hasReplaceRefs(repo))
    return {
      unknown: "the repository has replace refs, which make git print another commit in place of one",
    };
  const count = n === "all" ? [] : [`--max-count=${n}`];
  const r = git(
    repo,
    ["rev-list", ...count, "HEAD"],
    undefined,
    n === "all" ? 64 * 1024 * 1024 : 1024 * 1024,
  );
  const walk = `HEAD's walk (\`git rev-list HEAD\`)`;
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT")
    return { unknown: `${walk} did not answer within ${TIMEOUT_MS / 1000} s` };
  if (r.error !== undefined || r.status !== 0)
    return { unknown: `${walk} failed (${r.error?.message ?? `exit ${r.status}`}: no commit yet?)` };
  return r.stdout
    .toString("latin1")
    .split("\n")
    .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
}

/**
 * Whether each revision is a commit (peeled through tags) in this repository now: then `git show REV`
 * with a names-only format prints names, stats and messages, never a file's contents. False when it
 * cannot say (a blob, a tree, a range, a missing name, replace refs, git not answering in time).
 */
export function allCommits(repo: Repository, revisions: readonly string[]): boolean {
  if (revisions.length === 0 || revisions.length > 16 || hasReplaceRefs(repo)) return false;
  if (revisions.some((r) => r === "" || /[\n\r]/.test(r))) return false;
  const input = `${revisions.map((r) => `${r}^{commit}`).join("\n")}\n`;
  const r = git(repo, ["cat-file", "--batch-check=%(objecttype)"], input, 1024 * 1024);
  if (r.error !== undefined || r.status !== 0) return false;
  const lines = r.stdout
    .toString("latin1")
    .split("\n")
    .filter((l) => l !== "");
  return lines.length === revisions.length && lines.every((l) => l === "commit");
}
