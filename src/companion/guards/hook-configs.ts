// The files that hook configurations run, read on disk (policy/hook-runs.ts says what each config runs):
// agents' hooks, MCP servers and helpers, VS Code's folderOpen tasks, pre-commit's, husky's, lint-staged's
// and lefthook's commands, the .envrc direnv runs and what the project's .Rprofile sources, in the project and in the user's own agent settings. A write to a file one of them
// names by path, or to the code of a program one runs (prettier.config.js under a prettier hook), is running
// code the judge never sees: the agent's next start, the editor's next open, the person's next commit. Git's
// hook scripts (the project's, and a core.hooksPath of any layer) are also read with bash's grammar (round 19).
import { closeSync, existsSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import {
  commandsOf,
  commandWords,
  enterLoadsOf,
  HOOK_CONFIGS,
  type HookConfig,
  looksLikePath,
  toolCodeFiles,
} from "../../policy/hook-runs.ts";
import { Lru } from "../../policy/lru.ts";
import { namesNothingKnown, type PathPart, referencePattern } from "../../policy/path-references.ts";
import { shellSources } from "../../policy/shell-sources.ts";
import type { Context } from "./disk-context.ts";
import { statEntry } from "./fs-entry.ts";
import { configLayers, expandPath } from "./git-config-layers.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** A config bigger than this is read as far as this, and taken as one command (every word a candidate). */
const MAX_CONFIG_BYTES = 1 << 20;

/** Copilot CLI loads every `.github/hooks/*.json` (docs/agents.md). */
const COPILOT_HOOKS: Omit<HookConfig, "path"> = { runs: "Copilot CLI runs its hooks", format: "json" };

/** git runs husky's hook scripts (core.hooksPath) and its own, and what they run by path (round 18, r18-09). */
const HUSKY_HOOKS: Omit<HookConfig, "path"> = {
  runs: "git runs this husky hook",
  format: "shell",
  script: true,
};
const GIT_HOOKS: Omit<HookConfig, "path"> = { runs: "git runs this hook", format: "shell", script: true };
/** A core.hooksPath of any layer (a global `~/.githooks`): git runs its hooks at the top of every work tree. */
const HOOKS_PATH: Omit<HookConfig, "path"> = {
  runs: "git runs this hook (core.hooksPath) at the top of every repository",
  format: "shell",
  script: true,
};

/** One config found on disk, with where its relative words are taken from. */
interface Found {
  file: string;
  config: HookConfig;
  root: string;
}

/** What one config runs: the files it names by path, the code files of the programs it runs by name. */
interface Runs {
  file: string;
  config: HookConfig;
  command: string;
  paths: string[];
  /** What a hook script names by pattern (shell-sources.ts): a relative path after a `cd` is any directory's. */
  patterns: RegExp[];
  codeNames: readonly string[];
}

/** A config's commands, and the directories and files it loads on entering the directory (enter-loads.ts). */
interface Loaded {
  commands: string[];
  dirs: string[];
  files: string[];
}

const commandCache = new Lru<string, { key: string; loaded: Loaded }>(64);

function readCapped(file: string, size: number): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(Math.min(size, MAX_CONFIG_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** What the config runs and loads, kept by the file's identity (a write moves its ctime, so a kept answer is never stale). */
function loadedAt(f: Found): Loaded {
  const s = statEntry(f.file);
  if (s === undefined || !s.isFile()) return { commands: [], dirs: [], files: [] };
  const key = `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  const kept = commandCache.get(f.file);
  if (kept?.key === key) return kept.loaded;
  const text = readCapped(f.file, s.size);
  // Unreadable: what it runs is not known, and the agent reading it would run it; its name alone is left.
  const commands = text === null ? [] : s.size > MAX_CONFIG_BYTES ? [text] : commandsOf(f.config, text);
  const loads = text === null ? null : enterLoadsOf(f.config, text);
  const loaded = { commands, dirs: loads?.dirs ?? [], files: loads?.files ?? [] };
  commandCache.set(f.file, { key, loaded });
  return loaded;
}

/** The repository's top above the workspace (pre-commit's config is there), when it is not the workspace. */
function repositoryTop(workspace: string): string | null {
  for (let dir = workspace, depth = 0; depth < 64; depth++) {
    if (existsSync(join(dir, ".git"))) return dir === workspace ? null : dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

function listFiles(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir)
      .filter(keep)
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * The table's rows whose file may be at `root`: one listing of the root instead of a stat per row, a row kept
 * when the root holds its path's first name (compared without case, for a filesystem that ignores it); every
 * row when the root cannot be listed. loadedAt still stats what is kept, so the answer is the same.
 */
function rowsAt(root: string): readonly HookConfig[] {
  let names: Set<string>;
  try {
    names = new Set(readdirSync(root).map((n) => n.toLowerCase()));
  } catch {
    return HOOK_CONFIGS;
  }
  return HOOK_CONFIGS.filter((c) => names.has((c.path.split("/")[0] as string).toLowerCase()));
}

/** The configs of the project (the workspace, its repository's top) and of the user's own agents. */
function configsOf(ctx: Context): Found[] {
  const out: Found[] = [];
  const top = repositoryTop(ctx.workspace);
  for (const root of top === null ? [ctx.workspace] : [ctx.workspace, top]) {
    for (const config of rowsAt(root)) out.push({ file: join(root, config.path), config, root });
    for (const file of listFiles(join(root, ".github/hooks"), (n) => n.endsWith(".json")))
      out.push({ file, config: { ...COPILOT_HOOKS, path: ".github/hooks/" }, root });
    for (const file of listFiles(join(root, ".husky"), (n) => !n.startsWith("_") && !n.startsWith(".")))
      out.push({ file, config: { ...HUSKY_HOOKS, path: ".husky/" }, root });
    for (const file of listFiles(join(root, ".git/hooks"), (n) => !n.endsWith(".sample")))
      out.push({ file, config: { ...GIT_HOOKS, path: ".git/hooks/" }, root });
    for (const dir of hooksPaths(ctx, root))
      for (const file of listFiles(dir, (n) => !n.endsWith(".sample") && !n.startsWith(".")))
        out.push({ file, config: { ...HOOKS_PATH, path: `${dir}/` }, root });
  }
  // The user's settings run the same hooks in every project, relative words taken from the project.
  const home = ctx.env.HOME;
  const claude = ctx.env.CLAUDE_CONFIG_DIR ?? (home === undefined ? undefined : join(home, ".claude"));
  const gemini = ctx.env.GEMINI_CLI_HOME ?? home;
  const user: [string | undefined, string][] = [
    [claude, ".claude/settings.json"],
    [gemini === undefined ? undefined : join(gemini, ".gemini"), ".gemini/settings.json"],
  ];
  for (const [dir, path] of user) {
    const config = HOOK_CONFIGS.find((c) => c.path === path);
    if (dir !== undefined && config !== undefined)
      out.push({ file: join(dir, basename(path)), config, root: ctx.workspace });
  }
  return out;
}

/**
 * The hook directories core.hooksPath names in any layer, as git resolves them for a work tree at `root`
 * (round 19, r19-25: a global `~/.githooks/pre-commit` running `./scripts/pre-commit.sh` runs the project's
 * file at every commit). The project's own `.husky` and `.git/hooks` are listed already.
 */
function hooksPaths(ctx: Context, root: string): string[] {
  const dirs = new Set<string>();
  for (const e of configLayers(ctx.ownRepo ?? null, ctx.env, ctx.workspace)) {
    if (e.key !== "core.hookspath") continue;
    const dir = expandPath(e.value, root, ctx.env);
    if (dir !== null && dir !== join(root, ".husky") && dir !== join(root, ".git/hooks")) dirs.add(dir);
  }
  return [...dirs];
}

function isFileAt(path: string): boolean {
  return statEntry(path)?.isFile() === true;
}

const ENVRC = HOOK_CONFIGS.find((c) => c.path === ".envrc") as HookConfig;

/**
 * The `.envrc` files between the workspace's root and a written path (direnv loads the nearest one above the
 * directory a shell enters: a monorepo package's own), each with its directory as the root of its words.
 */
function nestedEnvrcs(path: string, ctx: Context): Found[] {
  const out: Found[] = [];
  for (let dir = dirname(path); isWithin(ctx.workspace, dir) && dir !== ctx.workspace; dir = dirname(dir)) {
    const file = join(dir, ".envrc");
    if (isFileAt(file)) out.push({ file, config: ENVRC, root: dir });
  }
  return out;
}

/**
 * Inside the project and not its root: a path out of it (`/usr/bin/env`, `/tmp/hook.log`) is judged as any
 * write out of the workspace is, and the root itself (`cd .`) would make every write ask.
 */
function inProject(path: string, root: string, ctx: Context): boolean {
  return (isWithin(ctx.workspace, path) || isWithin(root, path)) && !isWithin(path, root);
}

function runsOf(f: Found, ctx: Context): Runs[] {
  const vars = new Map<string, string>([
    ["CLAUDE_PROJECT_DIR", f.root],
    ["GEMINI_PROJECT_DIR", f.root],
    ["workspaceFolder", f.root],
    ["PWD", f.root],
  ]);
  if (ctx.env.HOME !== undefined) vars.set("HOME", ctx.env.HOME);
  return loadedAt(f).commands.map((command) => {
    const words = commandWords(command, vars);
    const paths = words
      .map((w) => ({ w, path: resolve(f.root, w) }))
      .filter(({ w, path }) => inProject(path, f.root, ctx) && (looksLikePath(w) || isFileAt(path)))
      .map(({ path }) => path);
    const patterns = f.config.script ? scriptPatterns(f, command, ctx) : [];
    return { file: f.file, config: f.config, command, paths, patterns, codeNames: toolCodeFiles(words) };
  });
}

const patternCache = new Lru<string, RegExp[]>(64);

/** A hook script read as bash reads it, where git runs it: `$(pwd)` and the repository's top are the root. */
function scriptPatterns(f: Found, text: string, ctx: Context): RegExp[] {
  const home = ctx.env.HOME ?? "/nonexistent";
  const key = `${f.file}\0${f.root}\0${home}\0${text}`;
  const kept = patternCache.get(key);
  if (kept !== undefined) return kept;
  const at = (path: string): PathPart[] => [{ type: "lit", value: path }];
  const where = { cwd: at(f.root), top: at(f.root), self: at(dirname(f.file)) };
  const patterns = shellSources(text, home, f.config.runs, where)
    .filter((r) => !namesNothingKnown(r.parts))
    .map((r) => referencePattern(r.parts, r.below));
  patternCache.set(key, patterns);
  return patterns;
}

/** The path as named and as the disk resolves it (a named link is the file it leads to). */
function spellings(path: string): string[] {
  const r = realPathOf(path);
  return r.ok && r.real !== path ? [path, r.real] : [path];
}

function shortCommand(command: string): string {
  const one = command.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
}

/**
 * A write below a directory the config puts on a search path, onto a file it evaluates, or onto a directory on
 * the way to one (replacing it replaces them): each runs when the person's shell next enters the directory.
 */
function enterLoadFact(
  f: Found,
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  const { dirs, files } = loadedAt(f);
  const by = `\`${shownPath(f.file, ctx.workspace)}\` (${f.config.runs})`;
  const hit = (path: string, below: boolean) =>
    inProject(path, f.root, ctx) &&
    spellings(path).some((p) => [real, lexical].some((w) => isWithin(w, p) || (below && isWithin(p, w))));
  const dir = dirs.map((d) => resolve(f.root, d)).find((d) => hit(d, true));
  if (dir !== undefined)
    return {
      subject,
      reason: `is in \`${shownPath(dir, ctx.workspace)}\`, which ${by} puts on a search path: a program or module there runs in place of the one the person asks for, unjudged`,
    };
  const file = files.map((p) => resolve(f.root, p)).find((p) => hit(p, false));
  return file === undefined
    ? null
    : {
        subject,
        reason: `is \`${shownPath(file, ctx.workspace)}\` or on the way to it, which ${by} evaluates: writing it is running code the judge never sees`,
      };
}

/** A write to a file a hook configuration runs, by path or as the code of a program it runs. */
export function hookRunWriteFact(
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  const names = [basename(real), basename(lexical)];
  for (const f of [...configsOf(ctx), ...nestedEnvrcs(real, ctx)]) {
    const loaded = enterLoadFact(f, real, lexical, ctx, subject);
    if (loaded !== null) return loaded;
    for (const r of runsOf(f, ctx)) {
      const by = `\`${shortCommand(r.command)}\` in \`${shownPath(f.file, ctx.workspace)}\` (${r.config.runs})`;
      const named = (s: string) => inProject(s, f.root, ctx) && r.patterns.some((re) => re.test(s));
      if (
        r.paths.some((p) => spellings(p).some((s) => s === real || s === lexical)) ||
        [real, lexical].some(named)
      )
        return { subject, reason: `is run by ${by}: writing it is running code the judge never sees` };
      if (isWithin(ctx.workspace, real) && names.some((n) => r.codeNames.includes(n)))
        return {
          subject,
          reason: `is code that a program run by ${by} loads: writing it is running code the judge never sees`,
        };
    }
  }
  return null;
}
