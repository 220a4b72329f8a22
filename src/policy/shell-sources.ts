// The files a shell start-up file sources (`source FILE`, `. FILE`): each runs in every shell the user
// starts, so a project file named there is a start-up file (red team, round 16: ~/.bashrc's
// `source ~/proj/scripts/aliases.sh`). Read with bash's grammar (mvdan/sh); a file it cannot read as a whole
// (zsh's or fish's syntax) is read line by line. Pure: guards/config-references.ts reads the files.
import { globParts, type PathPart, type Reference } from "./path-references.ts";
import { parseBash } from "./shell/parser.ts";
import type { ScriptEvent, Word, WordPart } from "./shell/walk.ts";
import { commandRuns, promptRuns, runsInLine } from "./shell-runs.ts";

/** A variable's possible values, each a path pattern; several when a `for` loop binds it. */
type Values = PathPart[][];

const SOURCING = new Set(["source", "."]);
const MAX_VALUES = 16;
const ANY: PathPart = { type: "any" };

function unescaped(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

/** An unquoted literal: its glob characters are globs (not when escaped), `~/` first is home. */
function unquotedParts(value: string, first: boolean, home: string): PathPart[] {
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
      alternatives = [inQuotes ? [{ type: "lit", value: p.value }] : unquotedParts(p.value, i === 0, home)];
    else if (p.type === "sgl") alternatives = [[{ type: "lit", value: p.value }]];
    else if (p.type === "dbl") alternatives = wordValues(p.parts, vars, home, true);
    else if (p.type === "param")
      alternatives = vars.get(p.name) ?? (p.name === "HOME" ? [[{ type: "lit", value: home }]] : [[ANY]]);
    else alternatives = [[ANY]];
    const next = out.flatMap((head) => alternatives.map((tail) => [...head, ...tail]));
    out = next.length > MAX_VALUES ? [[ANY]] : next;
  });
  return out;
}

/** A word's single literal text, or null. */
function literal(word: Word | undefined, home: string): string | null {
  const values = word === undefined ? [] : wordValues(word.parts, new Map(), home);
  const only = values.length === 1 ? values[0] : undefined;
  return only?.every((p) => p.type === "lit") ? only.map((p) => p.value).join("") : null;
}

function sourced(values: Values, how: string): Reference[] {
  return values.map((parts) => ({ parts: absolute(parts), below: false, how, follow: "shell" }));
}

const PATH_HOW =
  "puts it on PATH in every shell, so a program there runs in place of the one the person types";

/**
 * The directories a PATH assignment's value puts on PATH (`export PATH="$HOME/proj/bin:$PATH"`, fix17a): each
 * entry, a relative one in any directory. One led by a variable only known at run time (`$PATH`,
 * `$JAVA_HOME/bin`) is the person's own install's, and `.` or an empty entry (every directory) is left out.
 */
function pathEntries(values: Values): Reference[] {
  const out: Reference[] = [];
  for (const value of values) {
    let entry: PathPart[] = [];
    const flush = () => {
      const head = entry[0];
      const text = entry.map((p) => (p.type === "any" ? "" : p.value)).join("");
      if (head !== undefined && head.type !== "any" && text !== "." && text !== "./")
        out.push({ parts: absolute(entry), below: true, how: PATH_HOW });
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

/** A path relative to where the shell happens to be is any directory's. */
function absolute(parts: PathPart[]): PathPart[] {
  const head = parts[0];
  return head?.type === "lit" && head.value.startsWith("/")
    ? parts
    : [ANY, { type: "lit", value: "/" }, ...parts];
}

/** The sources of a script bash's grammar reads, with its plain variable assignments and `for` loops followed. */
function fromEvents(events: readonly ScriptEvent[], home: string, how: string): Reference[] {
  const vars = new Map<string, Values>();
  const out: Reference[] = [];
  for (const e of events) {
    if (e.kind !== "stmt") continue;
    e.loopNames.forEach((name) => {
      const words = e.loopWords ?? [];
      vars.set(
        name,
        words.length === 0
          ? [[ANY]]
          : words.flatMap((w) => wordValues(w.parts, vars, home)).slice(0, MAX_VALUES),
      );
    });
    for (const name of e.assigned) if (!e.loopNames.includes(name)) vars.set(name, [[ANY]]);
    const cmd = e.cmd;
    const assign = (name: string, values: Values) => {
      if (name === "PATH") out.push(...pathEntries(values));
      vars.set(name, values);
    };
    if (cmd?.type === "decl")
      for (const a of cmd.args)
        if (a.name !== "" && !a.naked) assign(a.name, a.value ? wordValues(a.value.parts, vars, home) : [[]]);
    if (cmd?.type !== "call") continue;
    if (cmd.args.length === 0)
      for (const a of cmd.assigns) assign(a.name, a.value ? wordValues(a.value.parts, vars, home) : [[]]);
    const name = literal(cmd.args[0], home);
    const file = cmd.args[1];
    if (name !== null && SOURCING.has(name) && file !== undefined)
      out.push(...sourced(wordValues(file.parts, vars, home), how));
    const words = cmd.args.map((w) => wordValues(w.parts, vars, home));
    out.push(...commandRuns(words, (script) => readings(script, home, how)));
    for (const w of fishPathWords(name, cmd.args, home))
      out.push(...pathEntries(wordValues(w.parts, vars, home)));
  }
  out.push(...promptRuns(vars.get("PROMPT_COMMAND"), (script) => readings(script, home, how)));
  return out;
}

/** `source X` or `. X` as a command anywhere in a line bash's grammar cannot read. */
const SOURCE_IN_LINE =
  /(?:^|[;&|({]|\b(?:then|do|else|and|or))\s*(?:source|\.)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)/g;

/** A line the grammar cannot read: its source words, `$…` parts only known at run time. */
function fromLine(line: string, home: string, how: string): Reference[] {
  const out: Reference[] = [];
  for (const m of line.matchAll(SOURCE_IN_LINE)) {
    const word = m[1] as string;
    const inQuotes = /^["']/.test(word);
    const text = inQuotes ? word.slice(1, -1) : word;
    const parts = text.split(/(\$\{[^}]*\}|\$\w+|\$\(.*|`.*)/).flatMap((piece, i): PathPart[] => {
      if (i % 2 === 1) return [/^\$\{?HOME\}?$/.test(piece) ? { type: "lit", value: home } : ANY];
      if (piece === "") return [];
      return inQuotes ? [{ type: "lit", value: piece }] : unquotedParts(piece, i === 0, home);
    });
    out.push(...sourced([parts], how));
  }
  return out;
}

/** Script text the grammar reads as a whole, else line by line (a line it cannot read is matched by pattern). */
function readings(text: string, home: string, how: string): Reference[] {
  try {
    return fromEvents(parseBash(text).events, home, how);
  } catch {
    return text.split("\n").flatMap((line) => {
      try {
        return fromEvents(parseBash(line).events, home, how);
      } catch {
        return [...fromLine(line, home, how), ...runsInLine(line, home)];
      }
    });
  }
}

/**
 * Every file a shell start-up script sources, as a path pattern: literal where the script spells it out,
 * a glob where it loops over one, and any text for a part only known at run time (`$ZSH/oh-my-zsh.sh`).
 */
export function shellSources(text: string, home: string, how = "sources it in every shell"): Reference[] {
  return readings(text, home, how);
}
