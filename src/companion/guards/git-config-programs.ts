// The workspace's own repository may run programs too: a project that arrives as an archive or a copy
// (not a clone) carries its `.git`, and its configuration can name programs git runs on a read-only
// command — core.fsmonitor and core.pager on `git status`/`git log`, diff.external and textconv drivers
// on `git diff`, clean filters on `git status`, includes that pull in configuration not read here. Such
// a key makes every git unit in that repository ask, naming it. Boolean core.fsmonitor (git's own
// daemon) runs nothing.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Repository } from "./git-discovery.ts";

const RUNS_PROGRAMS = [
  /^core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy|hookspath)$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^pager\..+$/,
  /^(include\.path|includeif\..+\.path)$/,
  /^gpg\.(.+\.)?program$/,
  /^sequence\.editor$/,
  // `git interpret-trailers` runs a trailer's command even without --trailer (.command; .cmd with one), and
  // `git format-patch --stdout` prints the signature file's text (proven on 2.39).
  /^trailer\..+\.(command|cmd)$/,
  /^format\.signaturefile$/,
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
  // git fsck dies on the first line of its skip list that is no object name, printing it (proven on 2.39).
  /^fsck\.skiplist$/,
  // ssh-keygen, verifying an ssh signature (`log.showSignature`, `--show-signature`, `%G?`), parses these
  // and reports each bad line by its number (round 12: the file's lines are counted out).
  /^gpg\.ssh\.(allowedsignersfile|revocationfile)$/,
];
/** Keys naming a file git reads: one inside the work tree (a relative path without `..`) is the project's. */
export const FILE_KEYS =
  /^(blame\.ignorerevsfile|format\.signaturefile|mailmap\.file|core\.(excludesfile|attributesfile)|diff\.orderfile|fsck\.skiplist|gpg\.ssh\.(allowedsignersfile|revocationfile))$/;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Whether a configuration key names a program git runs or a file it reads (any scope). */
export function runsProgram(key: string): boolean {
  return RUNS_PROGRAMS.some((re) => re.test(key.toLowerCase()));
}

/** One `section.key = value` of a configuration text (section and key lowercased, subsection kept). */
export interface ConfigEntry {
  key: string;
  value: string;
}

/** Every entry of a git configuration text, in order; a key without `=` is `true`, as git takes it. */
export function configEntries(text: string): ConfigEntry[] {
  const out: ConfigEntry[] = [];
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
    const key = `${section}.${(m[1] as string).toLowerCase()}`;
    out.push({ key, value: (m[2] ?? "true").replace(/^"|"$/g, "").trim() });
  }
  return out;
}

/**
 * An include of the repository's own configuration that git-config-layers.ts reads (a path, `~/…` from home):
 * what it pulls in is judged there, as the project's (git-facts.ts projectLayerProgram). `~user/…` and
 * `%(prefix)/…` are not followed there, so they stay unknown.
 */
export const FOLLOWED_INCLUDE = /^(include|includeif\..+)\.path$/;
const followed = (key: string, value: string) =>
  FOLLOWED_INCLUDE.test(key.toLowerCase()) && value !== "" && !/^(~[^/]|%\()/.test(value);

/**
 * The first key of a git configuration text that runs a program, as `section.key`; null when none. With
 * `includesFollowed`, an include whose file is judged on its own does not count.
 */
export function programKey(text: string, includesFollowed = false): string | null {
  const entries = configEntries(text);
  return programKeyOf(includesFollowed ? entries.filter((e) => !followed(e.key, e.value)) : entries);
}

/** The first of these configuration entries that runs a program, as `section.key`; null when none. */
export function programKeyOf(entries: readonly { key: string; value: string }[]): string | null {
  for (const { key, value } of entries) {
    if (!RUNS_PROGRAMS.some((re) => re.test(key.toLowerCase()))) continue;
    if (key === "core.fsmonitor" && BOOLEAN.test(value)) continue;
    if (key === "diff.submodule" && value.toLowerCase() === "short") continue;
    if (key.endsWith(".promisor") && /^(false|no|off|0)$/i.test(value)) continue;
    // A relative path inside the work tree is judged where it leads (git-state-files.ts).
    if (FILE_KEYS.test(key.toLowerCase()) && !/^[/~]|(^|\/)\.\.(\/|$)|^\$/.test(value)) continue;
    return key;
  }
  return null;
}

/** Which configuration file of the repository names a program git runs, and the key; null when none. */
export function repositoryProgram(repo: Repository): { file: string; key: string } | null {
  for (const [file, shown] of [
    [join(repo.commonDir, "config"), ".git/config"],
    [join(repo.gitDir, "config.worktree"), ".git/config.worktree"],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const key = programKey(text, true);
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
  for (const name of ["post-index-change", "reference-transaction"]) {
    try {
      if ((statSync(join(repo.commonDir, "hooks", name)).mode & 0o111) !== 0) return `.git/hooks/${name}`;
    } catch {
      // absent
    }
  }
  return null;
}
