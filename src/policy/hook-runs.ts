// What the hook configurations of agents, editors and git-hook managers run, read from their text: the
// commands and the words of them that may name a project file (red team, round 16, r16b-02: a committed
// `.claude/settings.json` SessionStart hook `bash scripts/session.sh` made writing scripts/session.sh running
// code at the next `claude` start, unjudged). The config files themselves are protected writes by name
// (protected-writes.ts); the companion (guards/hook-configs.ts) reads them and protects what they name.
// Pure and total: a text that does not parse is read as one command, every word of it a candidate, so a
// config the agent reads more leniently than this (comments in JSON) still protects what it names.
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { type EnterLoads, envrcLoads, miseLoads } from "./enter-loads.ts";

export interface HookConfig {
  /** Where it is, relative to the directory the agent (or git, or the editor) runs in. */
  path: string;
  /** Who runs its commands, and when, as a person reads it. */
  runs: string;
  format: "json" | "yaml" | "toml" | "shell";
  /** The part of the parsed document whose commands run without a person asking (default: all of it). */
  select?: (doc: unknown) => unknown;
  /** What it loads besides its commands' words (a shell config's text, else the parsed document): enter-loads.ts. */
  loads?: (doc: unknown) => EnterLoads;
  /**
   * A shell script git runs at the work tree's top (a hook file): read with bash's grammar too, so a path
   * after a `cd`, from `$(git rev-parse --show-toplevel)`, a variable set from it, or `$(dirname "$0")` is
   * the file it names (red team, round 19, r19-26), not only its words as written.
   */
  script?: true;
}

const recordOf = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A record's values; nothing of any other value. */
const valuesOf = (v: unknown): unknown[] => Object.values(recordOf(v) ?? {});

/**
 * Values a select picked that each run as a command line (a string, or a list of them), under the one key
 * `collect` reads them from whatever their own keys were (a glob, a hook's name, a lifecycle event).
 */
const asCommands = (values: readonly unknown[]): unknown => ({ command: values });

/** VS Code runs a `runOn: folderOpen` task when the folder opens (and the tasks it depends on): then all of them. */
function folderOpenTasks(doc: unknown): unknown {
  const tasks = recordOf(doc)?.tasks;
  if (!Array.isArray(tasks)) return null;
  const opens = tasks.some((t) => recordOf(recordOf(t)?.runOptions)?.runOn === "folderOpen");
  return opens ? tasks : null;
}

/** pre-commit's `repo: local` hooks run the repository's own files; a remote repo's hooks are its code. */
function localRepos(doc: unknown): unknown {
  const repos = recordOf(doc)?.repos;
  return Array.isArray(repos) ? repos.filter((r) => recordOf(r)?.repo === "local") : null;
}

/**
 * lint-staged maps globs to commands (a string or a list of them), each run on the staged files at the next
 * commit (red team, round 18, r18-08: `{"*.ts": "./scripts/ls.sh"}` ran the script the agent wrote).
 */
function lintStagedCommands(doc: unknown): unknown {
  const globs = recordOf(doc);
  return globs === null ? null : asCommands(Object.values(globs));
}

/** What package.json's hook managers run: every value of `lint-staged`, `simple-git-hooks`, husky 4's `husky.hooks`. */
function packageHookCommands(doc: unknown): unknown {
  const pkg = recordOf(doc);
  const maps = [pkg?.["lint-staged"], pkg?.["simple-git-hooks"], recordOf(pkg?.husky)?.hooks];
  return asCommands(maps.flatMap(valuesOf));
}

/** A dev container's lifecycle commands: each a string, a list, or an object of named strings or lists. */
function lifecycleCommands(doc: unknown): unknown {
  const spec = recordOf(doc);
  if (spec === null) return null;
  const values = LIFECYCLE.map((k) => spec[k]);
  return asCommands(values.flatMap((v) => (recordOf(v) === null ? [v] : valuesOf(v))));
}
const LIFECYCLE = [
  "initializeCommand",
  "onCreateCommand",
  "updateContentCommand",
  "postCreateCommand",
  "postStartCommand",
  "postAttachCommand",
];
const DEV_CONTAINER = "the dev container tools run its lifecycle commands when it is built or started";

const LINT_STAGED = "lint-staged runs its commands at the next commit";
const PACKAGE_HOOKS = "lint-staged, simple-git-hooks or husky run its hook commands at the next commit";
const LEFTHOOK = "lefthook runs its commands at the next git hook";

/** mise's project config files (mise.jdx.dev/configuration: LOCAL_CONFIG_FILENAMES), all protected by name. */
const MISE_CONFIGS = [
  ...[".config/mise/config.toml", "mise/config.toml", ".mise/config.toml", ".config/mise.toml"],
  ...["mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".rtx.toml"],
];

/** Each per its program's docs; the `.github/hooks/` and other directories of many files are listed by the companion. */
export const HOOK_CONFIGS: readonly HookConfig[] = [
  // code.claude.com settings: hooks (every event), statusLine, apiKeyHelper and the AWS/OTel helpers.
  { path: ".claude/settings.json", runs: "Claude Code runs its hooks and helpers", format: "json" },
  { path: ".claude/settings.local.json", runs: "Claude Code runs its hooks and helpers", format: "json" },
  { path: ".mcp.json", runs: "the agent starts its MCP servers", format: "json" },
  { path: ".gemini/settings.json", runs: "Gemini CLI runs its hooks and MCP servers", format: "json" },
  { path: ".cursor/hooks.json", runs: "Cursor runs its hooks", format: "json" },
  { path: ".cursor/mcp.json", runs: "Cursor starts its MCP servers", format: "json" },
  { path: ".codex/config.toml", runs: "Codex runs its MCP servers and notify program", format: "toml" },
  { path: ".codex/hooks.json", runs: "Codex runs its hooks", format: "json" },
  {
    path: ".vscode/tasks.json",
    runs: "VS Code runs its folderOpen tasks when the folder opens",
    format: "json",
    select: folderOpenTasks,
  },
  {
    path: ".pre-commit-config.yaml",
    runs: "pre-commit runs its local hooks at the next commit",
    format: "yaml",
    select: localRepos,
  },
  // direnv runs the whole file as bash on entering the directory (source_env, dotenv, any command).
  {
    path: ".envrc",
    runs: "direnv runs it as bash on entering the directory",
    format: "shell",
    loads: (text) => envrcLoads(String(text)),
  },
  // mise loads each on entering the directory (its shell hook): `[env]` directives and `[hooks]`; tasks run
  // only when the person runs them.
  ...MISE_CONFIGS.map(
    (path): HookConfig => ({
      path,
      runs: "mise loads it on entering the directory",
      format: "toml",
      select: (doc) => asCommands(miseLoads(doc).commands),
      loads: miseLoads,
    }),
  ),
  // Round 18 (r18-08): the commands lint-staged and lefthook run at each commit; a config that is code
  // (`lint-staged.config.js`) is read as text, every word a candidate. lefthook's `run` is a command line.
  { path: ".lintstagedrc", runs: LINT_STAGED, format: "yaml", select: lintStagedCommands },
  { path: ".lintstagedrc.json", runs: LINT_STAGED, format: "json", select: lintStagedCommands },
  { path: ".lintstagedrc.yaml", runs: LINT_STAGED, format: "yaml", select: lintStagedCommands },
  { path: ".lintstagedrc.yml", runs: LINT_STAGED, format: "yaml", select: lintStagedCommands },
  ...["js", "mjs", "cjs"].flatMap((ext): HookConfig[] => [
    { path: `.lintstagedrc.${ext}`, runs: LINT_STAGED, format: "shell" },
    { path: `lint-staged.config.${ext}`, runs: LINT_STAGED, format: "shell" },
  ]),
  // package.json's own hook managers: lint-staged, simple-git-hooks and husky 4 (round 18, r18-08, r18-09).
  { path: "package.json", runs: PACKAGE_HOOKS, format: "json", select: packageHookCommands },
  ...["lefthook", ".lefthook", "lefthook-local", ".lefthook-local"].flatMap((name): HookConfig[] => [
    { path: `${name}.yml`, runs: LEFTHOOK, format: "yaml" },
    { path: `${name}.yaml`, runs: LEFTHOOK, format: "yaml" },
    { path: `${name}.toml`, runs: LEFTHOOK, format: "toml" },
    { path: `${name}.json`, runs: LEFTHOOK, format: "json" },
  ]),
  // Round 18 (s04): VS Code's workspace settings name the programs it starts on opening the folder
  // (`python.defaultInterpreterPath`, terminal profiles, language servers' paths) under keys without end: the
  // whole file is read as text. A dev container's lifecycle commands run on creation (`initializeCommand`
  // on the host).
  { path: ".vscode/settings.json", runs: "VS Code starts the programs its settings name", format: "shell" },
  { path: ".devcontainer/devcontainer.json", runs: DEV_CONTAINER, format: "json", select: lifecycleCommands },
  { path: ".devcontainer.json", runs: DEV_CONTAINER, format: "json", select: lifecycleCommands },
  // R runs the project's `.Rprofile` at every start there, and what it sources by path: every renv project's
  // is `source("renv/activate.R")` (round 18, r18-07). Read as text: each quoted path is a candidate.
  {
    path: ".Rprofile",
    runs: "R runs it, and what it sources, at every start in the project",
    format: "shell",
  },
];

/** What the config loads beyond its commands' words; nothing when it does not parse. */
export function enterLoadsOf(config: HookConfig, text: string): EnterLoads | null {
  if (config.loads === undefined) return null;
  const p = config.format === "shell" ? { doc: text } : parsed(config, text);
  return p === null ? null : config.loads(p.doc);
}

/** Keys whose string (or string list) value is run: a command line, a program, or its arguments. */
const COMMAND_KEYS = new Set([
  "command",
  "args",
  "bash",
  "entry",
  "run",
  "notify",
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "otelHeadersHelper",
]);
const MAX_DEPTH = 32;

function collect(value: unknown, key: string | null, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === "string") {
    if (key !== null && COMMAND_KEYS.has(key)) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, key, depth + 1, out);
    return;
  }
  const record = recordOf(value);
  if (record === null) return;
  for (const [k, v] of Object.entries(record)) collect(v, k, depth + 1, out);
}

function parsed(config: HookConfig, text: string): { doc: unknown } | null {
  try {
    if (config.format === "json") return { doc: JSON.parse(text) };
    if (config.format === "yaml") return { doc: parseYaml(text) };
    if (config.format === "toml") return { doc: parseToml(text) };
  } catch {
    return null;
  }
  return null;
}

/** The command lines the config runs; its whole text as one when it does not parse (or is a shell script). */
export function commandsOf(config: HookConfig, text: string): string[] {
  const p = parsed(config, text);
  if (p === null) return [text];
  const out: string[] = [];
  try {
    collect(config.select === undefined ? p.doc : config.select(p.doc), null, 0, out);
  } catch {
    return [text];
  }
  return out;
}

/** A word that is an option, a URL, or still holds an unknown expansion names no file of its own. */
function candidate(word: string): boolean {
  return word !== "" && !word.startsWith("-") && !word.includes("$") && !word.includes("://");
}

/**
 * Every word of a command line that may name a file, the variables the runner sets expanded (`vars`:
 * `CLAUDE_PROJECT_DIR`, `workspaceFolder`, `HOME` …; `~/` is HOME). Quotes and backslashes go, and words
 * split at blanks, shell operators and `=` (`X=scripts/a.sh`, `--config=x.js`): a superset of the words
 * bash would pass, never fewer paths, but for the targets of output redirections. A word with another
 * expansion (`$(…)`, `$OTHER`) is not known.
 */
export function commandWords(command: string, vars: ReadonlyMap<string, string>): string[] {
  // What an output redirection names is written, not run (`> /dev/null`, `>> logs/hook.log`).
  let text = command.replace(/["'\\]/g, "").replace(/[0-9&]?>>?[|&]?\s*[^\s;&|()<>]*/g, " ");
  text = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, a, b) => {
    const value = vars.get((a ?? b) as string);
    return value === undefined ? whole : value;
  });
  const home = vars.get("HOME");
  const out = new Set<string>();
  for (const raw of text.split(/[\s;&|()<>{}[\],=`]+/)) {
    const word = home !== undefined && raw.startsWith("~/") ? `${home}${raw.slice(1)}` : raw;
    if (candidate(word)) out.add(word);
  }
  return [...out];
}

/** A word that says it is a path: a slash, or a file extension (`fmt.sh`, `hook.mjs`). */
export function looksLikePath(word: string): boolean {
  return word.includes("/") || /\.[A-Za-z0-9]{1,8}$/.test(word);
}

/**
 * Round 16 (s03): the files a program a hook runs loads as code of its own, by program name. A PostToolUse
 * `npx prettier --write …` hook runs prettier after every edit, and prettier runs `prettier.config.js`: writing
 * that is running code at the next edit, unjudged, while the agent's own `npx prettier` is judged. A JSON, YAML
 * or TOML config, and package.json's key for the tool, count too: they name plugins, parsers, transforms and
 * shared configs by path (`.prettierrc` `{"plugins": ["./tools/fmt.mjs"]}` ran that file at the next edit: red
 * team, round 23, r23-03; mocha's `require`, nyc's, markdownlint-cli2's `customRules`: s23-02), and no rule here
 * follows the path to the file. Matched by name anywhere in the
 * project (eslint and pytest look upward from each file). A hook that runs the project's own code (`npm test`,
 * `pytest`, `make`) runs every file of it by design: package.json and the Makefile say what, and are protected;
 * the sources are not, nor a plugin file the project's own config already names (docs/policy.md).
 */
const CODE = ["js", "cjs", "mjs", "ts", "cts", "mts"];
const DATA = ["json", "jsonc", "json5", "yaml", "yml", "toml"];
const codeNames = (...stems: string[]): string[] => stems.flatMap((s) => CODE.map((e) => `${s}.${e}`));
/** An rc file in every form the tool reads: bare, code and data extensions. */
const rcNames = (rc: string): string[] => [rc, ...codeNames(rc), ...DATA.map((e) => `${rc}.${e}`)];
const MANIFESTS = ["package.json", "package.yaml"];

export const TOOL_CODE_FILES: ReadonlyMap<string, readonly string[]> = new Map([
  ["prettier", [...codeNames("prettier.config"), ...rcNames(".prettierrc"), ...MANIFESTS]],
  ["eslint", [...codeNames("eslint.config"), ...rcNames(".eslintrc"), ...MANIFESTS]],
  ["stylelint", [...codeNames("stylelint.config"), ...rcNames(".stylelintrc"), ...MANIFESTS]],
  ["jest", [...codeNames("jest.config"), "jest.config.json", ...MANIFESTS]],
  ["vitest", codeNames("vitest.config", "vitest.workspace", "vite.config")],
  ["babel", [...codeNames("babel.config"), "babel.config.json", ...rcNames(".babelrc"), ...MANIFESTS]],
  ["mocha", [...rcNames(".mocharc"), ...MANIFESTS]],
  ["nyc", [...codeNames("nyc.config"), ...rcNames(".nycrc"), ...MANIFESTS]],
  ["c8", [...rcNames(".c8rc"), ...MANIFESTS]],
  ["markdownlint", rcNames(".markdownlint")],
  ["markdownlint-cli2", [...rcNames(".markdownlint-cli2"), ...rcNames(".markdownlint"), ...MANIFESTS]],
  ["pytest", ["conftest.py", "pytest.ini", ".pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"]],
  ["npm", ["package.json"]],
  ["pnpm", ["package.json"]],
  ["yarn", ["package.json"]],
  ["bun", ["package.json"]],
  ["make", ["Makefile", "makefile", "GNUmakefile"]],
]);

/** The code files the programs among a command's words load (`npx prettier`, `./node_modules/.bin/eslint`). */
export function toolCodeFiles(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words)
    for (const f of TOOL_CODE_FILES.get(w.slice(w.lastIndexOf("/") + 1)) ?? []) out.add(f);
  return [...out];
}
