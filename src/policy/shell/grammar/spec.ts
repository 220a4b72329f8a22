// What a program grammar is (data: the options as the program parses them and what each operand
// or option value is), and what a command placed by its grammar reports: the typed effects on
// paths that the companion's filesystem resolver consumes. A command is "understood" only when
// every word falls in its program's grammar; anything else is never allowed without a person.
import type { Arg } from "../wrappers.ts";

/**
 * What a word is to the program.
 * - `read`: a file whose contents it reads; `write`: a file it creates or changes;
 * - `exec`: a file it runs (a script); `list`: a path whose names or metadata it shows (ls, stat);
 * - `walk`: a directory it walks (every entry below it; see `PathEffect.contents`);
 * - `pattern`, `string`, `number`: not a path.
 */
export type WordKind = "read" | "write" | "exec" | "list" | "walk" | "pattern" | "string" | "number";

export interface OptionSpec {
  /** The spellings: `-n`, `--lines` (a single-dash long name such as find's `-name` is not used here). */
  names: readonly string[];
  /**
   * Whether it takes a value: required (glued, `=`, or the next word), optional (glued or `=` only), or
   * lastDefault: required unless it is the last word, where it takes none (git's PARSE_OPT_LASTARG_DEFAULT:
   * `git branch --merged` alone, `git branch --merged main`, and `--merged -v` takes `-v` as its commit).
   */
  value?: "required" | "optional" | "lastDefault";
  /** What the value is (default `string`). */
  kind?: WordKind;
  /** It takes a second value, the word after the first, of this kind (jq `--arg NAME VALUE`). */
  second?: WordKind;
  /** It takes every following word up to one of these (consumed) or the end: a command it runs (fd -x). */
  command?: readonly string[];
  /** The only values the program accepts; any other value is not understood. */
  choices?: readonly string[];
  /** A name for what the option does, read by the program's `finish` step (`recursive`, `follow`). */
  mode?: string;
}

export interface ProgramGrammar {
  /** The program's name as `program` shows it, and other names for the same grammar. */
  names: readonly string[];
  options: readonly OptionSpec[];
  /** A `-NUM` word is this option with NUM as its value (head -50, grep -3). */
  numeric?: OptionSpec;
  /** Options are whole words after one dash or two (Go's flag package, xxd): `-race`, `--race`, `-run=x`; no clusters. */
  singleDash?: boolean;
  /**
   * With singleDash: a two-letter option's number may be glued to it (`xxd -c8`, `-s+16`, `-l0x40`), as a
   * program reading its words by prefix takes it. Only a number: a glued name or path is never taken.
   */
  gluedNumbers?: boolean;
  /** No word is an option that matters, so a word only known at run time is a string (echo, printf). */
  dynamicWords?: boolean;
  /** `--no-NAME` negates any long option NAME it knows (git's parse-options). */
  negatable?: boolean;
  /** GNU getopt permutes: options may follow operands. False: the first operand ends the options. */
  permute: boolean;
  /** getopt_long: a long option may be abbreviated to any unique prefix (`--recurs`). */
  abbreviate: boolean;
  /**
   * What the operands are, by position; the last entry repeats. A program whose operands depend
   * on its options (grep -e, grep -r) says so in `finish`.
   */
  operands: readonly WordKind[];
  /** What the command does, for risk: only reads, writes files, or runs code. */
  effect: "read" | "write" | "destroy" | "run";
  /**
   * The program's own semantics after parsing: turn operands into effects given the options,
   * add defaults (`rg` walks `.`), or refuse a form (return a reason and the word).
   */
  finish?: (p: Parsed, out: Effects) => NotUnderstood | null;
  /**
   * Whether, given its words, the command does nothing but what its path effects say (no program run, no file
   * read or written that they leave out, nothing sent): touch, mkdir, tee. A command of such a program is judged
   * by those reads and writes alone when no rule names it (judge-bash.ts), as the same edit by a file tool is.
   */
  placedOnly?: (p: Parsed, out: Effects) => boolean;
  /** A program whose words are not options and operands (find's expression) places them itself. */
  custom?: (argv: readonly Arg[]) => Understanding;
}

/** One option as given. */
export interface GivenOption {
  spec: OptionSpec;
  /** The spelling it matched (`--recursive` for `--recurs`). */
  name: string;
  value: Arg | null;
  /** The command an option runs (`fd -x cmd args ;`). */
  command?: Arg[];
  /** The second value, for options that take two words. */
  second?: Arg;
  word: Arg;
}

export interface Parsed {
  program: string;
  /** Every word as given (argv[0] is the program), to compare positions. */
  argv: readonly Arg[];
  options: GivenOption[];
  operands: Arg[];
  /** How many operands came before a `--` (all of them when there was none). */
  beforeDashes: number;
  /** An option with this mode, or this spelling, was given. */
  has(modeOrName: string): boolean;
  /** Values of options with this mode or spelling, in order. */
  values(modeOrName: string): Arg[];
}

/**
 * The effect of a command on one path, as the program performs it. This is the interface the
 * companion's resolver reads: it resolves `arg` against the real filesystem (the directory the
 * unit runs in, symlinks, hard links, globs) and walks what a `walk` walks.
 */
export interface PathEffect {
  access: "read" | "write" | "exec" | "list" | "walk";
  /** The word naming the path (`value` null when only known at run time; `glob` when bash expands it). */
  arg: Arg;
  /** For a walk: every file's contents are read (grep -r, diff -r), not only names (find, du). */
  contents: boolean;
  /**
   * Which symlinks the program follows: `none`, `args` (those named on the command line only,
   * like grep -r and find -H), `all` (every one met on the walk, like grep -R and find -L).
   * Opening a file (`read`, `write`, `exec`) follows the final symlink: `args`.
   */
  follow: "none" | "args" | "all";
  /** The walk skips what .gitignore/.ignore files exclude (rg, fd). */
  ignores: boolean;
  /** For a walk: how deep it goes (1: a directory's own entries, as `diff dirA dirB` reads them); absent: all the way. */
  depth?: number;
  /** For a list or walk: it prints the path's own name only, never the names below it (`ls -d`, `du -s`). */
  itself?: true;
  /** For a write: everything below the path too (find -delete). */
  below?: true;
  /**
   * For a write: the source a copy or move puts here whole (`cp -r SRC DEST`), whose names, listed on the
   * disk, land below the path: `tmpl/.vscode/tasks.json` lands as `DEST/.vscode/tasks.json`.
   */
  copies?: Arg;
  /** For a write: the archive whose member names land below the path (`tar -xf A -C DIR`; null value: not known). */
  extracts?: Arg;
  /** For a read: a checksum list (`sha256sum -c`), every file of whose lines is read too (guards/checksum-lists.ts). */
  checksums?: true;
  /** For a walk: directories by these names it never enters (node --test skips node_modules). */
  prune?: readonly string[];
  /**
   * git's own repository files (objects, refs, config, the index; `.git` as written, but where it
   * is, is git's repository discovery from the directory the unit runs in): the resolver's to find.
   */
  repository?: true;
  /** A git pathspec: matched against the index and history, not (only) the disk. */
  pathspec?: true;
}

export interface Effects {
  paths: PathEffect[];
  /**
   * It runs code the project defines (npm scripts, a Makefile, tests): the files that define what
   * runs, relative to the directory it runs in. Empty when it runs nothing of the project's.
   */
  definedBy: string[];
  /** What else it does, for risk (raised by options that write). */
  effect: "read" | "write" | "destroy" | "run";
  /** Commands it runs itself, each as argv (`find -exec`); judged as their own units. */
  inner: Arg[][];
  /** Its commands run in a directory not known here (`find -execdir`: each match's own). */
  innerElsewhere?: true;
  /** It moves to another directory before anything else (`git -C`, `make -C`). */
  chdir: Arg[];
  /** Its grammar's `placedOnly` holds for these words: the path effects are all it does. */
  placedOnly?: true;
}

export interface NotUnderstood {
  /** The word the grammar could not place, as written. */
  word: string;
  reason: string;
  /**
   * The only doubt is a glob at the start of a word (`*`, `*.md`), which bash may expand to a file named
   * like an option: every word is placed as if none is. The companion settles it by expanding the glob
   * (disk-targets.ts); without that look the command stays not understood.
   */
  optionGlob?: true;
}

export type Understanding =
  | { understood: true; effects: Effects }
  | { understood: false; why: NotUnderstood; effects: Effects };

/** Shorthands for writing grammars as data. */
/** An option that runs the command in the words after it (up to `until`). */
export const runs = (names: string, until: readonly string[]): OptionSpec => ({
  names: names.split(" "),
  command: until,
});
export const flag = (names: string, mode?: string): OptionSpec => ({
  names: names.split(" "),
  ...(mode !== undefined ? { mode } : {}),
});
export const opt = (
  names: string,
  kind: WordKind = "string",
  more: Partial<Pick<OptionSpec, "choices" | "mode" | "value" | "second">> = {},
): OptionSpec => ({ names: names.split(" "), value: "required", kind, ...more });
/** git's `--merged [COMMIT]` and kin: the next word is the value unless the option is the last word. */
export const lastDefault = (names: string, kind: WordKind = "string"): OptionSpec => ({
  names: names.split(" "),
  value: "lastDefault",
  kind,
});
export const optional = (
  names: string,
  kind: WordKind = "string",
  choices?: readonly string[],
): OptionSpec => ({
  names: names.split(" "),
  value: "optional",
  kind,
  ...(choices !== undefined ? { choices } : {}),
});

/** `--help` and `--version`: every GNU program has them; they print and exit. */
export const GNU_COMMON: readonly OptionSpec[] = [flag("--help"), flag("--version")];

export const COLOR_WHEN = ["always", "never", "auto", "yes", "no", "force", "none", "tty", "if-tty"];
