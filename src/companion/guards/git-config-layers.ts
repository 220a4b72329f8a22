// Every configuration layer git reads for a repository, not only the repository's own: the system file,
// the user's ~/.gitconfig and $XDG_CONFIG_HOME/git/config (or GIT_CONFIG_GLOBAL), GIT_CONFIG_COUNT and
// GIT_CONFIG_PARAMETERS from the environment, and every file those include. A user's setting is the
// user's own choice, but a RELATIVE value in it is resolved by git inside the repository at hand
// (`core.hooksPath = .githooks` in ~/.gitconfig runs the project's `.githooks/post-index-change` on
// `git status`; red team, round 10), so the judge reads the keys it checks in all of them.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { configEntries, FOLLOWED_INCLUDE } from "./git-config-programs.ts";
import type { Repository } from "./git-discovery.ts";
import { isWithin, realPathOf } from "./real-path.ts";

export interface LayerEntry {
  /** "repo": the repository's own files (it may arrive with the project); "user": everything else. */
  scope: "repo" | "user";
  /** The file (or environment variable) the entry came from, as shown to the user. */
  from: string;
  key: string;
  value: string;
}

const MAX_INCLUDE_DEPTH = 10;

/** The home directory git expands `~/` with: $HOME of the agent's environment, else the process's own. */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/** A path value as git expands it: `~/` from home; relative ones against `base`. Null for `~user`, `%(prefix)`. */
export function expandPath(value: string, base: string, env: NodeJS.ProcessEnv): string | null {
  if (value === "~" || value.startsWith("~/")) return join(homeOf(env), value.slice(1));
  if (value.startsWith("~") || value.startsWith("%(")) return null;
  return isAbsolute(value) ? value : join(base, value);
}

/**
 * A user's layer the agent's environment or an include leads into the workspace (GIT_CONFIG_GLOBAL,
 * XDG_CONFIG_HOME naming a project file; red team, round 15) arrives with the project, or is written by the
 * agent, as the repository's own configuration is: it is judged as the repository's.
 */
function scopeOf(
  file: string,
  scope: LayerEntry["scope"],
  workspace: string | undefined,
): LayerEntry["scope"] {
  if (scope === "repo" || workspace === undefined) return scope;
  const r = realPathOf(file);
  return isWithin(workspace, r.ok ? r.real : file) ? "repo" : scope;
}

function readLayer(
  file: string,
  given: LayerEntry["scope"],
  env: NodeJS.ProcessEnv,
  out: LayerEntry[],
  depth: number,
  workspace?: string,
): void {
  const scope = scopeOf(file, given, workspace);
  // A device or a pipe (`include.path = /dev/stdin`) is not read here, where it could block or never end:
  // it stands as an include not followed, which the program keys count (git-config-programs.ts).
  if (!regularOrAbsent(file)) {
    out.push({ scope, from: file, key: "include.path", value: file });
    return;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return; // absent or unreadable: git skips it too
  }
  for (const { key, value } of configEntries(text)) {
    out.push({ scope, from: file, key, value });
    // An include applies to what follows; an includeIf may apply (its condition is not evaluated: reading
    // one file too many only makes a decision stricter). Relative to the including file, as git resolves.
    if (depth < MAX_INCLUDE_DEPTH && FOLLOWED_INCLUDE.test(key)) {
      const target = expandPath(value, dirname(file), env);
      if (target !== null) readLayer(target, scope, env, out, depth + 1, workspace);
    }
  }
}

function regularOrAbsent(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return true; // absent or unreadable: git skips it too
  }
}

/** `GIT_CONFIG_PARAMETERS` as git writes it for `git -c` (`'key'='value'` or the older `'key=value'`). */
function parameterEntries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const m of text.matchAll(/'((?:[^'\\]|\\.)*)'(?:='((?:[^'\\]|\\.)*)')?/g)) {
    const first = m[1] as string;
    if (m[2] !== undefined) out.push({ key: first.toLowerCase(), value: m[2] });
    else {
      const eq = first.indexOf("=");
      out.push(
        eq < 0
          ? { key: first.toLowerCase(), value: "true" }
          : { key: first.slice(0, eq).toLowerCase(), value: first.slice(eq + 1) },
      );
    }
  }
  return out;
}

/**
 * The system's and the user's configuration files, as the environment names them, in git's order. A relative
 * GIT_CONFIG_GLOBAL or GIT_CONFIG_SYSTEM is git's working directory's, `cwd` (red team, round 23b: `gcfg`).
 */
export function userLayerFiles(env: NodeJS.ProcessEnv, cwd?: string): string[] {
  const out: string[] = [];
  const at = (file: string) => (cwd === undefined ? file : resolve(cwd, file));
  if (!/^(1|true|yes|on)$/i.test(env.GIT_CONFIG_NOSYSTEM ?? ""))
    out.push(at(env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"));
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    if (env.GIT_CONFIG_GLOBAL !== "") out.push(at(env.GIT_CONFIG_GLOBAL));
  } else {
    const xdg = env.XDG_CONFIG_HOME || join(homeOf(env), ".config");
    out.push(at(join(xdg, "git", "config")), join(homeOf(env), ".gitconfig"));
  }
  return out;
}

/**
 * Every entry of every layer git reads for `repo` (none: outside one, where `git help` runs too), in git's
 * order (system, global, repo, environment); a user's layer inside `workspace` is the repository's (scopeOf).
 * `cwd`: where git runs, which relative paths the environment names are resolved from (the workspace when
 * not given).
 */
export function configLayers(
  repo: Repository | null,
  env: NodeJS.ProcessEnv,
  workspace?: string,
  cwd: string | undefined = workspace,
): LayerEntry[] {
  const out: LayerEntry[] = [];
  for (const file of userLayerFiles(env, cwd)) readLayer(file, "user", env, out, 0, workspace);
  if (repo !== null) {
    readLayer(join(repo.commonDir, "config"), "repo", env, out, 0);
    readLayer(join(repo.gitDir, "config.worktree"), "repo", env, out, 0);
  }
  const fromEnv: { from: string; key: string; value: string }[] = [];
  const count = Number.parseInt(env.GIT_CONFIG_COUNT ?? "", 10);
  for (let i = 0; Number.isFinite(count) && i < Math.min(count, 1000); i++) {
    const key = env[`GIT_CONFIG_KEY_${i}`];
    if (key !== undefined)
      fromEnv.push({
        from: `GIT_CONFIG_KEY_${i}`,
        key: key.toLowerCase(),
        value: env[`GIT_CONFIG_VALUE_${i}`] ?? "",
      });
  }
  for (const e of parameterEntries(env.GIT_CONFIG_PARAMETERS ?? ""))
    fromEnv.push({ from: "GIT_CONFIG_PARAMETERS", ...e });
  for (const e of fromEnv) {
    out.push({ scope: "user", ...e });
    // An include set by the environment is read from git's working directory (red team, round 23b): what it
    // pulls in is judged where it lies, the project's when it is in the workspace (scopeOf).
    if (cwd !== undefined && FOLLOWED_INCLUDE.test(e.key)) {
      const target = expandPath(e.value, cwd, env);
      if (target !== null) readLayer(target, "user", env, out, 1, workspace);
    }
  }
  return out;
}
