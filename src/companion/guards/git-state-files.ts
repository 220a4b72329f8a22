// The files git reads as the repository's own state, and the files its configuration names, judged where
// they really lead. Git parses them on read-only commands and prints an offending line in its error
// (`fatal: unexpected line in .git/packed-refs: <line>`, `fatal: invalid object name: <line>` for a bad
// blame.ignoreRevsFile line, "Last command done: <line>" from rebase-merge/done): such a file that is a
// link out of the repository, onto a secret, or a second name of another file (a hard link) prints that
// file (red team, round 10). So does an object store git borrows from outside the project (alternates):
// `git show <id>:file` prints another repository's files. So does a diff or filter driver of the user's
// configuration, run on whatever files the project's `.gitattributes` gives it (round 13). Each is a reason
// for a git unit to ask.
import { type Dirent, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { configLayers, expandPath, type LayerEntry } from "./git-config-layers.ts";
import { FILE_KEYS } from "./git-config-programs.ts";
import type { Repository } from "./git-discovery.ts";
import { isLfsFilter, selectedUserFilter } from "./git-filter-drivers.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** Entries of the git directory looked at most; past it the state is not understood. */
const MAX_STATE_ENTRIES = 20_000;
/** Hooks git runs on the read-only commands the policy allows (see git-config-programs.ts). */
const READ_ONLY_HOOKS = ["post-index-change", "reference-transaction"];
/** Program keys whose value is a command line: a first word with a `/` that is not absolute is the repository's file. */
const PROGRAM_KEYS =
  /^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|pager\..+|gpg\.(.+\.)?program|sequence\.editor|trailer\..+\.(command|cmd)|remote\..+\.(uploadpack|receivepack))$/;

/**
 * Drivers git picks per file by its attributes (`secret.gpg diff=gpg`), which the project's `.gitattributes`
 * sets: a textconv or diff command prints what its program makes of the file (`gpg --decrypt`), a filter
 * runs its program on the file (red team, round 13).
 */
const DRIVER_KEYS = /^(diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process))$/;
export interface StateOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The directory git runs in at the top of the work tree (relative config paths resolve there). */
  top: string | null;
  /** The unit prints contents or messages of objects (alternates matter then). */
  printsHistory: boolean;
  /** The unit prints what files hold (a patch, a blob, blame's lines): the user's diff and filter drivers matter then. */
  printsContents: boolean;
  /** The unit may run the clean filters the attributes select (`git status`): the user's filter drivers matter then. */
  runsFilters?: boolean;
}

function layerName(e: LayerEntry, env: NodeJS.ProcessEnv): string {
  if (e.scope === "repo") return `the repository's configuration sets ${e.key}`;
  const home = env.HOME;
  const from = home && isWithin(home, e.from) ? `~/${relative(home, e.from)}` : e.from;
  return `git's configuration (\`${from}\`) sets ${e.key}`;
}

/** Where a path inside `workspace` (or the work tree) really leads, when git must not read and print it there. */
function leadsWhere(lexical: string, workspace: string): string | null {
  const r = realPathOf(lexical);
  if (!r.ok) return `cannot be resolved (${r.reason})`;
  if (!isWithin(workspace, r.real)) return `leads out of the workspace, to \`${r.real}\``;
  const where = shownPath(r.real, workspace);
  if (isDenylistedPath(where)) return `is \`${where}\`, a secret`;
  if (r.stat?.isFile() && r.stat.nlink > 1)
    return `\`${where}\` has another name (a hard link), which may be a secret`;
  return null;
}

/** A file- or program-naming key of any layer that leads git into the project's files the wrong way. */
function configFact(entries: readonly LayerEntry[], o: StateOptions, base: string): string | null {
  for (const e of entries) {
    if (FILE_KEYS.test(e.key)) {
      const p = expandPath(e.value, base, o.env);
      // Outside the project: the user's own file (a repository value out there asks in programKey).
      const within = p === null ? null : [o.workspace, o.top].find((r) => r !== null && isWithin(r, p));
      if (p === null || within === undefined || within === null) continue;
      const where = leadsWhere(p, within);
      if (where !== null)
        return `${layerName(e, o.env)} = ${e.value}: the file ${where}; git reads it and prints its lines`;
    } else if (e.key === "core.hookspath") {
      const p = expandPath(e.value, base, o.env);
      if (p === null) continue;
      const r = realPathOf(p);
      if (!r.ok || !(isWithin(o.workspace, p) || isWithin(o.workspace, r.real))) continue;
      for (const name of READ_ONLY_HOOKS) {
        try {
          if ((statSync(join(p, name)).mode & 0o111) !== 0)
            return `${layerName(e, o.env)} = ${e.value}, so git runs the project's \`${shownPath(join(r.real, name), o.workspace)}\` on a read-only command`;
        } catch {
          // absent
        }
      }
    } else if (e.scope === "user" && PROGRAM_KEYS.test(e.key) && /^[^\s/~$%]\S*\//.test(e.value))
      return `${layerName(e, o.env)} = ${e.value}, a program path git resolves inside the repository`;
  }
  return null;
}

/**
 * A diff or filter driver of the user's configuration (the repository's own asks in repositoryProgram). Which
 * files it runs on is the project's to choose, and finding every `.gitattributes` git would read takes a
 * walk of the tree, so any driver but git-lfs's asks when the unit prints contents.
 */
function driverFact(entries: readonly LayerEntry[], o: StateOptions): string | null {
  for (const e of entries) {
    if (e.scope !== "user" || !DRIVER_KEYS.test(e.key) || e.value === "") continue;
    if (isLfsFilter(e.key, e.value)) continue;
    return `${layerName(e, o.env)}: a program git runs on the files the project's .gitattributes gives it, printing what it makes of them`;
  }
  return null;
}

/** A clean filter of the user's configuration that the project's attributes select, for a unit that runs filters. */
function filterFact(repo: Repository, entries: readonly LayerEntry[], o: StateOptions): string | null {
  const selected = selectedUserFilter(repo, entries, o.top);
  if (selected === null) return null;
  if ("unknown" in selected) return `the user's configuration has a filter driver, and ${selected.unknown}`;
  return `${layerName(selected.driver, o.env)}, a program git runs on the files \`${selected.file}\` gives it, even on \`git status\``;
}

/** A state entry of the git directory that is a link out of it (or onto a secret), or a hard link. */
function entryFact(
  path: string,
  e: Dirent,
  root: string,
  dirs: readonly string[],
  o: StateOptions,
): string | null {
  const shown = `.git/${relative(root, path)}`;
  if (e.isSymbolicLink()) {
    const r = realPathOf(path);
    if (!r.ok) return `\`${shown}\` is a link that cannot be resolved (${r.reason}); git reads it`;
    if (dirs.some((d) => isWithin(d, r.real))) return null;
    if (!isWithin(o.workspace, r.real) || isDenylistedPath(shownPath(r.real, o.workspace)))
      return `\`${shown}\` is a link to \`${shownPath(r.real, o.workspace)}\`; git reads it as the repository's state and prints its lines in errors`;
    return null;
  }
  // A local clone hard-links the object store's files (packs, objects/info/commit-graph): not a second name to suspect.
  const rel = relative(root, path);
  if (e.isFile() && (!rel.startsWith("objects/") || rel === "objects/info/alternates")) {
    try {
      if (lstatSync(path).nlink > 1)
        return `\`${shown}\` has another name (a hard link), which may be a secret; git reads it and prints its lines in errors`;
    } catch {
      // gone
    }
  }
  return null;
}

/** Walks the git directories' state (not the loose objects and packs, nor hooks git runs rather than reads). */
function stateFact(repo: Repository, o: StateOptions): string | null {
  const dirs = [...new Set([repo.gitDir, repo.commonDir])];
  let seen = 0;
  for (const root of dirs) {
    const stack = [root];
    while (stack.length > 0) {
      const dir = stack.pop() as string;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > MAX_STATE_ENTRIES)
          return `the repository directory has more than ${MAX_STATE_ENTRIES} state files, too many to check for links`;
        const path = join(dir, e.name);
        const rel = relative(root, path);
        if (rel === "hooks") continue; // run, not read: readOnlyHook judges them
        const f = entryFact(path, e, root, dirs, o);
        if (f !== null) return f;
        // Loose objects and packs are zlib data git does not echo; submodules are repositories of their own.
        if (e.isDirectory() && !/^(modules|lfs)$|^objects\/([0-9a-f]{2}|pack)$/.test(rel)) stack.push(path);
      }
    }
  }
  return null;
}

/** Object stores git borrows from outside the project (objects/info/alternates, the environment). */
function alternatesFact(repo: Repository, o: StateOptions): string | null {
  const objects = join(repo.commonDir, "objects");
  const named: [string, string][] = [];
  try {
    for (const line of readFileSync(join(objects, "info", "alternates"), "utf8").split("\n"))
      if (line.trim() !== "" && !line.startsWith("#"))
        named.push([line.trim(), ".git/objects/info/alternates"]);
  } catch {
    // none
  }
  for (const v of ["GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_OBJECT_DIRECTORY"])
    for (const p of (o.env[v] ?? "").split(delimiter)) if (p !== "") named.push([p, v]);
  for (const [p, from] of named) {
    const r = realPathOf(expandPath(p.replace(/^"|"$/g, ""), objects, o.env) ?? p);
    if (!r.ok || !isWithin(o.workspace, r.real))
      return `\`${from}\` borrows objects from \`${r.ok ? r.real : p}\`, outside the project: git prints another repository's files and history`;
  }
  return null;
}

/** Why a git unit in the workspace's own repository reads or runs something its text does not show; null when nothing. */
export function repositoryStateFact(repo: Repository, o: StateOptions): string | null {
  const base = o.top ?? repo.gitDir;
  const entries = configLayers(repo, o.env, o.workspace);
  return (
    configFact(entries, o, base) ??
    (o.printsContents
      ? driverFact(entries, o)
      : o.runsFilters === true
        ? filterFact(repo, entries, o)
        : null) ??
    stateFact(repo, o) ??
    (o.printsHistory ? alternatesFact(repo, o) : null)
  );
}
