// What the tools that act when a person's shell enters a directory load from the project besides the command
// words they run (hook-runs.ts): the directories direnv's .envrc and mise's `[env]` put on PATH (or on another
// search path: PYTHONPATH, NODE_PATH), whose every file then runs in place of the program the person types, the
// Nix files `use nix`/`use flake`/`use devenv` evaluate, and mise's `_.source` scripts, `_.file` env files and
// `[hooks]` (fix17a: `PATH_add bin` made bin/git the person's git on the next cd, while writing it was ordinary).
// Each per its tool's docs (direnv-stdlib(1), mise.jdx.dev/environments, devenv.sh). Pure; paths as written,
// relative to the config's directory.

export interface EnterLoads {
  /** Directories whose every file is run or loaded. */
  dirs: string[];
  /** Files evaluated or sourced (beyond the ones the command words name). */
  files: string[];
  /** Command lines run (mise's hooks); their words are read as hook-runs.ts reads any command's. */
  commands: string[];
}

const none = (): EnterLoads => ({ dirs: [], files: [], commands: [] });

/** A `:`-separated search path's entries that name a place, `$PWD` as the config's directory. */
function searchEntries(value: string): string[] {
  return value
    .replace(/^["']|["']$/g, "")
    .split(":")
    .map((e) => e.replace(/^(\$PWD|\$\{PWD\}|\$\(pwd\))(\/|$)/, "./"))
    .filter((e) => e !== "" && !e.includes("$") && !e.includes("`"));
}

const words = (rest: string): string[] =>
  [...rest.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

/** Nix files each `use` evaluates, by its first word (a flake reference that is a directory: its flake.nix). */
function useFiles(args: string[]): string[] {
  const [kind, arg] = args;
  if (kind === "nix") return arg !== undefined && !arg.startsWith("-") ? [arg] : ["shell.nix", "default.nix"];
  if (kind === "flake") {
    const dir =
      arg !== undefined && /^(\.|\/|path:)/.test(arg) ? arg.replace(/^path:/, "").replace(/#.*$/, "") : ".";
    return [`${dir}/flake.nix`, `${dir}/flake.lock`];
  }
  if (kind === "devenv") return ["devenv.nix", "devenv.yaml", "devenv.lock", "devenv.local.nix"];
  return [];
}

/** A `.envrc`: direnv's stdlib functions and PATH assignments, line by line (a `;` starts another). */
export function envrcLoads(text: string): EnterLoads {
  const out = none();
  for (const line of text.split(/\n|;|&&|\|\|/)) {
    // A command after a keyword (`if has x; then PATH_add bin; fi`) is the keyword's body.
    const body = line.replace(/\s#.*$/, "").replace(/^\s*((then|do|else|\{|\()\s+)+/, "");
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)(?:=(\S*)|\s+(.*))?$/.exec(body);
    if (m === null) continue;
    const [, name, value, rest] = m as unknown as [string, string, string | undefined, string | undefined];
    const args = rest === undefined ? [] : words(rest);
    if (value !== undefined && /^(PATH|PYTHONPATH|NODE_PATH|PERL5LIB|RUBYLIB|LD_LIBRARY_PATH)$/.test(name))
      out.dirs.push(...searchEntries(value));
    else if (name === "PATH_add" || name === "MANPATH_add" || name === "load_prefix") out.dirs.push(...args);
    else if (name === "path_add") out.dirs.push(...args.slice(1));
    else if (name === "use") out.files.push(...useFiles(args));
  }
  return out;
}

const recordOf = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A string or a list of them (or of tables with `path`, as mise allows), as strings. */
function strings(v: unknown): string[] {
  const one = (x: unknown): string[] =>
    typeof x === "string" ? [x] : typeof recordOf(x)?.path === "string" ? [recordOf(x)?.path as string] : [];
  return Array.isArray(v) ? v.flatMap(one) : one(v);
}

/** A hook's command lines: a string, a list, or tables with `script`/`run` (mise's hooks). */
function hookCommands(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(hookCommands);
  const r = recordOf(v);
  return r === null ? [] : [r.script, r.run].filter((x): x is string => typeof x === "string");
}

/** A mise config (parsed TOML): `[env]`'s `_.path`, `_.source`, `_.file`, and the `[hooks]` it runs on cd. */
export function miseLoads(doc: unknown): EnterLoads {
  const out = none();
  const root = recordOf(doc);
  // `[env]`, or `[[env]]` tables; each `_` a table of directives or a list of them.
  const envs = Array.isArray(root?.env) ? root.env.map(recordOf) : [recordOf(root?.env)];
  const directives = envs.flatMap((e) => (Array.isArray(e?._) ? e._.map(recordOf) : [recordOf(e?._)]));
  for (const d of directives) {
    out.dirs.push(...strings(d?.path).flatMap(searchEntries));
    out.files.push(...strings(d?.source), ...strings(d?.file));
  }
  const hooks = recordOf(root?.hooks);
  for (const key of ["enter", "leave", "cd", "preinstall", "postinstall"])
    out.commands.push(...hookCommands(hooks?.[key]));
  return out;
}
