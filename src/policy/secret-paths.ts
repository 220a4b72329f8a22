// The secret-path denylist shared by risk escalation here and the companion's file guards, and
// the files whose contents decide what runs (git config and hooks, shell startup files, agent
// and Airlock configuration), which are never written without a person.
import { hasGlob, segmentMayMatch } from "./glob-match.ts";
import { Lru } from "./lru.ts";
import { basename, normalizePath } from "./paths.ts";
import { SECRET_FAMILIES, type SecretFamily } from "./secret-families.ts";
import { STARTUP_WRITE_PATTERNS } from "./startup-writes.ts";

/** Every denylisted pattern, family by family (secret-families.ts): never read or served by the companion. */
export const DENYLIST_PATTERNS: readonly string[] = SECRET_FAMILIES.flatMap((f) => f.patterns);

/**
 * The capability-prompt rubric's escalators: names that only suggest a secret. They raise a read's
 * risk (so a person is asked) but do not stop the companion serving, say, `src/auth/tokens.ts`.
 */
export const RISK_ESCALATOR_PATTERNS: readonly string[] = ["*secret*", "*token*", "*credentials*"];

/** Everything that makes a path secret-like: the denylist and the escalators. */
export const SECRET_PATH_PATTERNS: readonly string[] = [...DENYLIST_PATTERNS, ...RISK_ESCALATOR_PATTERNS];

/** Files whose contents decide what later runs: writing one is running code later. */
export const PROTECTED_WRITE_PATTERNS: readonly string[] = [
  ".git/",
  // A `.git` file (`gitdir: DIR`) makes DIR the repository of this directory, with DIR/config's programs.
  ".git",
  // A directory holding HEAD (with objects/ and refs/, or a commondir) is a repository to git, its
  // config deciding what runs there: creating one is deciding what runs (red team, round 7).
  "HEAD",
  "commondir",
  ".gitconfig",
  ".config/git/",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  // Debian's ~/.bashrc sources it in every interactive shell.
  ".bash_aliases",
  ".profile",
  // What a login shell (Codex runs every call as `bash -lc`) sources before ~/.bash_profile.
  "etc/profile",
  "etc/profile.d/",
  "etc/bash.bashrc",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".inputrc",
  ".envrc",
  ".vscode/",
  ".config/autostart/",
  ".config/systemd/",
  ".pi/",
  ".claude/",
  ".codex/",
  ".agents/",
  // Agent and editor configuration that starts programs (MCP servers, tasks, dev containers).
  ".mcp.json",
  ".cursor/",
  ".gemini/",
  // OpenCode: `mcp` servers it starts and plugins it loads at its next launch (red team, round 5).
  "opencode.json",
  "opencode.jsonc",
  ".opencode/",
  ".windsurf/",
  ".continue/",
  ".devcontainer/",
  // Git hooks kept in the work tree (husky sets core.hooksPath to it).
  ".husky/",
  // The installed packages' code: `npx NAME` and every script runs their bins (red team, round 8: an
  // edited node_modules/typescript/bin/tsc ran on `npx tsc --version`).
  "node_modules/",
  ".githooks/",
  // pre-commit runs the repository's `repo: local` hooks on the next commit.
  ".pre-commit-config.yaml",
  // Package-manager and build configuration that names programs to run.
  ".yarnrc.yml",
  ".yarnrc",
  ".pnpmfile.cjs",
  ".cargo/config.toml",
  ".cargo/config",
  // Other tools' configuration that runs code (red team, round 10): Mercurial's hooks run on any hg
  // command, JetBrains run configurations (startup tasks run when the project opens), mise's tasks, hooks
  // and `path:` tool versions, git-lfs's endpoint (pushes go there with the user's credentials).
  ".hg/",
  ".idea/",
  ".mise.toml",
  "mise.toml",
  "mise.local.toml",
  ".mise/",
  ".tool-versions",
  ".lfsconfig",
  // Git-hook managers' configuration (red team, round 13): the person's next `git commit` runs what it
  // names, outside any agent gate. `*` in a name matches any run of characters (`.lintstagedrc.json`).
  "lint-staged.config.*",
  ".lintstagedrc*",
  "lefthook.*",
  ".lefthook.*",
  "lefthook-local.*",
  ".lefthook-local.*",
  ".lefthook/",
  ".lefthook-local/",
  ".huskyrc*",
  "husky.config.*",
  ".simple-git-hooks.*",
  "simple-git-hooks.*",
  ".overcommit.yml",
  "commitlint.config.*",
  ".commitlintrc*",
  // Editors' project configuration that runs programs when the person opens the project: Zed's tasks and
  // language servers, Helix's language servers, Neovim's and Vim's `exrc` files, jj's repository config.
  ".zed/",
  ".helix/",
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".jj/",
  // Red team, round 14: start-up files and installed code in the project. pdb runs `./.pdbrc` as Python when
  // it starts; a virtualenv's `bin/activate` and `site-packages/*.pth` run at every activation and interpreter
  // start (any directory holding pyvenv.cfg is one, found on disk: python-venv.ts); direnv's cache holds the
  // rc `use flake` sources and `layout python`'s virtualenv; IPython runs a profile's startup/ files and
  // ipython_config.py (in ~/.ipython or IPYTHONDIR; no longer the working directory's); the dev container
  // spec reads `.devcontainer.json` at the root (its initializeCommand runs on the host); Copilot CLI loads
  // hooks from `.github/hooks/*.json` and `.github/copilot/settings*.json`.
  ".pdbrc",
  // fix15e: a pyvenv.cfg makes its directory a virtualenv, whose files the PATH lookup runs as installed
  // code; written by the agent, it would make a directory the agent filled (`tools/bin/ls`) installed code.
  "pyvenv.cfg",
  ".venv/",
  "venv/",
  ".tox/",
  ".nox/",
  ".direnv/",
  ".ipython/",
  ".devcontainer.json",
  ".github/hooks/",
  ".github/copilot/",
  // Round 14: Sapling's repository config, whose [hooks] run on any sl command as Mercurial's do.
  ".sl/",
  // Round 14: Yarn PnP's installed code, loaded by every node process of the project as
  // node_modules/ is: the resolver and its map, the packages' zips and unpacked builds, the release
  // yarnPath runs, plugins, and the editor SDKs editors start.
  ".pnp.cjs",
  ".pnp.loader.mjs",
  ".pnp.data.json",
  ".yarn/releases/",
  ".yarn/plugins/",
  ".yarn/sdks/",
  ".yarn/cache/",
  ".yarn/unplugged/",
  // Round 14: other coding agents' project configuration that starts programs when the agent opens
  // the folder, each per its docs: Kiro's MCP servers and hooks (kiro.dev/docs/mcp/configuration), Amazon
  // Q's `.amazonq/mcp.json` and `default.json` (docs.aws.amazon.com/amazonq, mcp-ide), Roo Code's
  // `.roo/mcp.json` (docs.roocode.com), Kilo Code's `.kilocode/mcp.json` and `kilo.jsonc`/`.kilo/`
  // (kilo.ai/docs), Qwen Code's `.qwen/settings.json` mcpServers (qwenlm.github.io/qwen-code-docs),
  // OpenHands' `.openhands/setup.sh`, run at every session's start (docs.openhands.dev), Cline's hooks
  // (docs.cline.bot/customization/hooks), and aider's `lint-cmd`/`test-cmd`, run after every edit
  // (aider.chat/docs/usage/lint-test.html). Their rules and hints (`.clinerules/*.md`, `.goosehints`) are text.
  ".kiro/",
  ".amazonq/",
  ".roo/",
  ".kilocode/",
  ".kilo/",
  "kilo.json",
  "kilo.jsonc",
  ".qwen/",
  ".openhands/",
  ".clinerules/hooks/",
  ".aider.conf.yml",
  // Red team, round 14 (r14-16, s02, s05): mise loads more names per directory than mise.toml (its
  // LOCAL_CONFIG_FILENAMES and the MISE_ENV ones: `.config/mise/`'s config.toml and conf.d/*.toml,
  // `mise/config.toml`, `mise.<env>.toml`, `.mise.local.toml`, the old `.rtx.toml`), each with the same
  // `_.source`, hooks and tasks, and `.miserc.toml` picks which load; rustup runs the programs of a
  // `rust-toolchain.toml` `path`, and rust-analyzer a `rust-analyzer.toml`'s overrideCommand.
  ".config/mise/",
  "mise/config.toml",
  "mise/config.*.toml",
  "mise.*.toml",
  ".mise.*.toml",
  ".rtx.toml",
  ".rtx.*.toml",
  ".miserc.toml",
  ".config/miserc.toml",
  "rust-toolchain.toml",
  "rust-toolchain",
  "rust-analyzer.toml",
  // Round 15: the start-up files programs read from home and from the directory they start in.
  ...STARTUP_WRITE_PATTERNS,
];

/** Compares one path segment (which may be a glob) with one pattern part. */
type SegmentTest = (segment: string, part: number) => boolean;

interface CompiledPattern {
  parts: readonly string[];
  /** Each part as a case-insensitive matcher of a literal segment. */
  literal: readonly ((segment: string) => boolean)[];
  test: (segments: readonly string[], same: SegmentTest) => boolean;
}

function partMatcher(part: string): (segment: string) => boolean {
  if (!part.includes("*")) {
    const lower = part.toLowerCase();
    return (segment) => segment.toLowerCase() === lower;
  }
  const re = new RegExp(`^${part.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, ".*")}$`, "i");
  return (segment) => re.test(segment);
}

function compilePattern(pattern: string): CompiledPattern {
  const dirPattern = pattern.endsWith("/");
  const parts = (dirPattern ? pattern.slice(0, -1) : pattern).split("/");
  const literal = parts.map(partMatcher);
  let test: CompiledPattern["test"];
  if (dirPattern) {
    // A directory (path): matched by consecutive non-final segments.
    test = (segs, same) => {
      for (let i = 0; i + parts.length < segs.length; i++)
        if (parts.every((_, k) => same(segs[i + k] as string, k))) return true;
      return false;
    };
  } else {
    // A name, or a path suffix.
    test = (segs, same) =>
      segs.length >= parts.length &&
      parts.every((_, k) => same(segs[segs.length - parts.length + k] as string, k));
  }
  return { parts, literal, test };
}

const DENYLIST = DENYLIST_PATTERNS.map(compilePattern);
const FAMILY_PATTERNS = SECRET_FAMILIES.map((f) => ({ family: f, compiled: f.patterns.map(compilePattern) }));
const ESCALATORS = RISK_ESCALATOR_PATTERNS.map(compilePattern);
const PROTECTED = PROTECTED_WRITE_PATTERNS.map(compilePattern);
// `.env.example` and friends are templates meant to be committed; they are not secrets, whatever file
// they are the template of (`config/secrets.example.yml`, `app.env.dist`: over-asks, round 12; a key pasted
// into one is still found by its content on disk). Nor is source code named after what it handles
// (`src/auth/credentials.ts`, `id_rsa.test.js`).
const TEMPLATE = /\.(example|sample|template|dist)(\.[A-Za-z0-9]+)?$/i;
const SOURCE_CODE =
  /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|scala|vue|svelte|md|mdx|css|scss|html)$/i;
// …unless a dotted part of its name says it holds secrets (`config.secret.js`, `db.secrets.ts`): such a
// file is the secret configuration in code form, by convention kept out of version control.
const SECRET_DOTTED = /\.secrets?\./i;
const notSecret = (name: string): boolean =>
  TEMPLATE.test(name) || (SOURCE_CODE.test(name) && !SECRET_DOTTED.test(name));

/** A file name that says source code or prose (`env.ts`, `README.md`): never a secret by its name. */
export function namesSourceCode(name: string): boolean {
  return SOURCE_CODE.test(name);
}

function segmentsOf(relOrAbsPath: string): string[] {
  return normalizePath(relOrAbsPath)
    .split("/")
    .filter((s) => s !== "" && s !== ".");
}

function matches(patterns: CompiledPattern[], relOrAbsPath: string): boolean {
  const segs = segmentsOf(relOrAbsPath);
  if (segs.length === 0) return false;
  if (patterns === DENYLIST && notSecret(basename(relOrAbsPath))) return false;
  return patterns.some((p) =>
    p.test(segs, (segment, k) => (p.literal[k] as (s: string) => boolean)(segment)),
  );
}

// Every read and write decision asks about its path; agents touch the same paths again and again.
const DENIED = 1;
const ESCALATED = 2;
const PROTECTED_BIT = 4;
const verdicts = new Lru<string, number>(4096);

/**
 * Editors' and tools' copies of a file, by name, each form mapping a copy's name to the name it copies (red
 * team, round 12: `#.env#`, `.netrc~`, `.npmrc.bak`, `kubeconfig.bak`, `auth.json.bak` held the same
 * secrets; round 14: vim's undo file `..pgpass.un~`, Finder's `.pgpass copy`, `.netrc.bak.1`, dated and
 * numbered copies). A form strips one decoration; verdictOf undecorates again, so they combine.
 */
const COPY_FORMS: readonly (readonly [copy: RegExp, of: string])[] = [
  // The suffixes backups, package managers and people add, after a dot, dash or underscore.
  [
    /^(.+?)[._-](?:bak|backup|bkp|old|orig|save|sav|tmp|copy|txt|dpkg-(?:old|dist|new)|rpm(?:save|new|orig)|ucf-(?:old|dist))$/i,
    "$1",
  ],
  // emacs's `NAME~` and numbered `NAME.~3~` (GNU cp --backup=numbered).
  [/^(.+?)(?:\.~\d+)?~+$/, "$1"],
  // Swap and undo files beside NAME: vim's `.NAME.swp` (`.swo`, … `.swa`) and `.NAME.un~`, kate's `.NAME.kate-swp`;
  // the leading dot is vim's and kate's, so `.netrc.un~` may copy `.netrc` or `netrc`.
  [/^\.(.+)\.(?:sw[a-p]|un~|kate-swp)$/i, "$1"],
  [/^(.+)\.(?:sw[a-p]|un~|kate-swp)$/i, "$1"],
  // vim's swap and undo files kept in another directory are named by the whole path, `/` as `%`.
  [/^.*%(.+)$/, "$1"],
  // emacs's auto-save `#NAME#` and lock `.#NAME`.
  [/^#(.+)#$/, "$1"],
  [/^\.#(.+)$/, "$1"],
  // Numbered and dated copies: `NAME.1`, `NAME.bak.1`, `NAME.2024-01-01`, `NAME_20240101T1200`.
  [/^(.+?)[._-]\d[\d._:T-]*$/, "$1"],
  // File managers' and browsers' duplicates, before an extension when there is one: `NAME copy`,
  // `NAME copy 2`, `NAME - Copy (2)`, `NAME (1)`, `NAME 2`, `secrets copy.yml`; and `Copy of NAME`.
  [/^(.+?)(?: copy(?: \d+)?| - copy(?: \(\d+\))?| \(\d+\)| \d+)(\.[A-Za-z0-9]+)?$/i, "$1$2"],
  [/^copy(?: \(\d+\))? of (.+)$/i, "$1"],
];

/** A longer word names no file (NAME_MAX), and is not undecorated step by step. */
const NAME_MAX = 255;

function undecorated(name: string): string[] {
  if (name.length > NAME_MAX) return [];
  const out: string[] = [];
  for (const [copy, of] of COPY_FORMS) {
    const bare = copy.test(name) ? name.replace(copy, of) : name;
    if (bare !== "" && bare !== name && !out.includes(bare)) out.push(bare);
  }
  return out;
}

function verdictOf(path: string): number {
  let v = verdicts.get(path);
  if (v === undefined) {
    v =
      (matches(DENYLIST, path) ? DENIED : 0) |
      (matches(ESCALATORS, path) ? ESCALATED : 0) |
      (matches(PROTECTED, path) ? PROTECTED_BIT : 0);
    // A copy of a secret is one: judged as the name it copies (reading it, not writing, which makes no copy).
    const slash = path.lastIndexOf("/");
    for (const copy of undecorated(path.slice(slash + 1)))
      v |= verdictOf(path.slice(0, slash + 1) + copy) & (DENIED | ESCALATED);
    if (path.length <= 4096) verdicts.set(path, v);
  }
  return v;
}

/** True when a path is on the denylist: never read or served by the companion. */
export function isDenylistedPath(relOrAbsPath: string): boolean {
  return (verdictOf(relOrAbsPath) & DENIED) !== 0;
}

/** The secret family a denylisted path belongs to (for explain and the phone card); null when none. */
export function secretFamilyOf(relOrAbsPath: string): SecretFamily | null {
  if (!isDenylistedPath(relOrAbsPath)) return null;
  const segs = segmentsOf(relOrAbsPath);
  for (const { family, compiled } of FAMILY_PATTERNS)
    if (compiled.some((p) => p.test(segs, (segment, k) => (p.literal[k] as (s: string) => boolean)(segment))))
      return family;
  return null;
}

/** True when a path (relative or absolute) names a likely secret: denylisted or escalated to high risk. */
export function isSecretPath(relOrAbsPath: string): boolean {
  return (verdictOf(relOrAbsPath) & (DENIED | ESCALATED)) !== 0;
}

/** True when writing the path changes what later runs (git config and hooks, shell startup files). */
export function isProtectedWritePath(relOrAbsPath: string): boolean {
  return (verdictOf(relOrAbsPath) & (DENIED | PROTECTED_BIT)) !== 0;
}

/**
 * True when a glob path (`.e*`, `src/[.]aws`) could match a denylisted path, as bash expands it:
 * `cat .e*` reads `.env`. A path without glob characters is judged as itself.
 */
export function globMayBeDenylisted(globPath: string, forWrite = false): boolean {
  const segs = segmentsOf(globPath);
  if (segs.length === 0) return false;
  if (!segs.some(hasGlob)) return forWrite ? isProtectedWritePath(globPath) : isDenylistedPath(globPath);
  // `*.ts` only ever names source files, which are not secrets.
  const last = segs[segs.length - 1] as string;
  const ext = /(\.[A-Za-z0-9]+)$/.exec(last);
  if (!forWrite && ext && notSecret(`x${ext[1]}`)) return false;
  const patterns = forWrite ? [...PROTECTED, ...DENYLIST] : DENYLIST;
  // A template such as .env.example is not a secret, but a glob matching it may match .env.local.
  return patterns.some((p) => p.test(segs, (segment, k) => segmentMayMatch(segment, p.parts[k] as string)));
}

// For a walk: which file names can only be secret together with their parent path (`.git/config`).
const SUFFIX_LAST = new Set(
  DENYLIST_PATTERNS.filter((p) => !p.endsWith("/") && p.includes("/")).map((p) =>
    p.slice(p.lastIndexOf("/") + 1).toLowerCase(),
  ),
);
const SUFFIX_GLOB = [...SUFFIX_LAST].some((n) => n.includes("*"));

/**
 * The denylist split for a tree walk, same answers as isDenylistedPath on `dir/name`: a directory is
 * judged once (`secrets/`, `.ssh/`), a file by its name (cached across directories), and only names that
 * end a path pattern (`config` of `.git/config`) by the whole path.
 */
export function denylistedInWalk(dirRel: string, dirSecret: boolean, name: string): boolean {
  if (dirSecret || isDenylistedPath(name)) return true;
  if (!SUFFIX_GLOB && !SUFFIX_LAST.has(name.toLowerCase())) return false;
  return isDenylistedPath(dirRel === "" || dirRel === "." ? name : `${dirRel}/${name}`);
}

/** Whether everything below a directory is on the denylist (a `secrets/` or `.ssh/` anywhere in it). */
export function denylistedDir(dirRel: string): boolean {
  return dirRel !== "" && dirRel !== "." && isDenylistedPath(`${dirRel}/_`);
}
