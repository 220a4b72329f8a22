// A repository may borrow objects from other object stores: `objects/info/alternates` (written by
// `git clone --reference`/`--shared`, or shipped in a repository that arrives with its .git) names
// directories git reads objects from, and GIT_ALTERNATE_OBJECT_DIRECTORIES in the agent's environment adds
// more. Then `git show ID:PATH` prints a file of another repository (a private dotfiles repo outside the
// project: red team, round 10), which no listing of this repository's history names. A git unit that
// prints objects of such a repository is not judged by this repository alone: it asks.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Repository } from "./git-discovery.ts";

/** Why what git prints may come from another repository's objects; null when it cannot. */
export function alternatesFact(repo: Repository, env: NodeJS.ProcessEnv): string | null {
  if (env.GIT_ALTERNATE_OBJECT_DIRECTORIES)
    return "GIT_ALTERNATE_OBJECT_DIRECTORIES is set, so git may print objects of another repository";
  for (const name of ["alternates", "http-alternates"]) {
    const file = join(repo.commonDir, "objects", "info", name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st === undefined) continue;
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return `the repository's \`objects/info/${name}\` cannot be read`;
    }
    const first = text.split("\n").find((l) => l.trim() !== "" && !l.startsWith("#"));
    if (first !== undefined)
      return `the repository borrows objects from \`${first.trim()}\` (objects/info/${name}), so git may print another repository's files`;
  }
  return null;
}
