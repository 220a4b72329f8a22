// What `git ls-files | xargs CMD` gives CMD, found as git finds it: the paths the index of the repository
// discovered from `dir` names below `dir`, relative to it, read from the index file itself
// (git-contents.ts's reader). Without -z git prints one per line and xargs splits them at blanks and reads
// quotes and backslashes (git quotes a name with a quote, a backslash, a control or non-ASCII character),
// so such a name is other words; a name that starts with `-` is an option to CMD. Substituted unquoted
// (`CMD $(git ls-files)`), bash splits them at blanks too and expands a glob character in one. A split index keeps
// entries elsewhere, and GIT_DIR, GIT_INDEX_FILE or GIT_WORK_TREE point git at another index: not read.
// `git diff --name-only` prints some of the index's names (those the work tree changed), but always from the
// work tree's top: below it `sub/a.ts` opens `sub/sub/a.ts`, a file the index may not name, so only at the top.
import { readdirSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { indexPaths } from "./git-contents.ts";
import { discoverRepository } from "./git-discovery.ts";

/** More paths than this are not checked one by one. */
const MAX_TRACKED = 2_000;

/** The absolute paths CMD gets, or why they are not known here. */
export function trackedBelow(
  dir: string,
  nul: boolean,
  env: NodeJS.ProcessEnv,
  { globbed = false, fromTop = false }: { globbed?: boolean; fromTop?: boolean } = {},
): string[] | { unknown: string } {
  const steered = ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"].find((v) => (env[v] ?? "") !== "");
  if (steered !== undefined)
    return { unknown: `${steered} is set in the agent's environment: git reads another index` };
  const repo = discoverRepository(dir);
  if (repo === null || repo.workTree === null) return { unknown: "no work tree's index is found from there" };
  if (fromTop && !sameDir(dir, repo.workTree))
    return { unknown: "git prints the names from the work tree's top, which from below it are other paths" };
  let names: string[];
  try {
    names = readdirSync(repo.gitDir);
  } catch {
    return { unknown: "the repository directory cannot be read" };
  }
  if (names.some((n) => n.startsWith("sharedindex.")))
    return { unknown: "the index is split, which Airlock does not read" };
  const listing = indexPaths(join(repo.gitDir, "index"));
  if ("unknown" in listing) return listing;
  const out: string[] = [];
  for (const p of listing.paths) {
    const abs = join(repo.workTree, p);
    const rel = relative(dir, abs);
    if (rel.startsWith("..") || rel === "") continue;
    if (rel.startsWith("-")) return { unknown: `\`${rel}\` is tracked: xargs passes it as an option` };
    if (!nul && /[\s'"\\]|[^\x20-\x7e]/.test(rel))
      return {
        unknown: `\`${rel}\` is tracked: git quotes or xargs splits the name into other words (-z keeps it whole)`,
      };
    // `CMD $(git ls-files)`: bash expands a name with a glob character to the files it matches.
    if (globbed && /[*?[]/.test(rel))
      return { unknown: `\`${rel}\` is tracked: bash expands the name as a glob into other paths` };
    if (out.push(abs) > MAX_TRACKED) return { unknown: `more than ${MAX_TRACKED} tracked files to check` };
  }
  return out;
}

function sameDir(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
