// An unquoted expansion is split at blanks and each piece is expanded again as a glob (bash(1), Pathname
// Expansion comes after Word Splitting): `x="$HOME/.ssh/*"; echo $x`, `echo $(echo ~/.ssh/\*)`,
// `x=~/.ssh; echo $x/*` print the names of a secret directory that `ls ~/.ssh` asks for (red team, round
// 17). A run-time word is a glob over the filesystem whose pattern the judge cannot see, so it asks, unless
// every expansion in it gives a value with no glob character: a number, a harmless variable of the
// environment the script does not set, or the output of a command that prints none (or names the judge
// reads itself: `$(find …)`, `$(git ls-files)`). A loop variable bound to its words is the words
// themselves (loop-vars.ts); one left unknown is judged here.
import { isHarmlessVariable } from "./secret-output.ts";
import type { Concern } from "./units.ts";
import type { StmtEvent, Word, WordPart } from "./walk.ts";
import { wordValue } from "./words.ts";
import type { Arg } from "./wrappers.ts";

/**
 * Commands whose output has no glob character, or whose printed names the judge reads as their own
 * (find's walk, git's index): the working directory, a clock, a count, numbers, git's names for commits and
 * branches (git-check-ref-format(1): a ref has no `*`, `?` or `[`).
 */
const GLOB_FREE_OUTPUT: readonly RegExp[] = [
  /^(pwd|date|nproc|whoami|hostname|uname|id)( |$)/,
  /^seq( -?[\d.]+){1,3}$/,
  /^git (branch --show-current|rev-parse( (--short(=\d+)?|--verify|-q|--quiet|--abbrev-ref|[\w.^~@/-]+))*$)/,
];
const NAMES_READ: readonly RegExp[] = [/^find( |$)/, /^git ls-files( |$)/, /^git diff --name-only$/];

/** Variables bash sets from the script's own words (`: "$HOME/.ssh/*"; echo $_`, `[[ … =~ ]]`, `read`). */
const SET_BY_THE_SCRIPT: ReadonlySet<string> = new Set([
  ...["_", "REPLY", "OPTARG", "BASH_REMATCH", "DIRSTACK", "OLDPWD", "PWD", "IFS", "BASH_ARGV", "BASH_ARGC"],
]);

/** The words of a substitution's one command, when each is a static word. */
function substText(stmt: StmtEvent): string | null {
  if (stmt.cmd?.type !== "call" || stmt.cmd.assigns.length > 0 || stmt.redirs.length > 0) return null;
  const words: string[] = [];
  for (const w of stmt.cmd.args) {
    const v = wordValue(w);
    if (v.value === null || v.glob) return null;
    words.push(v.value);
  }
  return words.join(" ");
}

function printsNoGlob(text: string): boolean {
  return GLOB_FREE_OUTPUT.some((re) => re.test(text));
}

/**
 * The word `$(CMD)` whose CMD prints no glob character, as the word an unquoted `$NAME` gives
 * after `NAME=$(CMD)` (bash neither splits nor globs an assignment's value): a run-time word that is split
 * but never a glob, as `$(CMD)` itself. Not for names the judge reads itself (find's), which it finds only
 * in a command's own words. Null for any other word.
 */
export function globFreeOutput(word: Word, raw: string): { quoted: Arg; unquoted: Arg } | null {
  const part = word.parts.length === 1 ? word.parts[0] : undefined;
  if (part?.type !== "subst") return null;
  const text = substText(part.stmt);
  if (text === null || !printsNoGlob(text)) return null;
  const quoted: Arg = { value: null, raw, glob: false, tilde: false };
  return { quoted, unquoted: { ...quoted, rescan: { parts: [part], glob: false } } };
}

/** Whether a run-time part's value can hold no glob character bash would expand. */
function globFree(part: WordPart, assigned: ReadonlySet<string>): boolean {
  switch (part.type) {
    case "param":
      // A variable the script did not set and no list calls harmless already asks (secret-output.ts).
      return !assigned.has(part.name) && !(isHarmlessVariable(part.name) && SET_BY_THE_SCRIPT.has(part.name));
    case "dynamic":
      return part.digits === true;
    case "subst": {
      const text = substText(part.stmt);
      return text !== null && (printsNoGlob(text) || NAMES_READ.some((re) => re.test(text)));
    }
    default:
      return false;
  }
}

/** Why a command's words may list a directory the judge cannot see, as concerns. */
export function unquotedGlobConcerns(argv: readonly Arg[], assigned: ReadonlySet<string>): Concern[] {
  for (const a of argv) {
    const rescan = a.rescan;
    if (rescan === undefined || a.found !== undefined) continue;
    const free = rescan.parts.every((p) => globFree(p, assigned));
    if (free && !rescan.glob) continue;
    return [
      {
        mention: null,
        reason: rescan.glob
          ? `\`${a.raw}\` is a glob whose directory is only known at run time, so it may list the names of a secret one`
          : `\`${a.raw}\` is expanded unquoted: bash splits its value and expands any \`*\`, \`?\` or \`[\` in it as a glob, which may list the names of a secret directory`,
      },
    ];
  }
  return [];
}
