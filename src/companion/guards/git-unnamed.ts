// A raw object id given to a history printer (`git show ID`, `git cat-file -p ID`, `git diff ID ID`) may
// name a blob no commit, index entry, reflog or stash names: a `.env` staged and then unstaged stays in
// the database as a dangling blob (red team, round 10). The history check finds secrets by the names
// history gives a blob and by credential shapes; a dotenv value has no shape and such a blob no name, so
// what file it was cannot be known: the unit asks. Commits (dangling ones too) are judged as before; a
// blob or tree is allowed only when the history names it.
import { spawnSync } from "node:child_process";
import type { Repository } from "./git-discovery.ts";
import { allObjects, databaseStamp, GUARD_GIT_OBJECTS, gitEnv } from "./git-objects.ts";

const TIMEOUT_MS = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Named objects per database state (the listing is the costly part); a few states are kept. */
const named = new Map<string, ReadonlySet<string> | null>();

function run(repo: Repository, args: string[], input: string): string | null {
  const r = spawnSync("git", ["--git-dir", repo.gitDir, ...GUARD_GIT_OBJECTS, ...args], {
    encoding: "utf8",
    input,
    timeout: TIMEOUT_MS,
    maxBuffer: MAX_BYTES,
    stdio: ["pipe", "pipe", "ignore"],
    env: gitEnv(),
  });
  return r.error !== undefined || r.status !== 0 ? null : r.stdout;
}

/** Every tree, and every blob with a path, that a commit (dangling ones too), the index or a reflog reaches. */
function namedObjects(repo: Repository): ReadonlySet<string> | null {
  const stamp = databaseStamp(repo, true);
  if (named.has(stamp)) return named.get(stamp) ?? null;
  const objects = allObjects(repo, stamp);
  const commits = "unknown" in objects ? [] : objects.commits;
  const out = run(
    repo,
    ["rev-list", "--objects", "--all", "--reflog", "--indexed-objects", "--stdin"],
    commits.length > 0 ? `${commits.join("\n")}\n` : "",
  );
  let set: Set<string> | null = null;
  if (out !== null && !("unknown" in objects)) {
    set = new Set();
    for (const line of out.split("\n")) {
      const space = line.indexOf(" ");
      // A blob listed without a path (reached only from a tag) has no name either.
      if (space > 0 && line.length > space + 1) set.add(line.slice(0, space));
      else if (space > 0) set.add(`${line.slice(0, space)} tree?`);
    }
  }
  if (named.size >= 4) named.delete(named.keys().next().value as string);
  named.set(stamp, set);
  return set;
}

/** Why printing these object ids may print a file no name says; null when each is a commit or named. */
export function unnamedObjectFact(repo: Repository, ids: readonly string[]): string | null {
  // Peeled: a tag's id prints what it points at too.
  const out = run(
    repo,
    ["cat-file", "--batch-check=%(objecttype) %(objectname)"],
    `${ids.map((i) => `${i}^{}`).join("\n")}\n`,
  );
  if (out === null) return "git could not say what the object ids it is given name";
  const lines = out.split("\n").filter((l) => l !== "");
  for (const [k, line] of lines.entries()) {
    const [type, id] = line.split(" ");
    if (/ambiguous$/.test(line)) return `\`${ids[k]}\` is an ambiguous object id`;
    if (/missing$/.test(line) || type === "commit" || id === undefined) continue;
    const set = namedObjects(repo);
    if (set === null)
      return "the repository's history could not be listed in time to name the objects it is given";
    if (type === "blob" ? !set.has(id) : !set.has(id) && !set.has(`${id} tree?`))
      return `\`${ids[k]}\` is a ${type} no commit, index entry, reflog or stash names: git prints it, and what file it was is not known`;
  }
  return null;
}
