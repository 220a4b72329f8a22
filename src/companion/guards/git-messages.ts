// Commit and tag messages with their author, committer and tagger lines, and the reflogs' messages:
// what `git log`, `git show -s`, `git reflog`, `git stash list` or `git for-each-ref --format=%(contents)`
// print without naming a file. A token pasted into a commit message is printed as surely as a committed
// .env, and git writes the command line into the reflog (`git pull https://user:TOKEN@host/r` leaves
// "pull https://user:TOKEN@host/r: Fast-forward" in .git/logs/HEAD). Every commit (and tag) object of the
// database git may print is scanned — the first N of HEAD's walk for `git log -N`, all of them otherwise —
// once (kept by id: an object id is the hash of its content), and every reflog file once per version
// (kept by the file's identity, as key-scan.ts keeps files).
import { readdirSync, readFileSync, type Stats } from "node:fs";
import { join, relative } from "node:path";
import type { GitMessages } from "../../policy/call-facts.ts";
import { KEY_SCAN_MAX_BYTES, PrivateKeyScan } from "../../policy/secret-families.ts";
import { statEntry } from "./fs-entry.ts";
import type { Repository } from "./git-discovery.ts";
import { allObjects, databaseStamp, headCommits, objectsContentFact } from "./git-objects.ts";
import { scanFile } from "./key-scan.ts";

/** More reflog files than this (one per ref that moved) are not listed: the call asks. */
const MAX_REFLOGS = 10_000;
const KEPT = 16;
const RACY_MS = 1_000;

/** The objects' answer per state of the database (the listing's key), once it is an answer. */
const objectAnswers = new Map<string, string | null>();
/** Reflog files by identity: whether they hold a credential. */
const reflogAnswers = new Map<string, boolean>();

function keep<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * Why the commit (and tag) objects git may print may show a credential; null when none can. With `head`,
 * only the first `head` commits of HEAD's walk (all of it for "all") are printed: those alone are read (a
 * listing of the whole database, which opens every loose object to learn its type, is not needed, so a
 * repository too big to list in time still answers).
 */
function objectsFact(repo: Repository, withTags: boolean, head: number | "all" | undefined): string | null {
  const stamp = databaseStamp(repo, true);
  let noWalk: string | undefined;
  if (head !== undefined && !withTags) {
    const key = `n${head}\0${stamp}`;
    const kept = objectAnswers.get(key);
    if (kept !== undefined) return kept;
    const walk = headCommits(repo, head);
    if (Array.isArray(walk)) return answer(repo, walk, new Set(), key);
    noWalk = walk.unknown;
  }
  const why = databaseFact(repo, withTags, stamp);
  // Said beside the answer: a commit git would not print (a dangling one) is then what asks.
  return why !== null && noWalk !== undefined
    ? `${why} (every commit of the database was read: ${noWalk})`
    : why;
}

/** Why the commit (and tag) objects of the whole database, dangling ones too, may show a credential. */
function databaseFact(repo: Repository, withTags: boolean, stamp: string): string | null {
  const key = `${withTags ? "t" : "c"}\0${stamp}`;
  const kept = objectAnswers.get(key);
  if (kept !== undefined) return kept;
  const objects = allObjects(repo, stamp);
  if ("unknown" in objects) return objects.unknown;
  const ids = withTags ? [...objects.commits, ...objects.tags] : objects.commits;
  return answer(repo, ids, new Set(objects.tags), key);
}

/** Reads the objects not yet known and keeps the answer under `key` (not a bound or a timeout). */
function answer(
  repo: Repository,
  ids: readonly string[],
  tags: ReadonlySet<string>,
  key: string,
): string | null {
  const content = objectsContentFact(repo, ids, "history", true);
  // A bound or a timeout is no answer about the objects: the next call goes on from what this one read.
  if (content !== null && !("found" in content)) return content.why;
  const why =
    content === null
      ? null
      : `the ${tags.has(content.found) ? "tag" : "commit"} \`${content.found.slice(0, 12)}\` holds a credential or a private key in its message or its ${tags.has(content.found) ? "tagger" : "author or committer"} line, which git prints`;
  keep(objectAnswers, key, why, KEPT);
  return why;
}

function identity(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** Every reflog file of the repository (the linked worktree's own HEAD and refs too), or null past the bound. */
function reflogFiles(repo: Repository): string[] | null {
  const out: string[] = [];
  for (const dir of new Set([join(repo.gitDir, "logs"), join(repo.commonDir, "logs")])) {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: "utf8" });
    } catch {
      continue; // no reflogs
    }
    if (out.length + names.length > MAX_REFLOGS) return null;
    for (const n of names) out.push(join(dir, n));
  }
  return out;
}

/** Whether one reflog file holds a credential (a shape, a key, a URL with user-info), or is too large to tell. */
function reflogHolds(file: string, st: Stats): boolean | "too-large" {
  if (st.size > KEY_SCAN_MAX_BYTES) return "too-large";
  const id = identity(st);
  const kept = reflogAnswers.get(id);
  if (kept !== undefined) return kept;
  let text: string;
  try {
    text = readFileSync(file, "latin1");
  } catch {
    return false; // gone or unreadable: git cannot print it either
  }
  const holds = new PrivateKeyScan(true).feed(text);
  // A file written within the last second may change again without its identity changing (racy git).
  if (Date.now() - Math.max(st.mtimeMs, st.ctimeMs) >= RACY_MS) keep(reflogAnswers, id, holds, 50_000);
  return holds;
}

/** Why the reflogs' messages git may print may show a credential; null when none can. */
function reflogsFact(repo: Repository): string | null {
  const files = reflogFiles(repo);
  if (files === null)
    return `the repository has more than ${MAX_REFLOGS} reflogs, too many to check for a credential`;
  for (const file of files) {
    const st = statEntry(file);
    if (st === undefined || !st.isFile()) continue;
    const holds = reflogHolds(file, st);
    const shown = relative(repo.commonDir, file).startsWith("..") ? file : relative(repo.commonDir, file);
    if (holds === "too-large") return `the reflog \`${shown}\` is too large to check for a credential`;
    if (holds)
      return `the reflog \`${shown}\` holds a credential in a message (a token, or a URL with a password), which git prints`;
  }
  return null;
}

/**
 * Why what this git unit prints of messages (commit and tag objects, reflogs) may show a credential;
 * null when it cannot. `workTree` is where git finds `.mailmap`, which rewrites the names it prints.
 */
export function gitMessagesFact(
  repo: Repository,
  prints: GitMessages,
  workTree: string | null,
): string | null {
  if (prints.commits || prints.tags) {
    const why = objectsFact(repo, prints.tags, prints.head);
    if (why !== null) return why;
    if (workTree !== null) {
      const mailmap = join(workTree, ".mailmap");
      const st = statEntry(mailmap);
      const scan = st?.isFile() === true ? scanFile(mailmap, st.size) : "none";
      if (scan === "key")
        return "`.mailmap` holds a credential, which git prints as an author's name or email";
      if (scan === "too-large") return "`.mailmap` is too large to check for a credential";
    }
  }
  return prints.reflogs ? reflogsFact(repo) : null;
}
