// The files a shell start-up file sources (`source FILE`, `. FILE`): each runs in every shell the user
// starts, so a project file named there is a start-up file (red team, round 16: ~/.bashrc's
// `source ~/proj/scripts/aliases.sh`). Read with bash's grammar (mvdan/sh); a file it cannot read as a whole
// (zsh's or fish's syntax) is read line by line. Pure: guards/config-references.ts reads the files.
import { expand } from "brace-expansion";
import { anchored, mergedText, runsWhereTyped } from "./build-runs.ts";
import { globParts, type PathPart, type Reference } from "./path-references.ts";
import { parseBash } from "./shell/parser.ts";
import type { ScriptEvent, StmtEvent, Word, WordPart } from "./shell/walk.ts";
import {
  fed,
  heredocScripts,
  inputFiles,
  programDescriptor,
  readFiles,
  runsOutput,
  type ValuesOf,
} from "./shell-feeds.ts";
import { commandRuns, promptRuns, runsInLine, type ShellReader, wrapperDepths } from "./shell-runs.ts";

/** A variable's possible values, each a path pattern; several when a `for` loop binds it. */
type Values = PathPart[][];

const MAX_VALUES = 16;
const PIPE = "/dev/fd/63";
const ANY: PathPart = { type: "any" };

function unescaped(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

/** One brace-free unquoted literal: its glob characters are globs (not when escaped), `~/` first is home. */
function unquotedPath(value: string, first: boolean, home: string): PathPart[] {
  let text = value;
  if (first && (text === "~" || text.startsWith("~/"))) text = home + text.slice(1);
  if (!/[*?[]/.test(text.replace(/\\./g, ""))) return [{ type: "lit", value: unescaped(text) }];
  // Escaped glob characters stay literal: split on them first.
  return text
    .split(/(\\.)/s)
    .flatMap((piece, i) =>
      i % 2 === 1 ? [{ type: "lit", value: piece.slice(1) } as PathPart] : globParts(piece),
    );
}

/**
 * An unquoted literal's values: each word its braces expand to (`~/p/{a,b}.sh`, `q1{3,4}.sh`; round 19,
 * r19-19), before `~` and globs as bash orders them; past the bound, any text.
 */
function unquotedParts(value: string, first: boolean, home: string): Values {
  if (!/\{.*(,|\.\.).*\}/s.test(value)) return [unquotedPath(value, first, home)];
  const words = expand(value, { max: MAX_VALUES + 1 });
  return words.length > MAX_VALUES ? [[ANY]] : words.map((w) => unquotedPath(w, first, home));
}

/**
 * Every value a word may take: a product over its parts, bounded (past the bound, any text). Inside
 * double quotes text is literal, while a variable keeps its values (a loop's glob is each file it matches).
 */
function wordValues(
  parts: readonly WordPart[],
  vars: Map<string, Values>,
  home: string,
  inQuotes = false,
): Values {
  let out: Values = [[]];
  parts.forEach((p, i) => {
    let alternatives: Values;
    if (p.type === "lit")
      alternatives = inQuotes ? [[{ type: "lit", value: p.value }]] : unquotedParts(p.value, i === 0, home);
    else if (p.type === "sgl") alternatives = [[{ type: "lit", value: p.value }]];
    else if (p.type === "dbl") alternatives = wordValues(p.parts, vars, home, true);
    else if (p.type === "param")
      alternatives = vars.get(p.name) ?? (p.name === "HOME" ? [[{ type: "lit", value: home }]] : [[ANY]]);
    // `<(cmd)`: bash passes the pipe's name; what `cmd` prints is read by shell-feeds.ts.
    else if (p.type === "procsubst") alternatives = [[{ type: "lit", value: PIPE }]];
    else alternatives = [[ANY]];
    out = product(out, alternatives);
  });
  return out;
}

/** Each value of `a` followed by each of `b`; past the bound, any text. */
function product(a: Values, b: Values): Values {
  const next = a.flatMap((head) => b.map((tail) => [...head, ...tail]));
  return next.length > MAX_VALUES ? [[ANY]] : next;
}

/** A word's single literal text, or null. */
function literal(word: Word | undefined, home: string): string | null {
  const values = word === undefined ? [] : wordValues(word.parts, new Map(), home);
  const only = values.length === 1 ? values[0] : undefined;
  return only?.every((p) => p.type === "lit") ? only.map((p) => p.value).join("") : null;
}

function sourced(values: Values, how: string): Reference[] {
  return values.map((parts) => ({ parts: anchored(parts), below: false, how, follow: "shell" }));
}

const PATH_HOW =
  "puts it on PATH in every shell, so a program there runs in place of the one the person types";

/**
 * The directories a PATH assignment's value puts on PATH (`export PATH="$HOME/proj/bin:$PATH"`, fix17a): each
 * entry, a relative one in any directory. One led by a variable only known at run time (`$PATH`,
 * `$JAVA_HOME/bin`) is the person's own install's, and `.` or an empty entry (every directory) is left out.
 */
function pathEntries(values: Values, how = PATH_HOW): Reference[] {
  const out: Reference[] = [];
  for (const value of values) {
    let entry: PathPart[] = [];
    const flush = () => {
      const head = entry[0];
      const text = entry.map((p) => (p.type === "any" ? "" : p.value)).join("");
      if (head !== undefined && head.type !== "any" && text !== "." && text !== "./")
        out.push({ parts: anchored(entry), below: true, how });
      entry = [];
    };
    for (const p of value) {
      if (p.type !== "lit" || !p.value.includes(":")) {
        entry.push(p);
        continue;
      }
      const pieces = p.value.split(":");
      pieces.forEach((piece, i) => {
        if (i > 0) flush();
        if (piece !== "") entry.push({ type: "lit", value: piece });
      });
    }
    flush();
  }
  return out;
}

/** fish's PATH additions: `fish_add_path DIR…` and `set [-gxU…] PATH|fish_user_paths DIR…` (fish's docs). */
function fishPathWords(name: string | null, args: readonly Word[], home: string): Word[] {
  const rest = args.slice(1).filter((w) => !literal(w, home)?.startsWith("-"));
  if (name === "fish_add_path") return rest;
  const variable = literal(rest[0], home);
  return name === "set" && (variable === "PATH" || variable === "fish_user_paths") ? rest.slice(1) : [];
}

const FPATH_HOW = "puts it on zsh's fpath in every shell, so a function there runs when it is autoloaded";

/**
 * zsh's arrays tied to the search paths (round 19, r19-24): `path=(DIR $path)` is PATH, `fpath=(DIR …)` the
 * directories `autoload` (and completion) load functions from; `FPATH=` is fpath's scalar twin.
 */
function zshArrays(name: string, values: Values): Reference[] {
  if (name === "path") return pathEntries(values);
  if (name === "fpath") return pathEntries(values, FPATH_HOW);
  if (name === "FPATH") return pathEntries(values, FPATH_HOW);
  return [];
}

/** What the shell is known to stand in at start: `$(pwd)`, the repository's top, the script's own directory. */
export interface Where {
  cwd: PathPart[];
  top: PathPart[];
  self: PathPart[];
}

/** A start-up file runs in whatever directory the shell starts in (`$0` is the shell's name: dirname `.`). */
const ANYWHERE: Where = {
  cwd: [{ type: "lit", value: "." }],
  top: [{ type: "lit", value: "." }],
  self: [{ type: "lit", value: "." }],
};

/** A word that opens with a substitution whose value is known (round 19, s03, r19-26), by its text. */
const KNOWN_HEADS: [RegExp, keyof Where][] = [
  [/^"?(\$\(\s*pwd(\s+-[LP])?\s*\)|`\s*pwd\s*`)/, "cwd"],
  [/^"?\$\(\s*git\s+rev-parse\s+--show-toplevel(\s+2>\s*\/dev\/null)?\s*\)/, "top"],
  [/^"?(\$\(\s*dirname\s+(--\s+)?"?\$(0|\{0\})"?\s*\)|\$\{0%\/\*\})/, "self"],
  [/^"?\$\(\s*cd\s+"?\$\(\s*dirname\s+(--\s+)?"?\$0"?\s*\)"?\s*(&&|;)\s*pwd(\s+-P)?\s*\)/, "self"],
];

/** The parts after a word's first (a substitution), inside its opening double quotes if it has them. */
function afterHead(parts: readonly WordPart[]): WordPart[] {
  const [first, ...rest] = parts;
  return first?.type === "dbl" ? [{ ...first, parts: first.parts.slice(1) }, ...rest] : rest;
}

/** `/a/./b`, `/a/x/../b` as `/a/b`, in the literal a path opens with (`$(dirname "$0")/../x`). */
function tidy(parts: PathPart[]): PathPart[] {
  const merged = mergedText(parts);
  const head = merged[0];
  if (head?.type !== "lit" || !head.value.startsWith("/")) return merged;
  let value = head.value.replace(/\/\.(?=\/)/g, "");
  for (let before = ""; before !== value; ) {
    before = value;
    value = value.replace(/\/(?!\.\.\/)[^/]+\/\.\.(?=\/)/, "");
  }
  return [{ type: "lit", value }, ...merged.slice(1)];
}

/** A statement's word reader: variables, `~`, braces, and the substitutions KNOWN_HEADS knows. */
function wordReader(src: string, vars: Map<string, Values>, home: string, where: Where): ValuesOf {
  return (w: Word) => {
    const text = src.slice(w.start, w.end);
    const known = KNOWN_HEADS.find(([re]) => re.test(text))?.[1];
    const first = w.parts[0];
    const dynamic = first?.type === "dbl" ? first.parts[0] : first;
    const values =
      known !== undefined && (dynamic?.type === "dynamic" || dynamic?.type === "subst")
        ? product([where[known]], wordValues(afterHead(w.parts), vars, home))
        : wordValues(w.parts, vars, home);
    return values.map(tidy);
  };
}

/** The sources of a script bash's grammar reads, with its plain variable assignments and `for` loops followed. */
function fromEvents(src: string, events: readonly ScriptEvent[], ctx: Reading): Reference[] {
  const { home, how, where } = ctx;
  const vars = new Map<string, Values>([["PWD", [where.cwd]]]);
  const valuesOf = wordReader(src, vars, home, where);
  const reader: ShellReader = {
    script: (text) => readings(text, ctx),
    sourced: (values) => sourced(values, how),
  };
  const out: Reference[] = [];
  /** `exec 3< F`: what each descriptor the shell holds open reads. */
  const fds = new Map<number, Values>();
  /** The words whose commands' output is run as code (`eval "$(cat F)"`): where they are in the text. */
  const outputRun: [number, number][] = [];
  /** The scopes the walk is in: a function body runs only when called (nvm.sh's `nvm install` runs `make`). */
  const scopes: string[] = [];
  for (const e of events) {
    if (e.kind === "enter") scopes.push(e.scope);
    if (e.kind === "leave") scopes.pop();
    if (e.kind !== "stmt") continue;
    e.loopNames.forEach((name) => {
      const words = e.loopWords ?? [];
      vars.set(name, words.length === 0 ? [[ANY]] : words.flatMap(valuesOf).slice(0, MAX_VALUES));
    });
    for (const name of e.assigned) if (!e.loopNames.includes(name)) vars.set(name, [[ANY]]);
    const cmd = e.cmd;
    const assign = (a: { name: string; value: Word | null; elements?: Word[] }) => {
      const values = a.elements ? a.elements.flatMap(valuesOf) : a.value ? valuesOf(a.value) : [[]];
      if (a.name === "PATH") out.push(...pathEntries(values));
      out.push(...zshArrays(a.name, values));
      vars.set(a.name, values);
    };
    if (cmd?.type === "decl") for (const a of cmd.args) if (a.name !== "" && !a.naked) assign(a);
    if (outputRun.some(([s, t]) => e.start >= s && e.end <= t)) out.push(...readFiles(e, src, valuesOf));
    if (cmd?.type !== "call") continue;
    if (cmd.args.length === 0) for (const a of cmd.assigns) assign(a);
    const name = literal(cmd.args[0], home);
    const words = cmd.args.map(valuesOf);
    const depths = wrapperDepths(words);
    const runs = commandRuns(words, reader);
    out.push(...(scopes.includes("function") ? runs.filter((r) => !runsWhereTyped(r)) : runs));
    out.push(...fedPrograms(e, src, depths, valuesOf, fds, reader));
    if (runsOutput(depths))
      outputRun.push(...cmd.args.slice(1).map((w): [number, number] => [w.start, w.end]));
    if (name === "exec" && cmd.args.length === 1)
      for (const fd of [0, 3, 4, 5, 6, 7, 8, 9]) {
        const files = inputFiles(e, src, fd, valuesOf);
        if (files.length > 0) fds.set(fd, files);
      }
    for (const w of fishPathWords(name, cmd.args, home)) out.push(...pathEntries(valuesOf(w)));
  }
  out.push(...promptRuns(vars.get("PROMPT_COMMAND"), reader));
  return out;
}

/**
 * What a command reading its program from a descriptor runs (shell-feeds.ts): a shell's stdin (`bash < F`,
 * `cat F | bash`, a here-document given to it or to the command upstream), or `. /dev/fd/N` after `exec N< F`.
 */
function fedPrograms(
  e: StmtEvent,
  src: string,
  depths: ReturnType<typeof wrapperDepths>,
  valuesOf: ValuesOf,
  fds: ReadonlyMap<number, Values>,
  reader: ShellReader,
): Reference[] {
  const fd = programDescriptor(depths);
  if (fd === null) return [];
  const own = inputFiles(e, src, fd, valuesOf);
  const out = fed(own.length > 0 ? own : (fds.get(fd) ?? []));
  if (fd !== 0) return out;
  // `cat <<EOF | bash`: what the command upstream is given as a here-document is what it prints, taken as run.
  const heredocs = [e, ...(e.stdinFrom === undefined ? [] : [e.stdinFrom])].flatMap((s) =>
    heredocScripts(s, valuesOf),
  );
  for (const script of heredocs) out.push(...reader.script(script));
  if (e.stdinFrom !== undefined) out.push(...readFiles(e.stdinFrom, src, valuesOf));
  return out;
}

/** `source X` or `. X` as a command anywhere in a line bash's grammar cannot read (behind `command`, `--`). */
const SOURCE_IN_LINE =
  /(?:^|[;&|({]|\b(?:then|do|else|and|or))\s*(?:(?:command|builtin)\s+)?(?:source|\.)\s+(?:--\s+)?("[^"]*"|'[^']*'|[^\s;&|)]+)/g;

/** zsh's glob qualifiers after a name (`F(N)`, `*.zsh(.N)`): the match stops at `)`, so `(` to the end goes. */
const QUALIFIER = /\([^/]*$/;

/** A line the grammar cannot read: its source words, `$…` parts only known at run time. */
function fromLine(line: string, home: string, how: string): Reference[] {
  const out: Reference[] = [];
  for (const m of line.matchAll(SOURCE_IN_LINE)) {
    const word = m[1] as string;
    const inQuotes = /^["']/.test(word);
    const text = inQuotes ? word.slice(1, -1) : word.replace(QUALIFIER, "");
    const values = text.split(/(\$\{[^}]*\}|\$\w+|\$\(.*|`.*)/).reduce(
      (acc: Values, piece, i): Values => {
        if (i % 2 === 1)
          return product(acc, [[/^\$\{?HOME\}?$/.test(piece) ? { type: "lit", value: home } : ANY]]);
        if (piece === "") return acc;
        return product(
          acc,
          inQuotes ? [[{ type: "lit", value: piece }]] : unquotedParts(piece, i === 0, home),
        );
      },
      [[]],
    );
    out.push(...sourced(values, how));
  }
  return out;
}

/** What one reading knows: home, what sourcing is called, where the script runs. */
interface Reading {
  home: string;
  how: string;
  where: Where;
}

/** Script text the grammar reads as a whole, else line by line (a line it cannot read is matched by pattern). */
function readings(text: string, ctx: Reading): Reference[] {
  try {
    return fromEvents(text, parseBash(text).events, ctx);
  } catch {
    return text.split("\n").flatMap((line) => {
      try {
        return fromEvents(line, parseBash(line).events, ctx);
      } catch {
        return [...fromLine(line, ctx.home, ctx.how), ...runsInLine(line, ctx.home)];
      }
    });
  }
}

/**
 * Every file a shell start-up script sources, runs or feeds a shell, as a path pattern: literal where the
 * script spells it out, a glob where it loops over one, and any text for a part only known at run time
 * (`$ZSH/oh-my-zsh.sh`). `where` is what the script's `$(pwd)`, repository top and own directory are: a
 * start-up file's are wherever the shell starts (a git hook's are the work tree's top, hook-configs.ts).
 *
 * Not followed, each asking nothing: a name only known at run time in a program's place (`$cmd`,
 * `"$ZSH/tools/x.sh"`: the person's installed tool, found through a variable the file cannot set to a
 * project path without naming it), what a build file includes, and a file listed in a file xargs reads.
 */
export function shellSources(
  text: string,
  home: string,
  how = "sources it in every shell",
  where: Where = ANYWHERE,
): Reference[] {
  return readings(text, { home, how, where });
}
