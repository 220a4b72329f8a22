// How each recursive reader walks a tree, from its own options: what the companion must walk to know
// what the program would read. An option that could widen the walk and is not known here widens it to
// everything (hidden files, ignore files off, links followed): walking more is never unsafe.
import type { WalkStyle } from "./call-facts.ts";
import { globsIntersect } from "./glob-match.ts";
import { selectedTypeGlobs, type TypeSelection } from "./rg-types.ts";
import { grammarFor } from "./shell/grammar/index.ts";
import { parseWords } from "./shell/grammar/parse.ts";
import type { GivenOption } from "./shell/grammar/spec.ts";

/** Every file, dotfiles and .git included, links followed: the widest walk. */
export const WIDEST: WalkStyle = {
  content: true,
  hidden: true,
  ignoreFiles: false,
  follow: true,
  skipVcs: false,
  only: [],
};

// ripgrep's options that only shape output or matching and take no value.
const RG_FLAGS = new Set(
  (
    "-i -s -S -w -x -v -n -N -l -c -H -I -F -P -U -o -q -z -a -b -h -V -0 -p --json --vimgrep --no-heading --heading " +
    "--no-filename --with-filename --line-number --no-line-number --count --count-matches --files-with-matches " +
    "--files-without-match --fixed-strings --ignore-case --smart-case --case-sensitive --word-regexp --line-regexp " +
    "--invert-match --only-matching --quiet --null --text --byte-offset --trim --stats --multiline --pcre2 --crlf " +
    "--no-messages --column --no-column --passthru --pretty --no-config --no-unicode --binary --search-zip -z " +
    "--no-follow --no-hidden --ignore --ignore-vcs --ignore-parent --ignore-dot --no-text --multiline-dotall " +
    "--no-multiline --no-pcre2 --help --version --sort-files --no-ignore-messages --include-zero --line-buffered " +
    "--block-buffered --no-block-buffered --max-columns-preview --hyperlink-format"
  ).split(" "),
);
// ripgrep's options that take a value and do not widen the walk (filters narrow it; files it reads are
// judged by the grammar as files).
const RG_VALUED = new Set(
  (
    "-e --regexp -f --file -A --after-context -B --before-context -C --context -m --max-count -M --max-columns " +
    "-d --max-depth --maxdepth -j --threads --color --colors --sort --sortr --max-filesize -T --type-not " +
    "-E --encoding --engine --context-separator --field-match-separator " +
    "--field-context-separator --path-separator -r --replace --dfa-size-limit --regex-size-limit " +
    "--hostname-bin"
  ).split(" "),
);

// ripgrep's options that print a binary file's lines, or search what a compressed file unpacks to.
const SHOWS_BINARY = new Set(["-a", "--text", "--binary", "-z", "--search-zip"]);

type MutableStyle = { -readonly [K in keyof WalkStyle]: WalkStyle[K] };

/** Applies one rg option (`name` with its value, when it takes one); false when it is not known. */
function rgOption(
  style: MutableStyle,
  only: string[],
  types: TypeSelection,
  name: string,
  value: () => string,
): boolean {
  // Binary files printed as text, or unpacked first (-uuu: the third -u is --binary).
  if (SHOWS_BINARY.has(name) || (name === "-u" && !style.ignoreFiles && style.hidden))
    delete style.binarySilent;
  if (name === "--hidden" || name === "-.") {
    style.hidden = true;
    style.skipVcs = false;
  } else if (name === "-L" || name === "--follow") style.follow = true;
  else if (name === "-u" || name.startsWith("--no-ignore") || name === "--no-require-git") {
    if (name === "-u" && !style.ignoreFiles) {
      // -uu: hidden files too.
      style.hidden = true;
      style.skipVcs = false;
    }
    style.ignoreFiles = false;
  } else if (name === "-g" || name === "--glob" || name === "--iglob") {
    // A glob overrides every ignore rule: files it whitelists are read even when hidden or ignored. A `!glob`
    // only excludes: a path no glob whitelists falls through to the hidden and ignore rules, so `rg X -g
    // '!dist'` still skips .git/ and ignored files (real rg 13 and 14; round 18 over-ask).
    const g = value();
    if (!g.startsWith("!")) {
      style.ignoreFiles = false;
      style.hidden = true;
      style.skipVcs = false;
      only.push(g);
    }
  } else if (name === "-t" || name === "--type") types.types.push(value());
  else if (name === "--type-add" || name === "--type-clear") {
    // It may (re)define a selected type, before or after the `-t` naming it.
    value();
    types.redefined = true;
  } else if (name === "--ignore-file") {
    // Its `!pattern` lines whitelist what they name, hidden files and .git included (red team, round 8);
    // its other lines only narrow the walk, which the decision need not follow.
    value();
    style.hidden = true;
    style.skipVcs = false;
  } else if (name === "--files" || name === "--type-list") style.content = false;
  else if (RG_VALUED.has(name)) value();
  else if (!RG_FLAGS.has(name)) return false;
  return true;
}

/** The walk `rg ARGS` does (operands aside), the options of $RIPGREP_CONFIG_PATH's file left to the disk. */
export function rgStyle(argv: readonly string[]): WalkStyle {
  const style = rgWords(argv);
  return argv.includes("--no-config") || style === WIDEST
    ? style
    : { ...style, config: "RIPGREP_CONFIG_PATH" };
}

/** The walk rg's words alone make. */
export function rgWords(argv: readonly string[]): WalkStyle {
  const style: MutableStyle = {
    content: true,
    hidden: false,
    ignoreFiles: true,
    follow: false,
    skipVcs: true,
    only: [],
    binarySilent: true,
  };
  const only: string[] = [];
  const types: TypeSelection = { types: [], redefined: false };
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as string;
    if (w === "--") break;
    if (!w.startsWith("-") || w === "-") continue;
    if (w.startsWith("--")) {
      const eq = w.indexOf("=");
      const name = eq === -1 ? w : w.slice(0, eq);
      const value = () => (eq !== -1 ? w.slice(eq + 1) : (argv[++i] ?? ""));
      if (!rgOption(style, only, types, name, value)) return WIDEST;
      continue;
    }
    // A cluster of short options; a valued one takes the rest of the word, or the next word.
    for (let j = 1; j < w.length; j++) {
      const name = `-${w[j]}`;
      let took = false;
      const value = () => {
        took = true;
        return j + 1 < w.length ? w.slice(j + 1) : (argv[++i] ?? "");
      };
      if (!rgOption(style, only, types, name, value)) return WIDEST;
      if (took) break;
    }
  }
  return withTypes(style, only, types);
}

/**
 * The walk with the selected types applied: a type match skips the hidden filter (not the ignore files, and
 * not a hidden directory, which no type matches), and the files it reaches are the types' and the globs'.
 */
function withTypes(style: MutableStyle, only: string[], types: TypeSelection): WalkStyle {
  if (types.types.length === 0) return { ...style, only };
  const globs = selectedTypeGlobs(types);
  return { ...style, hidden: true, only: globs === null ? [] : [...only, ...globs] };
}

/**
 * The walk `grep -r ARGS` (or egrep/fgrep) does: every file, links below the roots followed only with -R.
 * Its options as grep's grammar places them (`-e --exclude=x` is a pattern, not an exclusion): `--include`
 * narrows to the files it names; `--exclude=GLOB` skips files and `--exclude-dir=GLOB` directories whose
 * base name matches, unless an `--include` is given too (the last matching option wins there).
 */
export function grepStyle(argv: readonly string[]): WalkStyle {
  const follow = argv.some(
    (w) => w === "--dereference-recursive" || (/^-[A-Za-z0-9]+$/.test(w) && w.includes("R")),
  );
  const wide: WalkStyle = {
    content: true,
    hidden: true,
    ignoreFiles: false,
    follow,
    skipVcs: false,
    only: [],
  };
  const g = grammarFor("grep");
  if (g === undefined) return wide;
  const { parsed } = parseWords(
    g,
    argv.map((value) => ({ value, raw: value, glob: false, tilde: false })),
  );
  const style = grepShowsBinary(parsed.options) ? wide : { ...wide, binarySilent: true as const };
  const named = (name: string) =>
    parsed.options
      .filter((o) => o.name === name && o.value?.value != null)
      .map((o) => o.value?.value as string);
  const only = named("--include");
  if (only.length > 0) return { ...style, only };
  const exclude = named("--exclude");
  const excludeDirs = named("--exclude-dir");
  return {
    ...style,
    ...(exclude.length > 0 ? { exclude } : {}),
    ...(excludeDirs.length > 0 ? { excludeDirs } : {}),
  };
}

/**
 * Whether grep prints a binary file's lines: -a (--text, --binary-files=text), or -z, which makes NUL the
 * line end, so a NUL no longer marks the file binary.
 */
function grepShowsBinary(options: readonly GivenOption[]): boolean {
  return options.some((o) => {
    const names = o.spec.names;
    if (names.includes("--binary-files"))
      return o.value?.value !== "binary" && o.value?.value !== "without-match";
    return names.includes("--text") || names.includes("--null-data");
  });
}

/**
 * The go command loading packages (`go list ./...`, `go doc`, `go fmt`): every `.go` file below, dot and
 * underscore names skipped. It skips symlinked directories in a `...` walk but opens a symlinked .go file
 * (go/parser then quotes the first token it rejects), so links are followed: walking more is never unsafe.
 */
export const GO_WALK: WalkStyle = {
  content: true,
  hidden: false,
  ignoreFiles: false,
  follow: true,
  skipVcs: true,
  only: ["*.go"],
};

/** gofmt's walk: every `.go` file below but dot files; dot directories and .git are entered, links opened. */
const GOFMT_WALK: WalkStyle = { ...GO_WALK, hidden: true, skipVcs: false };

/**
 * Linters that read files by name (fix21c): ruff's default `include` (`*.py`, `*.pyi`, `*.ipynb`, newer
 * `*.pyw`, `pyproject.toml`) and yamllint's default `yaml-files` (`*.yaml`, `*.yml`, `.yamllint`), whose
 * globs match a leading dot too. A configuration that sets either is the linter-config fact's, which then
 * asks (policy/linter-configs.ts `selects`).
 */
const LINTER_WALKS: Readonly<Record<string, WalkStyle>> = {
  ruff: { ...WIDEST, only: ["*.py", "*.pyi", "*.pyw", "*.ipynb", "pyproject.toml"], onlyAnyDot: true },
  yamllint: { ...WIDEST, only: ["*.yaml", "*.yml", ".yamllint"], onlyAnyDot: true },
};

/** The walk of a program that reads a tree recursively. */
export function walkStyleOf(program: string, argv: readonly string[]): WalkStyle {
  if (program === "rg") return rgStyle(argv);
  if (program === "go") return GO_WALK;
  if (program === "gofmt") return GOFMT_WALK;
  const linter = LINTER_WALKS[program];
  if (linter !== undefined) return linter;
  if (program === "grep" || program === "egrep" || program === "fgrep") return grepStyle(argv);
  return WIDEST;
}

/**
 * The walk of a file tool's search (Claude Code's Grep, Pi's grep, Airlock's MCP grep): ripgrep with
 * hidden files, VCS directories skipped, ignore files honoured — unless a glob whitelists files, which
 * overrides ignore rules for the files it names.
 */
export function searchToolStyle(glob: string | undefined): WalkStyle {
  if (glob === undefined || glob === "")
    return {
      content: true,
      hidden: true,
      ignoreFiles: true,
      follow: false,
      skipVcs: true,
      only: [],
      binarySilent: true,
    };
  // Only one plain glob narrows the walk: rg reads `!x` as an exclusion and searches everything else,
  // and a list the tool may split (at spaces, at commas outside braces) can hold one (red team, round 5).
  // Such a filter walks what the tool might read with no narrowing at all: every file, ignored ones too.
  return {
    content: true,
    hidden: true,
    ignoreFiles: false,
    follow: false,
    skipVcs: !mayReachVcs(glob),
    only: narrowingGlob(glob) ? [glob] : [],
    binarySilent: true,
  };
}

/** One positive glob: no leading `!`, no whitespace, no comma outside a `{…}` alternation. */
function narrowingGlob(glob: string): boolean {
  if (glob.startsWith("!") || /\s/.test(glob)) return false;
  let depth = 0;
  for (const c of glob) {
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) return false;
  }
  return true;
}

/**
 * A glob that whitelists files may whitelist the repository's own (`rg -g '.git/*'` searches
 * .git/config): whether the tool still skips `.git` then is not known, so a glob that can match a
 * file there (`.git/**`, `config`, `*`) walks `.git` as well. `*.ts` cannot, and keeps skipping it.
 */
function mayReachVcs(glob: string): boolean {
  if (/\.(git|hg|svn)\b/.test(glob)) return true;
  return ["config", "config.worktree", ".git/config", ".git/modules/m/config"].some((p) =>
    globsIntersect(glob, p),
  );
}
