// Whether a file is the repository's own code: its index names it. Installed code (node_modules, a
// virtualenv) is trusted as what the person installed only while the repository does not track it; a
// committed node_modules or venv arrives with a clone (red team, round 14).
import { join, relative } from "node:path";
import { indexPaths } from "./git-contents.ts";
import { discoverRepository } from "./git-discovery.ts";

/**
 * Which of `files` the repository holding `dir` tracks, as git names it; null when none is tracked or there is
 * no repository. An index Airlock cannot read tracks, as far as it knows, anything.
 */
export function trackedFile(dir: string, files: readonly string[]): string | null {
  const repo = discoverRepository(dir);
  if (repo === null || repo.workTree === null) return null;
  const listing = indexPaths(join(repo.gitDir, "index"));
  for (const f of files) {
    const rel = relative(repo.workTree, f);
    if (rel.startsWith("..")) continue;
    if ("unknown" in listing || listing.paths.has(rel)) return rel;
  }
  return null;
}
