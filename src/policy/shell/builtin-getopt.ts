// How bash's builtins read their own options: internal_getopt (bash 5.2/5.3, builtins/bashgetopt.c).
// A word that starts with `-` (or `+`, for the builtins that take `+x`) and is more than that one
// character is a cluster of option letters; a letter that takes a value takes the rest of its word
// (`printf -vNAME`, `read -raNAME`) or, when nothing is left, the whole next word whatever it looks like
// (`read -a -r` names `-r`). `--` ends the options; the first word that is not an option ends them too.
// A letter the builtin does not know, or a value missing at the end, makes bash refuse the whole call
// (it prints its usage and runs nothing). Each builtin's letters are its `internal_getopt` string in
// bash's source, read from 5.3 (5.2's minus nothing, plus read's `-E`): the union, so a spelling that
// any of them accepts is read as that one reads it.
import type { Arg } from "./wrappers.ts";

export interface BuiltinOption {
  letter: string;
  /** The option's value, for a letter that takes one (the rest of its word, or the next word). */
  value?: Arg;
}

export interface BuiltinArgs {
  options: BuiltinOption[];
  /** The words after the options, in order. */
  operands: Arg[];
  /**
   * Why the engine cannot say what the words are, or null: a word only known at run time where an
   * option could be (`read "$o" x`), a letter bash rejects, a value missing at the end.
   */
  unread: string | null;
  /** `--help`: bash prints the builtin's help and does nothing else. */
  help: boolean;
}

/**
 * The options and operands of a builtin call as bash reads them. `optstring` is the builtin's
 * internal_getopt string: letters, `:` after a letter that takes a value, a leading `+` when `+x`
 * spellings are options too. Null means the builtin takes no options (`no_options`: only `--`).
 */
export function builtinArgs(optstring: string | null, argv: readonly Arg[]): BuiltinArgs {
  const plus = optstring?.startsWith("+") === true;
  const letters = plus ? (optstring as string).slice(1) : (optstring ?? "");
  const out: BuiltinArgs = { options: [], operands: [], unread: null, help: false };
  let i = 1;
  for (; i < argv.length; i++) {
    const word = argv[i] as Arg;
    const v = word.value;
    if (v === null || word.glob) {
      // A word that starts with a plain character, or a declaration's `NAME=$(…)`, is an operand.
      if (word.declares !== undefined || /^[\w/.,:=@%]/.test(word.raw)) break;
      // An expansion or a glob may turn out to be `-x`: what it and every later word is, is not known.
      out.unread = `${word.raw} is only known at run time, where an option could be`;
      out.operands = argv.slice(i);
      return out;
    }
    if (v.length < 2 || !(v[0] === "-" || (plus && v[0] === "+"))) break;
    if (v === "--help") {
      out.help = true;
      return out;
    }
    if (v === "--") {
      i++;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      const letter = v[k] as string;
      const at = letter === ":" ? -1 : letters.indexOf(letter);
      if (at < 0) {
        out.unread = `bash's ${argv[0]?.value ?? "builtin"} has no option -${letter}`;
        return out;
      }
      if (letters[at + 1] !== ":") {
        out.options.push({ letter });
        continue;
      }
      let value: Arg | undefined;
      if (k + 1 < v.length) value = { ...word, value: v.slice(k + 1) };
      else value = argv[++i];
      if (value === undefined) {
        out.unread = `-${letter} of ${argv[0]?.value ?? "the builtin"} needs a value`;
        return out;
      }
      out.options.push({ letter, value });
      break;
    }
  }
  out.operands = argv.slice(i);
  return out;
}
