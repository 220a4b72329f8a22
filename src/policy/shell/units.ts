// What the shell analysis hands the rest of the engine: every simple command bash would run and
// every file it would read or write, with what a rule needs to judge each (words, prefixes,
// working directory, concerns).
import type { WalkStyle } from "../call-facts.ts";

/** One word of a command after quote removal and brace expansion. */
export interface ShellWord {
  /** The value bash passes, or null when it is only known at run time (a variable, a substitution). */
  value: string | null;
  /** As written in the command. */
  raw: string;
  /** An unquoted glob: bash replaces it with the names of matching files. */
  glob: boolean;
  /** Starts with a `~` bash expands (`~`, `~/x`, `~user`, `~+`, `~-`; `$HOME` counts too). */
  tilde: boolean;
}

/** An assignment before a command (`LD_PRELOAD=x ls`) or given to it by `env`/`sudo`. */
export interface ShellPrefix {
  name: string;
  /** The assigned value, or null when not static. */
  value: string | null;
  raw: string;
}

/**
 * Why a unit needs a person even when a rule allows it. `mention` is the word the allowing rule's
 * condition must contain to allow it anyway (a prefix's name, an option, `interactive`,
 * `sensitive`, `recursive`); null when no rule can.
 */
export interface Concern {
  mention: string | null;
  reason: string;
}

/** What a command does, for risk: only reads, writes the workspace, destroys, or anything. */
export type Effect = "read" | "write" | "destroy" | "run";

/**
 * The directory bash is in when it runs a command: "." for the call's working directory, a path
 * relative to it, an absolute path, or a `~` path; null when it is not known.
 */
export type ShellCwd = string | null;

/**
 * A word the program's grammar could not place (src/policy/shell/grammar): the unit is never
 * allowed without a person, and `explain` names the word and the reason.
 */
export interface NotUnderstoodWord {
  word: string;
  reason: string;
  /** Settled by the disk: understood when no match of the leading glob `word` is named like an option. */
  optionGlob?: true;
}

export interface ExecUnit {
  kind: "exec";
  argv: string[];
  text: string;
  /** Why this command can never be allowed (a dynamic name or word, code bash evaluates again). */
  dynamic: string | null;
  words: ShellWord[];
  prefixes: ShellPrefix[];
  cwd: ShellCwd;
  /**
   * Every directory it may run in, when there are several (`cwd` is then null): after `cd D; ls` the cd may
   * have failed. Absent with a null `cwd`, the directory is not known here (`cd "$(…)"`, `cd -`, a loop).
   */
  dirs?: readonly string[];
  /**
   * The program's name: the base name for a command on PATH or in a system directory (`rm` for
   * `/bin/rm`), any other path as written (`./ls`); "" for a statement that is not a command.
   */
  program: string;
  effect: Effect;
  concerns: Concern[];
  /**
   * The text of the wrapper command this one runs inside (`npx tsc --noEmit` for its `tsc
   * --noEmit`): a rule that allows the wrapper and names this program allows this unit too.
   */
  via?: string;
  /** Set when the unit is not understood: some word its program's grammar cannot place. */
  notUnderstood?: NotUnderstoodWord;
  /**
   * What its grammar says it does to paths (read, written, executed, listed, walked; recursive or
   * not, following links or not) and which files define the code it runs: the interface the
   * companion's filesystem resolver consumes (grammar/spec.ts `Effects`).
   */
  effects?: import("./grammar/spec.ts").Effects;
  /** The file its standard input reads (`< FILE`, `cat FILE |`), for a program that reads what it holds. */
  stdinFile?: ShellWord;
}

export interface PathUnit {
  kind: "read" | "write";
  /** The path as bash passes it (`~` kept, see `tilde`), or null when not static. */
  path: string | null;
  text: string;
  cwd: ShellCwd;
  tilde: boolean;
  /** A glob pattern: the unit covers every path it could match. */
  glob: boolean;
  /** The glob is a git pathspec git matches itself (Arg.pathspec): the disk does not expand it. */
  pathspec?: true;
  /** Every file below the path (grep -r, cp -r, tar). */
  recursive: boolean;
  /**
   * When the path is a directory, every file directly in it is read too (`diff DIR1 DIR2` compares the
   * files of the same names, and with -N prints those on one side only; `file -m DIR` loads each as magic):
   * the companion looks at what the directory holds.
   */
  entries?: true;
  /**
   * The file must be there to open (`exec 3<FILE`, whose fd later reads stand for FILE): a redirection that
   * fails leaves the descriptor as the shell inherited it (exec-fds.ts).
   */
  opens?: true;
  /**
   * Only the files git's index names below the path are read (`git ls-files | xargs CMD`), as xargs passes
   * them; `split`: as bash splits and globs them (`CMD $(git ls-files)`); `top`: named from the work tree's
   * top, as `git diff --name-only` prints them.
   */
  tracked?: { nul: boolean; split?: true; top?: true };
  /**
   * A file named in the arguments of the command unit before it (`x` in `rm -f x`), not a
   * redirection: a grant pattern for that command may cover it.
   */
  operand?: true;
  /** For a recursive read: how the tree is walked, when the command says (found-paths.ts); else its program's way. */
  walk?: WalkStyle;
}

export interface UnparsableUnit {
  kind: "unparsable";
  text: string;
  reason: string;
}

export type ShellUnit = ExecUnit | PathUnit | UnparsableUnit;

export interface ShellAnalysis {
  units: readonly ShellUnit[];
}
