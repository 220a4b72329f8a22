// Git's repository discovery, as git does it from a directory: at each level up to the filesystem root,
// a `.git` directory, a `.git` file (`gitdir: …`, a linked worktree or submodule), or the directory
// itself being a bare repository. Looser than git where git would refuse (ownership, ceilings): finding
// a repository git would not use only makes a decision stricter.
import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { perProcessEntry, undecodable } from "./real-path.ts";

export interface Repository {
  /** The repository directory git would use. */
  gitDir: string;
  /** Where its shared configuration lives (a linked worktree's main repository), real path. */
  commonDir: string;
  /** The work tree discovery found it from (the directory holding `.git`); null when bare or named. */
  workTree: string | null;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * `p` as the kernel resolves it (`missing` when it is not there). One through /proc/self or /dev/fd is kept
 * as named: git's process resolves it, from its own working directory, not the judge's (round 13), and a
 * repository there is then no repository of the project's.
 */
function real(p: string, missing = p): string {
  try {
    const resolved = realpathSync.native(p);
    return resolved !== p && perProcessEntry(p) !== null ? p : resolved;
  } catch {
    return missing;
  }
}

/** The common directory a git directory shares (itself, or where its `commondir` file points). */
function commonDirOf(gitDir: string): string {
  try {
    const to = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    // Joined as written: the kernel resolves a `link/..` in it from the link's target, as git does.
    if (to !== "") return real(isAbsolute(to) ? to : `${gitDir}/${to}`);
  } catch {
    // no commondir: the directory is its own
  }
  return real(gitDir);
}

/** A directory git would take for a repository: a HEAD, and objects and refs (its own or shared). */
export function looksLikeGitDir(p: string): boolean {
  if (!isFile(join(p, "HEAD"))) return false;
  if (isFile(join(p, "commondir"))) return true;
  return isDir(join(p, "objects")) && isDir(join(p, "refs"));
}

/** The repository git names in a `.git` file, or null when the file says none. */
function gitFileTarget(file: string): string | null {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, "utf8").slice(0, 4096));
    if (!m?.[1]) return null;
    // As git opens it: the kernel resolves `link/..` from where the link leads (round 12), so the path is
    // joined as written, never tidied first.
    const named = isAbsolute(m[1]) ? m[1] : `${dirname(file)}/${m[1]}`;
    return real(named, resolve(named));
  } catch {
    return null;
  }
}

export function repositoryAt(gitDir: string, workTree: string | null = null): Repository {
  return { gitDir: real(gitDir), commonDir: commonDirOf(gitDir), workTree };
}

/** The repository whose `.git` is in `dir` (a directory, or a file naming one), with `dir` its work tree; or null. */
export function repositoryIn(dir: string): Repository | null {
  const dotGit = join(dir, ".git");
  let kind: "dir" | "file" | null = null;
  try {
    const s = lstatSync(dotGit);
    kind = s.isDirectory()
      ? "dir"
      : s.isFile()
        ? "file"
        : s.isSymbolicLink()
          ? isDir(dotGit)
            ? "dir"
            : "file"
          : null;
  } catch {
    kind = null;
  }
  if (kind === "dir" && looksLikeGitDir(dotGit)) return repositoryAt(dotGit, dir);
  if (kind === "file") {
    const target = gitFileTarget(dotGit);
    // A gitdir that is not UTF-8 cannot be looked at by its decoded name, while git follows its bytes: it
    // is taken for the repository it names, never the project's own (red team, round 14).
    if (target !== null && (undecodable(target) || looksLikeGitDir(target))) return repositoryAt(target, dir);
  }
  return null;
}

/** The repository git discovers from `dir`, or null when there is none up to the root. */
export function discoverRepository(dir: string): Repository | null {
  let d = real(dir);
  for (;;) {
    const found = repositoryIn(d);
    if (found !== null) return found;
    if (looksLikeGitDir(d)) return repositoryAt(d);
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
}

/**
 * Why the repository a `.git` file (or a `.git` symlink) names is not the project's own, or null. A `.git`
 * file written anywhere makes the repository it names this directory's: another private repository
 * outside the project (red team, round 7). Accepted: a git directory inside `within`, and a linked
 * worktree's entry (`<common>/worktrees/<name>`) whose `gitdir` file names this `.git` back.
 */
export function foreignGitFile(repo: Repository, within: string): string | null {
  if (repo.workTree === null) return null;
  const dotGit = join(repo.workTree, ".git");
  let isDotGitDir: boolean;
  try {
    isDotGitDir = lstatSync(dotGit).isDirectory();
  } catch {
    return null;
  }
  const inside = (p: string) => p === within || p.startsWith(`${within}/`);
  if (isDotGitDir) {
    // A `.git` directory with a `commondir` file takes its objects, refs and configuration from there:
    // only a linked worktree's entry has one, never a work tree's own `.git` (round 12).
    if (isFile(join(dotGit, "commondir")) && !inside(repo.commonDir))
      return `\`${dotGit}\` takes its objects and refs from \`${repo.commonDir}\` (its commondir), another repository outside the project`;
    return null;
  }
  if (inside(repo.gitDir)) return null;
  if (dirname(repo.gitDir) === join(repo.commonDir, "worktrees")) {
    try {
      const back = readFileSync(join(repo.gitDir, "gitdir"), "utf8").trim();
      if (real(back) === real(dotGit)) return null;
    } catch {
      // no way back: not the worktree it claims to be
    }
  }
  return `the \`.git\` of \`${repo.workTree}\` names the repository \`${repo.gitDir}\`, outside the project and not a worktree of it`;
}
