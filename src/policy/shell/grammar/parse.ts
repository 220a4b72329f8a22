// Places every word of a command by its program's grammar, as getopt_long would: clustered short
// options (`-rn`), glued and separate values (`-A3`, `-A 3`), `--opt=value`, optional values
// (glued or `=` only), unique-prefix abbreviation of long options (`--recurs`), values checked
// against the choices the program accepts (also by unique prefix, as GNU argmatch does), `--`,
// `-` as an operand, and options after operands only for programs that permute. A word it cannot
// place makes the command not understood.
import type { Arg } from "../wrappers.ts";
import type {
  Effects,
  GivenOption,
  NotUnderstood,
  OptionSpec,
  Parsed,
  PathEffect,
  ProgramGrammar,
  Understanding,
  WordKind,
} from "./spec.ts";

interface Index {
  short: Map<string, OptionSpec>;
  long: Map<string, OptionSpec>;
  longNames: string[];
}

const indexes = new WeakMap<ProgramGrammar, Index>();

function indexOf(g: ProgramGrammar): Index {
  let ix = indexes.get(g);
  if (ix !== undefined) return ix;
  ix = { short: new Map(), long: new Map(), longNames: [] };
  for (const o of g.options)
    for (const n of o.names) {
      if (n.startsWith("--")) {
        ix.long.set(n, o);
        ix.longNames.push(n);
      } else ix.short.set(n, o);
    }
  indexes.set(g, ix);
  return ix;
}

/** The long option a spelling names: exact, or (getopt_long) the one all its prefix matches share. */
function longOption(g: ProgramGrammar, ix: Index, name: string): { spec: OptionSpec; name: string } | string {
  const exact = ix.long.get(name);
  if (exact !== undefined) return { spec: exact, name };
  if (g.negatable && name.startsWith("--no-")) {
    const positive = longOption(g, ix, `--${name.slice(5)}`);
    if (typeof positive !== "string") return { spec: { names: [name] }, name };
  }
  if (!g.abbreviate || name.length < 3) return `unknown option ${name}`;
  const matches = ix.longNames.filter((n) => n.startsWith(name));
  if (matches.length === 0) return `unknown option ${name}`;
  const specs = new Set(matches.map((m) => ix.long.get(m)));
  if (specs.size > 1) return `${name} is ambiguous (${matches.slice(0, 4).join(", ")})`;
  return { spec: ix.long.get(matches[0] as string) as OptionSpec, name: matches[0] as string };
}

/** An option spelled as one word after one or two dashes (`-race`, `--race`), exactly. */
function wholeWord(ix: Index, name: string): { spec: OptionSpec; name: string } | string {
  const bare = name.replace(/^--?/, "");
  for (const n of [`-${bare}`, `--${bare}`]) {
    const spec = ix.short.get(n) ?? ix.long.get(n);
    if (spec !== undefined) return { spec, name: n };
  }
  return `unknown option ${name}`;
}

/** `-c8`: a two-letter option that takes a value, with a number glued to it (gluedNumbers). */
function gluedNumber(ix: Index, word: string): { spec: OptionSpec; name: string; value: string } | null {
  const name = word.slice(0, 2);
  const value = word.slice(2);
  const spec = ix.short.get(name);
  if (spec === undefined || spec.value !== "required") return null;
  return /^[+-]?(0x[0-9a-f]+|[0-9]+)$/i.test(value) ? { spec, name, value } : null;
}

/** A value among the option's choices, exact or by unique prefix; null when none. */
export function choiceOf(spec: OptionSpec, value: string): string | null {
  const choices = spec.choices;
  if (choices === undefined) return value;
  if (choices.includes(value)) return value;
  const hits = value === "" ? [] : choices.filter((c) => c.startsWith(value));
  return hits.length === 1 ? (hits[0] as string) : null;
}

export function emptyEffects(effect: Effects["effect"]): Effects {
  return { paths: [], definedBy: [], effect, inner: [], chdir: [] };
}

/** A path effect with the defaults of its access (opening a file follows the final symlink). */
export function pathEffect(
  access: PathEffect["access"],
  arg: Arg,
  more: Partial<PathEffect> = {},
): PathEffect {
  return {
    access,
    arg,
    contents: access === "read",
    follow: access === "walk" ? "none" : "args",
    ignores: false,
    ...more,
  };
}

const PATH_KINDS: ReadonlySet<WordKind> = new Set(["read", "write", "exec", "list", "walk"]);

function addWord(out: Effects, kind: WordKind, arg: Arg): void {
  // A process substitution is a pipe from a command judged on its own, not a file.
  if (!PATH_KINDS.has(kind) || arg.pipe === true || arg.value === "-") return;
  out.paths.push(pathEffect(kind as PathEffect["access"], arg));
}

const STARTS_LIKE_OPTION = /^[*?[]/;

function notUnderstood(word: Arg, reason: string): NotUnderstood {
  return { word: word.raw, reason };
}

function parsedOf(
  argv: readonly Arg[],
  options: GivenOption[],
  operands: Arg[],
  beforeDashes: number,
): Parsed {
  const matches = (o: GivenOption, key: string) => o.spec.mode === key || o.spec.names.includes(key);
  return {
    program: argv[0]?.value ?? "",
    argv,
    options,
    operands,
    beforeDashes,
    has: (key) => options.some((o) => matches(o, key)),
    values: (key) => options.filter((o) => matches(o, key) && o.value !== null).map((o) => o.value as Arg),
  };
}

/** Splits argv (argv[0] is the program) into options and operands; a reason when a word does not fit. */
export function parseWords(
  g: ProgramGrammar,
  argv: readonly Arg[],
  start = 1,
): { parsed: Parsed; failure: NotUnderstood | null; optionGlob: NotUnderstood | null } {
  const ix = indexOf(g);
  const options: GivenOption[] = [];
  const operands: Arg[] = [];
  let failure: NotUnderstood | null = null;
  // The first glob that could expand to a name like an option: placed as an operand (what it is when
  // no file it matches starts with `-`), and reported for the disk to settle.
  let optionGlob: NotUnderstood | null = null;
  let optionsEnd = false;
  let dashes = -1;
  let i = start;
  const give = (spec: OptionSpec, name: string, value: Arg | null, word: Arg): NotUnderstood | null => {
    if (value !== null && spec.choices !== undefined) {
      const choice = value.value === null ? null : choiceOf(spec, value.value);
      if (choice === null)
        return notUnderstood(
          value,
          `${name} takes one of ${spec.choices.join(", ")}${value.value === null ? " (this value is not static)" : ""}`,
        );
      value = { ...value, value: choice };
    }
    const given: GivenOption = { spec, name, value, word };
    if (spec.command !== undefined) {
      const words: Arg[] = [];
      while (i + 1 < argv.length) {
        const next = argv[++i] as Arg;
        if (next.value !== null && spec.command.includes(next.value)) break;
        words.push(next);
      }
      if (words.length === 0) return notUnderstood(word, `${name} needs a command`);
      given.command = words;
    }
    if (spec.second !== undefined) {
      const second = argv[++i];
      if (second === undefined) return notUnderstood(word, `${name} needs two values`);
      given.second = second;
    }
    options.push(given);
    return null;
  };
  for (; i < argv.length && failure === null; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (optionsEnd) {
      operands.push(a);
      continue;
    }
    if (v === null) {
      if (g.dynamicWords === true) {
        operands.push(a);
        continue;
      }
      failure = notUnderstood(a, "it is only known at run time, so it could be any option");
      break;
    }
    if (a.glob && STARTS_LIKE_OPTION.test(v) && g.dynamicWords !== true) {
      optionGlob ??= {
        ...notUnderstood(a, "the glob may expand to a file named like an option"),
        optionGlob: true,
      };
      operands.push(a);
      if (!g.permute) optionsEnd = true;
      continue;
    }
    if (v === "--") {
      optionsEnd = true;
      dashes = operands.length;
      continue;
    }
    if (v === "-" || !v.startsWith("-")) {
      operands.push(a);
      if (!g.permute) optionsEnd = true;
      continue;
    }
    if (v.startsWith("--") || g.singleDash) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v : v.slice(0, eq);
      const found = g.singleDash ? wholeWord(ix, name) : longOption(g, ix, name);
      const glued = typeof found === "string" && g.gluedNumbers === true ? gluedNumber(ix, v) : null;
      if (glued !== null) {
        failure = give(glued.spec, glued.name, { ...a, value: glued.value, tilde: false }, a);
        continue;
      }
      if (typeof found === "string") {
        failure = notUnderstood(a, found);
        break;
      }
      const { spec } = found;
      let value: Arg | null = null;
      if (eq >= 0) {
        if (spec.value === undefined) {
          failure = notUnderstood(a, `${found.name} takes no value`);
          break;
        }
        value = { ...a, value: v.slice(eq + 1), tilde: false };
      } else if (spec.value === "required" || (spec.value === "lastDefault" && i + 1 < argv.length)) {
        const next = argv[++i];
        if (next === undefined) {
          failure = notUnderstood(a, `${found.name} needs a value`);
          break;
        }
        value = next;
      }
      failure = give(spec, found.name, value, a);
      continue;
    }
    if (g.numeric !== undefined && /^-\d+$/.test(v)) {
      failure = give(g.numeric, v, { ...a, value: v.slice(1) }, a);
      continue;
    }
    // A cluster of short options: `-rn`, `-A3`, `-ofile`.
    for (let k = 1; k < v.length; k++) {
      const key = `-${v[k]}`;
      const spec = ix.short.get(key);
      if (spec === undefined) {
        failure = notUnderstood(
          a,
          /^\d/.test(v.slice(k)) ? `${v} is not an option here` : `unknown option ${key}`,
        );
        break;
      }
      if (spec.value === undefined) {
        failure = give(spec, key, null, a);
        if (failure !== null) break;
        continue;
      }
      const glued = v.slice(k + 1);
      let value: Arg | null = null;
      if (glued !== "") value = { ...a, value: glued, tilde: false };
      else if (spec.value === "required" || (spec.value === "lastDefault" && i + 1 < argv.length)) {
        const next = argv[++i];
        if (next === undefined) {
          failure = notUnderstood(a, `${key} needs a value`);
          break;
        }
        value = next;
      }
      failure = give(spec, key, value, a);
      break;
    }
  }
  return {
    parsed: parsedOf(argv, options, operands, dashes < 0 ? operands.length : dashes),
    failure,
    optionGlob,
  };
}

/** The effects of a parsed command before the program's own semantics: values and operands by kind. */
export function defaultEffects(g: ProgramGrammar, p: Parsed): Effects {
  const out = emptyEffects(g.effect);
  for (const o of p.options) {
    if (o.value !== null) addWord(out, o.spec.kind ?? "string", o.value);
    if (o.second !== undefined) addWord(out, o.spec.second ?? "string", o.second);
    if (o.command !== undefined) out.inner.push(o.command);
  }
  p.operands.forEach((a, i) => {
    const kind = g.operands[Math.min(i, g.operands.length - 1)];
    if (kind !== undefined) addWord(out, kind, a);
  });
  return out;
}

/** Places every word of `argv` by the grammar and reports the command's effects. */
export function understand(g: ProgramGrammar, argv: readonly Arg[], start = 1): Understanding {
  if (g.custom !== undefined) return g.custom(argv);
  const { parsed, failure, optionGlob } = parseWords(g, argv, start);
  const effects = defaultEffects(g, parsed);
  if (failure !== null) return { understood: false, why: failure, effects };
  const refused = g.finish?.(parsed, effects) ?? null;
  if (refused !== null) return { understood: false, why: refused, effects };
  const ownOnly = effects.inner.length === 0 && effects.definedBy.length === 0 && effects.chdir.length === 0;
  if (ownOnly && g.placedOnly?.(parsed, effects) === true) effects.placedOnly = true;
  if (optionGlob !== null) return { understood: false, why: optionGlob, effects };
  return { understood: true, effects };
}
