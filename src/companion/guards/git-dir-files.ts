// A git repository directory under another name than `.git` (red team, round 12): the repository of a
// `.git` file (`gitdir: gitstore`), a bare or mirror clone shipped in the project (`fixtures/mirror.git`).
// Its files are git's own as `.git/…` is: `config` holds the remotes' URLs and a CI checkout's token or
// extraheader, `logs/` the URLs fetched as typed. Such a file is judged as the same file under `.git/`
// would be: denylisted by the same names, and scanned for a URL with a password. A directory is one when
// git would take it for a repository: a HEAD file, and objects and refs directories (or a commondir file).
import type { Dirent } from "node:fs";
import { basename, dirname, relative } from "node:path";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { looksLikeGitDir } from "./git-discovery.ts";
import { isWithin } from "./real-path.ts";

/** Whether a directory's entries (as one readdir gives them) make it a git repository directory. */
export function gitDirEntries(entries: readonly Dirent[]): boolean {
  const has = (name: string, dir: boolean) =>
    entries.some((e) => e.name === name && (dir ? e.isDirectory() : e.isFile()));
  return has("HEAD", false) && (has("commondir", false) || (has("objects", true) && has("refs", true)));
}

/**
 * The repository directory (not named `.git`, which names judge already) that holds `path`, at or below
 * `workspace`, or null.
 */
export function gitDirHolding(path: string, workspace: string): string | null {
  for (let d = dirname(path); isWithin(workspace, d); d = dirname(d)) {
    if (basename(d) !== ".git" && looksLikeGitDir(d)) return d;
    if (d === workspace || dirname(d) === d) break;
  }
  return null;
}

/** How a file of a repository directory is judged: as `.git/REL` is (a secret by name, or git's own file). */
export function gitDirFile(gitDir: string, file: string): "secret" | "metadata" {
  const rel = relative(gitDir, file);
  return isDenylistedPath(`.git/${rel}`) ? "secret" : "metadata";
}
