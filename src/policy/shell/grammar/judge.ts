// A program's grammar applied to one command: whether it is understood (every word placed), its
// typed path effects, and the reads and writes the rules judge as file units. Also the names the
// shell analysis itself places (builtins, wrappers, shells), which need no grammar file.
import { basename } from "../../paths.ts";
import { CWD_UNKNOWN_AFTER, ESCAPING_BUILTINS, NAME_BUILTINS } from "../builtins.ts";
import { lookup } from "../lookup.ts";
import type { Arg } from "../wrappers.ts";
import { grammarFor } from "./index.ts";
import { understand } from "./parse.ts";
import type { Effects, NotUnderstood, PathEffect } from "./spec.ts";

export interface GrammarJudgement {
  understood: NotUnderstood | null;
  effects: Effects;
  /**
   * Files whose contents it reads (or, `recursive`, every file below; `entries`, when the path is a
   * directory, every file directly in it).
   */
  reads: { arg: Arg; recursive: boolean; entries?: true }[];
  /** Files it creates or changes (`recursive`: everything below). */
  writes: { arg: Arg; recursive: boolean }[];
}

/** Path effects that rules judge as file units: contents read, files written. */
function toUnits(paths: readonly PathEffect[]): Pick<GrammarJudgement, "reads" | "writes"> {
  const reads: GrammarJudgement["reads"] = [];
  const writes: GrammarJudgement["writes"] = [];
  for (const e of paths) {
    if (e.repository === true) continue;
    if (e.access === "read") reads.push({ arg: e.arg, recursive: false });
    else if (e.access === "write") writes.push({ arg: e.arg, recursive: e.below === true });
    // A walk of git's tree (a pathspec) is the resolver's to expand against the index; on the disk
    // a walk that reads contents reads every file below, secrets included.
    // A one-level walk (`diff a b` of two names that may be directories, `file -m DIR`) is a read of the
    // name, and of every file directly in it when the disk has a directory there (red team, round 8).
    else if (e.access === "walk" && e.contents && e.pathspec !== true)
      reads.push(
        e.depth === undefined
          ? { arg: e.arg, recursive: true }
          : { arg: e.arg, recursive: false, entries: true },
      );
  }
  return { reads, writes };
}

/** The judgement of `argv` by its program's grammar, or null when the program has none. */
export function judgeByGrammar(argv: readonly Arg[]): GrammarJudgement | null {
  const name = basename(argv[0]?.value ?? "");
  const g = grammarFor(name);
  if (g === undefined) return null;
  const u = understand(g, argv);
  return { understood: u.understood ? null : u.why, effects: u.effects, ...toUnits(u.effects.paths) };
}

/** bash builtins whose words the shell analysis places itself (builtins.ts, cwd.ts). */
const SHELL_BUILTINS: ReadonlySet<string> = new Set([
  ...["cd", "pushd", "popd", "dirs", "true", "false", ":", "test", "[", "[[", "((", "let", "pwd", "type"],
  ...["shift", "return", "exit", "break", "continue", "set", "shopt", "hash", "alias", "unalias", "trap"],
  ...["umask", "times", "caller", "jobs", "wait", "source", ".", "eval", "builtin", "command", "exec"],
  ...["getopts", "unset", "read", "mapfile", "readarray", "bind", "complete", "compgen", "compopt"],
  ...["fc", "enable", "help", "history", "disown", "logout", "ulimit", "suspend"],
  ...Object.keys(NAME_BUILTINS),
  ...Object.keys(ESCAPING_BUILTINS),
  ...CWD_UNKNOWN_AFTER,
]);

export function placedByShell(name: string): boolean {
  return SHELL_BUILTINS.has(name) || lookup(ESCAPING_BUILTINS, name) !== undefined;
}
