// Git reads many files of its repository directory on a read-only command (packed-refs, shallow, HEAD,
// the rebase and merge state that `git status` prints, objects/info/alternates) and prints a line it
// cannot parse in its error. A repository that arrives with its .git (an archive, a copy) can make one of
// them a symlink to a secret: `fatal: unexpected line in .git/packed-refs: https://u:TOKEN@github.com`
// (red team, round 10). Git never writes a symlink there itself, so any symlink in the repository
// directory (but the object store's packs and loose objects, and hooks, which git runs rather than reads
// and whose read-only ones are judged on their own) makes a git unit ask.
import { type Dirent, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Repository } from "./git-discovery.ts";

/** Entries looked at per repository directory; past this the command asks. */
const MAX_ENTRIES = 20_000;
/** Directories git writes only itself, binary, or runs rather than reads. */
const SKIPPED = new Set(["objects", "hooks", "lfs", "modules", "worktrees"]);

/** Why the repository directory may make git print a file outside it; null when it holds no symlink. */
export function gitDirLinkFact(repo: Repository): string | null {
  let seen = 0;
  for (const root of new Set([repo.gitDir, repo.commonDir])) {
    const stack: string[] = [root];
    while (stack.length > 0) {
      const dir = stack.pop() as string;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > MAX_ENTRIES)
          return `the repository directory holds more than ${MAX_ENTRIES} entries, too many to check for symlinks`;
        const path = join(dir, e.name);
        const rel = relative(root, path);
        if (e.isSymbolicLink())
          return `the repository's \`${rel}\` is a symlink: git reads it and prints a line it cannot parse`;
        if (!e.isDirectory()) continue;
        if (dir === root && SKIPPED.has(e.name)) {
          // The object store's info/ (alternates, http-alternates) is read as text.
          if (e.name === "objects") stack.push(join(path, "info"));
          continue;
        }
        stack.push(path);
      }
    }
  }
  return null;
}
