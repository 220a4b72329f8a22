// The workspace's own repository may run programs too: a project that arrives as an archive or a copy
// (not a clone) carries its `.git`, and its configuration can name programs git runs on a read-only
// command — core.fsmonitor and core.pager on `git status`/`git log`, diff.external and textconv drivers
// on `git diff`, clean filters on `git status`, includes that pull in configuration not read here. Such
// a key makes every git unit in that repository ask, naming it. Boolean core.fsmonitor (git's own
// daemon) runs nothing.
import { lstatSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import type { Repository } from "./git-discovery.ts";
import { scanFile } from "./key-scan.ts";
import { isWithin, realPathOf } from "./real-path.ts";

const RUNS_PROGRAMS = [
  /^core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy|hookspath)$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^pager\..+$/,
  /^(include\.path|includeif\..+\.path)$/,
  /^gpg\.(.+\.)?program$/,
  /^sequence\.editor$/,
  // Not a program: the work tree moved elsewhere, so `git grep`/`git diff` read and print files outside
  // the project under the names of tracked ones (red team, round 7).
  /^core\.worktree$/,
  // `git log -p`/`git show` then run `git diff` inside each submodule, with that repository's configuration.
  /^diff\.submodule$/,
  // A partial clone fetches a missing object on a read (`git log --stat`), running the remote's
  // upload-pack program or reaching its host (red team, round 7); a remote helper (`vcs`) is a program.
  /^remote\..+\.(uploadpack|receivepack|promisor|vcs)$/,
  /^extensions\.partialclone$/,
  // Files git reads on a read-only command, whose lines it may print in an error (blame prints the first
  // bad line of its ignore-revs file: a credential file named there is shown; red team, round 7).
  /^blame\.ignorerevsfile$/,
  /^mailmap\.(file|blob)$/,
  /^core\.(excludesfile|attributesfile)$/,
  /^diff\.orderfile$/,
];
/** Keys naming a file git reads: one inside the work tree (a relative path without `..`) is the project's. */
const FILE_KEYS =
  /^(blame\.ignorerevsfile|mailmap\.file|core\.(excludesfile|attributesfile)|diff\.orderfile)$/;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Each `section.key` (lowercase section and key, subsection as written) and its value, in order. */
function* entries(text: string): Generator<{ key: string; value: string }> {
  let section = "";
  for (const raw of text.slice(0, MAX_CONFIG_BYTES).split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    let rest = line;
    if (head) {
      section =
        head[2] === undefined
          ? (head[1] as string).toLowerCase()
          : `${(head[1] as string).toLowerCase()}.${head[2]}`;
      rest = (head[3] ?? "").trim();
      if (rest === "") continue;
    }
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
    if (!m) continue;
    yield {
      key: `${section}.${(m[1] as string).toLowerCase()}`,
      value: (m[2] ?? "true").replace(/^"|"$/g, "").trim(),
    };
  }
}

/** A value naming a file in the work tree: relative, without `..`, `~` or a variable. */
const IN_WORK_TREE = (value: string) => !/^[/~]|(^|\/)\.\.(\/|$)|^\$/.test(value);

/**
 * Whether a file a configuration key names, relative to the work tree's top, is what it looks like: a
 * file of the project. Not so when its real path (symlinks followed) leaves the work tree, it is a secret
 * family, it has another name (a hard link), or it holds a key or a credential: git prints the first line
 * it cannot parse (red team, round 10: `ignoreRevsFile = revs.txt`, a committed link to ~/.netrc).
 */
function projectFile(workTree: string | null, value: string): boolean {
  if (workTree === null) return false;
  const path = join(workTree, value);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return true;
  const r = realPathOf(path);
  if (!r.ok) return false;
  const top = realPathOf(workTree);
  const root = top.ok ? top.real : workTree;
  if (!isWithin(root, r.real)) return false;
  if (isDenylistedPath(value) || isDenylistedPath(relative(root, r.real))) return false;
  if (r.stat === null) return false;
  if (r.stat.isDirectory()) return true; // git cannot read it as a file, and says so
  if (!r.stat.isFile() || r.stat.nlink > 1) return false;
  return scanFile(r.real, r.stat.size) === "none";
}

/** The first key of a git configuration text that runs a program, as `section.key`; null when none. */
export function programKey(text: string, workTree: string | null = null): string | null {
  for (const { key, value } of entries(text)) {
    if (!RUNS_PROGRAMS.some((re) => re.test(key.toLowerCase()))) continue;
    if (key === "core.fsmonitor" && BOOLEAN.test(value)) continue;
    if (key === "diff.submodule" && value.toLowerCase() === "short") continue;
    if (key.endsWith(".promisor") && /^(false|no|off|0)$/i.test(value)) continue;
    if (FILE_KEYS.test(key.toLowerCase()) && IN_WORK_TREE(value) && projectFile(workTree, value)) continue;
    return key;
  }
  return null;
}

/** Git's global and system configuration files, as git finds them (GIT_CONFIG_GLOBAL/SYSTEM, XDG, home). */
export function globalConfigs(): string[] {
  const env = process.env;
  const xdg = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return [
    env.GIT_CONFIG_GLOBAL ?? join(homedir(), ".gitconfig"),
    join(xdg, "git", "config"),
    env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
  ];
}

function readConfig(file: string): string | null {
  try {
    return readFileSync(file, "utf8").slice(0, MAX_CONFIG_BYTES);
  } catch {
    return null;
  }
}

/**
 * What the user's or the system's configuration makes git read or run from the work tree: a file key with
 * a relative value (`blame.ignoreRevsFile = .git-blame-ignore-revs`, a common global setting) names a file
 * of whatever repository git runs in, judged as the repository's own would be; a relative core.hooksPath
 * makes the work tree's directory git's hooks (red team, round 10). Null when none does.
 */
export function globalWorkTreeKey(repo: Repository): { file: string; key: string; hooks?: string } | null {
  for (const file of globalConfigs()) {
    const text = readConfig(file);
    if (text === null) continue;
    for (const { key, value } of entries(text)) {
      if (FILE_KEYS.test(key) && IN_WORK_TREE(value) && !projectFile(repo.workTree, value))
        return { file, key };
      if (key === "core.hookspath" && IN_WORK_TREE(value) && repo.workTree !== null) {
        const hook = hookIn(join(repo.workTree, value));
        if (hook !== null) return { file, key, hooks: `${value.replace(/\/+$/, "")}/${hook}` };
      }
    }
  }
  return null;
}

/** Which configuration file of the repository names a program git runs, and the key; null when none. */
export function repositoryProgram(repo: Repository): { file: string; key: string } | null {
  for (const [file, shown] of [
    [join(repo.commonDir, "config"), ".git/config"],
    [join(repo.gitDir, "config.worktree"), ".git/config.worktree"],
  ] as const) {
    const text = readConfig(file);
    if (text === null) continue;
    const key = programKey(text, repo.workTree);
    if (key !== null) return { file: shown, key };
  }
  return null;
}

/**
 * Hooks git runs on a read-only command: `git status` and `git diff` refresh the index and rewrite it,
 * which runs post-index-change; a ref update runs reference-transaction (red team, round 7). Their names
 * in the repository's hooks directory, when present and executable; null when none is.
 */
export function readOnlyHook(repo: Repository): string | null {
  const hook = hookIn(join(repo.commonDir, "hooks"));
  return hook === null ? null : `.git/hooks/${hook}`;
}

/** The read-only hook present and executable in a hooks directory, or null. */
function hookIn(dir: string): string | null {
  for (const name of ["post-index-change", "reference-transaction"]) {
    try {
      if ((statSync(join(dir, name)).mode & 0o111) !== 0) return name;
    } catch {
      // absent
    }
  }
  return null;
}
