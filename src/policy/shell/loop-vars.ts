// A `for NAME in WORDS; do BODY; done` loop whose words are known: in BODY, `"$NAME"` is each word in
// turn, so the body's commands are judged once per word with that word in its place — a glob word as
// the glob itself (each of its matches in that position, as bash passes it), a literal word as itself.
// The binding holds only while nothing else can set NAME: the script names NAME nowhere but in its
// header (no assignment, `read`, `printf -v`, `declare -n` to it, arithmetic, a second loop) and sources
// no file, and NAME is none of bash's own variables (bash-own-vars.ts), which bash sets behind the
// script's back. Beyond the text, every statement's variable names are read as bash reads the builtin's
// options (`printf -vNAME`, `read -raNAME`, `wait -npNAME` name NAME with no blank before it): the
// binding holds only if no statement sets NAME and every statement's names are placed, so a name only
// known at run time, a code string (`eval`, `trap`, `mapfile -C`), a nameref or a program name that is an
// expansion unbinds every loop of the script. An unquoted `$NAME` is split and globbed again by bash, so
// it is bound only to plain words.
import { isBashOwnVariable } from "./bash-own-vars.ts";
import { NAME_BUILTINS, nameWords } from "./builtins.ts";
import { lookup } from "./lookup.ts";
import type { ScriptEvent, StmtEvent, Word } from "./parser.ts";
import type { Arg } from "./wrappers.ts";

/** A loop variable and the words it takes, each an argument as the header's word gives it. */
export interface LoopBinding {
  name: string;
  values: readonly Arg[];
  /** Every value is one plain word bash would not split or glob again, so an unquoted `$NAME` is it too. */
  unquoted: boolean;
  /**
   * The values as an unquoted `$NAME` gives them when none has a blank: each globbed again, so one with a
   * glob character is a glob (`'~/.ssh/*'` lists `./~/.ssh`); null when bash may split one.
   */
  rescanned: readonly Arg[] | null;
}

export type LoopBindings = ReadonlyMap<string, LoopBinding>;

/** Words a loop binds, and argument lists one command is judged as, at most. */
const MAX_VALUES = 32;
const MAX_VARIANTS = 32;
/** A value bash passes as it is even unquoted (no blank, quote, glob or expansion character). */
export const PLAIN_VALUE = /^[A-Za-z0-9_./:@%+,=-]+$/;
/** A character bash's pattern matching reads as special in a value it globs again. */
const GLOB_CHAR = /[*?[\\]|[@!+]\(/;

/**
 * What an unquoted `$NAME` gives for each value: null when one may be split (a blank, or IFS set). A glob's
 * match or a home directory is only known at run time, and may have a blank: `split`.
 */
export function rescannedValues(values: readonly Arg[], src: string): Arg[] | null {
  if (/\bIFS\b/.test(src) || values.some((v) => v.value === null || /[\s]/.test(v.value))) return null;
  return values.map((v) => ({
    ...v,
    glob: v.glob || GLOB_CHAR.test(v.value as string),
    ...(v.glob || v.tilde ? { split: true as const } : {}),
  }));
}

/** Statements that run a file's code in this shell, which may set any variable. */
const SOURCING = new Set(["source", "."]);

/**
 * Whether NAME appears in `src` exactly once outside `$NAME`/`${NAME}` expansions, and that once is the
 * form `isTheOne` accepts (given the text before and after it). Any other bare occurrence (`NAME=`,
 * `read NAME`, `declare -n r=NAME`, `((NAME++))`, `unset NAME`, a second loop) may set it. A word ending in
 * NAME after `-`, `/`, `.` or a letter is an option or part of a path, never a name bash assigns.
 */
export function mentionedOnceAs(
  src: string,
  name: string,
  isTheOne: (before: string, after: string) => boolean,
): boolean {
  const text = src.replaceAll(`\${${name}}`, `$${name}`);
  const bare = new RegExp(`(?<![\\w$./-])${name}(?!\\w)`, "g");
  let count = 0;
  for (const m of text.matchAll(bare)) {
    count++;
    if (!isTheOne(text.slice(0, m.index), text.slice(m.index + name.length))) return false;
  }
  return count === 1;
}

/** Whether NAME appears in `src` only as a `for NAME in` header (once) and in expansions. */
function onlyTheHeaderNames(src: string, name: string): boolean {
  return mentionedOnceAs(
    src,
    name,
    (before, after) => /(^|[\s;&|(])for\s+$/.test(before) && /^\s+in\s/.test(after),
  );
}

/** The variables a script's statements set, as far as each can be placed. */
export interface ScriptSetters {
  /** How many places set each name (a loop's header is one). */
  names: ReadonlyMap<string, number>;
  /** Why some statement may set a variable the engine cannot name, or null. */
  unplaced: string | null;
}

/** Words that run the builtin after them as it is (`builtin printf -vX`, `command read -aX`). */
const PASS_THROUGH = new Set(["builtin", "command"]);
/** Builtins that run a string as code in this shell, which may set any variable. */
const CODE_STRINGS = new Set(["eval", "trap"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Every variable name the script's statements set, and whether one may set a name the engine cannot
 * place. `argvOf` gives a statement's words (a declaration's with its variant first), or null.
 */
export function scriptSetters(
  events: readonly ScriptEvent[],
  argvOf: (event: StmtEvent) => Arg[] | null,
): ScriptSetters {
  const names = new Map<string, number>();
  const add = (n: string) => names.set(n, (names.get(n) ?? 0) + 1);
  let unplaced: string | null = null;
  for (const e of events) {
    if (e.kind !== "stmt") continue;
    const here = new Set([...e.assigned, ...e.loopNames]);
    if (e.cmd?.type === "call") for (const a of e.cmd.assigns) here.add(a.name);
    const why = placeNames(argvOf(e), here);
    if (why !== null) unplaced ??= why;
    for (const n of here) add(n);
  }
  return { names, unplaced };
}

/** Adds the names one statement's words set to `here`; says why some cannot be placed, or null. */
function placeNames(statement: Arg[] | null, here: Set<string>): string | null {
  let argv = statement;
  if (argv === null) return null;
  while (argv.length > 0 && PASS_THROUGH.has(argv[0]?.value ?? "")) {
    argv = argv.slice(1);
    while (argv[0]?.value?.startsWith("-")) argv = argv.slice(1);
  }
  const program = argv[0]?.value;
  if (program === undefined) return null;
  if (program === null) return `the program ${argv[0]?.raw} is only known at run time`;
  if (CODE_STRINGS.has(program)) return `\`${program}\` runs a string as code`;
  const words = nameWords(argv);
  if (words === null) return null;
  let why = words.unread;
  if (words.options.some((o) => o.letter === "C" && (program === "mapfile" || program === "readarray")))
    why ??= `\`${program} -C\` runs its callback as code`;
  if (lookup(NAME_BUILTINS, program)?.declaration && words.options.some((o) => o.letter === "n"))
    why ??= `\`${program} -n\` makes a name a reference to another`;
  for (const w of words.names) {
    const name = w.value === null ? (w.declares ?? null) : NAME.exec(w.value)?.[0];
    if (name === null || name === undefined) why ??= `the variable name ${w.raw} is only known at run time`;
    else here.add(name);
  }
  return why;
}

/** Whether any statement of the script sources a file (`source x`, `. x`, through `builtin`/`command`). */
export function sourcesAFile(
  events: readonly { kind: string }[],
  wordOf: (w: Word) => string | null,
): boolean {
  for (const e of events) {
    if (e.kind !== "stmt") continue;
    const cmd = (e as StmtEvent).cmd;
    if (cmd?.type !== "call") continue;
    for (const w of cmd.args.slice(0, 3)) {
      const v = wordOf(w);
      if (v === null || SOURCING.has(v)) return true;
      if (v !== "builtin" && v !== "command") break;
    }
  }
  return false;
}

/**
 * The binding a `for` statement makes, or null when its variable is not known in the body. `mentions` is
 * the script with the names arithmetic only reads blanked (assigned-words.ts), where NAME must appear once.
 */
export function loopBinding(
  src: string,
  event: StmtEvent,
  argsOf: (words: readonly Word[]) => Arg[],
  setters: ScriptSetters,
  mentions: string = src,
  globFree: (values: readonly Arg[]) => boolean = () => false,
): LoopBinding | null {
  const name = event.loopNames[0];
  const words = event.loopWords;
  if (name === undefined || event.loopNames.length !== 1 || words === undefined) return null;
  if (event.hazards.length > 0) return null;
  if (isBashOwnVariable(name)) return null;
  // The header is one setter of NAME; any other is a second.
  if (setters.unplaced !== null || (setters.names.get(name) ?? 0) !== 1) return null;
  const values = argsOf(words);
  if (values.length === 0 || values.length > MAX_VALUES) return null;
  if (values.some((v) => v.pipe === true) || !onlyTheHeaderNames(mentions, name)) return null;
  if (values.some((v) => v.value === null)) return globFree(values) ? unknownPlain(name) : null;
  const unquoted =
    !/\bIFS\b/.test(src) && values.every((v) => !v.glob && !v.tilde && PLAIN_VALUE.test(v.value as string));
  return { name, values, unquoted, rescanned: unquoted ? null : rescannedValues(values, src) };
}

/**
 * `for i in $(seq 1 3)`: NAME takes values only known at run time, but none with a glob character or a blank
 * (`globFree`: the header's words give none, and bash split them already), so `$NAME` unquoted is as
 * unknown as `"$NAME"`, and no glob.
 */
function unknownPlain(name: string): LoopBinding {
  const value: Arg = { value: null, raw: `$${name}`, glob: false, tilde: false };
  return { name, values: [value], unquoted: true, rescanned: null };
}

/**
 * The loop variable a word is exactly (`"$f"`, `"${f}"`, `$f`), or null; unquoted, its values as bash
 * globs them again.
 */
function boundBy(word: Word, bound: LoopBindings): LoopBinding | null {
  if (word.parts.length !== 1) return null;
  const p = word.parts[0];
  if (p?.type === "param") {
    const b = bound.get(p.name);
    if (b === undefined || b.unquoted) return b ?? null;
    return b.rescanned === null ? null : { ...b, values: b.rescanned };
  }
  if (p?.type === "dbl" && p.parts.length === 1 && p.parts[0]?.type === "param")
    return bound.get(p.parts[0].name) ?? null;
  return null;
}

/**
 * The argument lists a command's words stand for: one list when no word is a bound loop variable,
 * else one per combination of the variables' values (each value in the word's place, shown as the
 * header wrote it). Null when there are too many to judge one by one.
 */
export function boundArgvs(
  words: readonly Word[],
  bound: LoopBindings | undefined,
  argsOf: (words: readonly Word[]) => Arg[],
): Arg[][] | null {
  const uses = bound === undefined || bound.size === 0 ? [] : words.map((w) => boundBy(w, bound));
  const names = [...new Set(uses.filter((b) => b !== null).map((b) => b.name))];
  if (names.length === 0) return [argsOf(words)];
  const bindings = names.map((n) => (bound as LoopBindings).get(n) as LoopBinding);
  // Each variant picks one value per variable, by index: an unquoted use takes it as globbed again.
  let variants: Map<string, number>[] = [new Map()];
  for (const b of bindings) {
    variants = variants.flatMap((v) => b.values.map((_, k) => new Map(v).set(b.name, k)));
    if (variants.length > MAX_VARIANTS) return null;
  }
  return variants.map((chosen) =>
    words.flatMap((w, i) => {
      const b = uses[i];
      if (b === null || b === undefined) return argsOf([w]);
      return [{ ...(b.values[chosen.get(b.name) as number] as Arg) }];
    }),
  );
}
