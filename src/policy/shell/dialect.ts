// Which language a nested script is read in. The engine reads bash; `sh -c SCRIPT` is run by
// /bin/sh, which is dash on Debian and Ubuntu and bash in POSIX mode on macOS (red team, round 8:
// `sh -c "echo \$'\\' ; cat ~/.ssh/id_ed25519 ; # '"` is one echo to bash and runs the cat in
// dash, which has no `$'…'`). A script for `sh` is judged only when dash and bash read it the same:
// mvdan/sh's POSIX grammar and its bash grammar give the same tree (so no `$'…'`, `$"…"`, `[[`,
// `((`, `&>`, `let`, `declare`, `time`, arrays, here-strings, `+=` …: each is a plain word or
// something else to dash), and nothing in it is expanded differently (bash's brace expansion,
// `[^…]`, `[[=c=]]` and `[[.c.]]` in globs, which dash reads as plain characters), nor does an
// assignment before a special builtin (`PATH=x :`) outlive the builtin, as it does in dash.
// A script for any other shell (zsh, fish, ksh, csh, or the login shell `flock -c` and `su -c`
// run) is judged only when it is one simple command of plain words, which every shell reads alike.
import { bothReadings, plainCommand } from "./parser.ts";
import type { RawNode } from "./walk.ts";

/** bash's language, POSIX sh's, or a shell whose language the engine does not read (which one, why). */
export type Dialect = "bash" | "sh" | { other: string };

const POSIX_SHELLS: ReadonlySet<string> = new Set(["sh", "dash", "ash", "posh"]);
/** Wrappers that run their string with /bin/sh (procps watch, sg, npm's default script-shell). */
const SH_RUNNERS: ReadonlySet<string> = new Set(["watch", "sg", "npx", "npm exec", "npm x"]);
const BASH_RUNNERS: ReadonlySet<string> = new Set(["nix-shell", "nix develop"]);

/** The dialect a shell program reads its script in (`bash -c`, `sh -c`, `zsh -c`, a here-document fed to it). */
export function shellDialect(name: string): Dialect {
  if (name === "bash") return "bash";
  if (POSIX_SHELLS.has(name)) return "sh";
  return { other: `${name} reads its script in a language other than bash's` };
}

/** The dialect of the string a wrapper runs (`watch CMD`, `flock F -c CMD`, `su -c CMD`). */
export function wrapperDialect(wrapper: string): Dialect {
  if (SH_RUNNERS.has(wrapper)) return "sh";
  if (BASH_RUNNERS.has(wrapper)) return "bash";
  if (wrapper === "env")
    return {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: env's syntax, not a template
      other: "env -S splits its string by its own rules (quotes, \\_, ${VAR}), not a shell's",
    };
  return { other: `${wrapper} runs its string in the user's login shell, whose language is not known here` };
}

/**
 * One simple command of plain words (no quotes, expansions or operators): every shell reads it alike.
 * A word starting with `=` is a command's path to zsh, with `%` a job to csh.
 */
function plainEverywhere(src: string): boolean {
  const parsed = plainCommand(src);
  if (parsed === null) return false;
  return !/(^|[ \t])[=%]/.test(src);
}

/** Why a script for this dialect may not be read as bash reads it, or null when it may. */
export function dialectConcern(src: string, dialect: Dialect): string | null {
  if (dialect === "bash") return null;
  // A name and plain words (no quote, `$`, `{`, `~`, glob or operator) read alike in every shell.
  if (plainEverywhere(src)) return null;
  if (typeof dialect === "object")
    return `${dialect.other}: only a command of plain words is understood there`;
  return posixConcern(src);
}

/** The fields of a node that are positions or the parser's own bookkeeping, not what the script says. */
function isPosition(v: unknown): boolean {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as { constructor?: { string?: unknown } }).constructor?.string === "*syntax.Pos"
  );
}

// `export NAME=value` is a declaration to bash's grammar and a plain command to the POSIX one; with
// plain names and values (nothing expanded) dash and bash do the same with it.
const SIMPLE_DECL = /^(export|readonly|local)([ \t]+[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_./:@%+,-]*)?)+$/;
// `export NAME=$(…)` or `export NAME="$(…)"` is one too; dash (0.5.11 on, Debian 11+, Ubuntu 22.04+)
// assigns the output as bash does, so the two readings compare by the script inside the substitution.
const SUBSTITUTION_DECL = /^(export|readonly)[ \t]+([A-Za-z_][A-Za-z0-9_]*)=("?)\$\(/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: checking for pure ASCII on purpose
const ASCII = /^[\u0000-\u007f]*$/;

/** A tree as text: node types and their fields, positions left out (two readings compare equal or not). */
function shape(v: unknown, src: string, depth = 0): string {
  if (depth > 400) throw new Error("the script is nested too deeply to compare");
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "undefined";
  const o = v as { $array?: ArrayLike<unknown>; $offset?: number; $length?: number } & Record<
    string,
    unknown
  >;
  if (o.$array !== undefined && typeof o.$length === "number") {
    const items: string[] = [];
    for (let i = 0; i < o.$length; i++) items.push(shape(o.$array[(o.$offset ?? 0) + i], src, depth + 1));
    return `[${items.join(",")}]`;
  }
  const type = (o.constructor as { string?: unknown; nil?: unknown } | undefined)?.string;
  if (typeof type !== "string" || o === (o.constructor as { nil?: unknown }).nil) return "nil";
  if ((type === "*syntax.DeclClause" || type === "*syntax.CallExpr") && ASCII.test(src)) {
    const n = o as unknown as RawNode;
    const text = src.slice(n.Pos().Offset(), n.End().Offset());
    if (SIMPLE_DECL.test(text)) return `decl(${text})`;
    const substituted = substitutionDecl(n, text, src, depth);
    if (substituted !== null) return substituted;
  }
  const fields = Object.keys(o)
    .filter((k) => !k.startsWith("$") && typeof o[k] !== "function" && !isPosition(o[k]))
    .map((k) => `${k}:${shape(o[k], src, depth + 1)}`);
  return `${type}{${fields.join(",")}}`;
}

/** `export NAME=$(…)` as text with the substitution's tree in it, or null when the node is not one. */
function substitutionDecl(n: RawNode, text: string, src: string, depth: number): string | null {
  const m = SUBSTITUTION_DECL.exec(text);
  if (m === null) return null;
  const [head, builtin, name, quote = ""] = m;
  if (!text.endsWith(`)${quote}`)) return null;
  const start = n.Pos().Offset();
  const open = start + head.length - 2;
  const close = start + text.length - quote.length;
  for (const sub of nodes(n))
    if (typeOf(sub) === "*syntax.CmdSubst" && sub.Pos().Offset() === open && sub.End().Offset() === close)
      return `decl(${builtin} ${name}=${quote}${shape(sub, src, depth + 1)}${quote})`;
  return null;
}

/**
 * A dash older than 0.5.11 splits an unquoted `$(…)` in `export NAME=$(…)` into words, each `N=v` one more
 * assignment (`PATH=…`): harmless only where nothing runs after it (the end of the script, no trap).
 */
function splitConcern(posix: RawNode, src: string): string | null {
  let last = true;
  let trap = false;
  for (const n of nodes(posix)) {
    if (typeOf(n) !== "*syntax.CallExpr") continue;
    const args = items(n, "Args");
    const name = args[0] ? unquotedText(args[0]) : "";
    if (name === "trap") trap = true;
    if (name !== "export" && name !== "readonly") continue;
    const unquoted = args
      .slice(1)
      .some((w) => items(w, "Parts").some((p) => typeOf(p) === "*syntax.CmdSubst"));
    if (unquoted && n.End().Offset() !== src.trimEnd().length) last = false;
  }
  if (last && !trap) return null;
  return 'an unquoted `$(…)` in export or readonly with commands after it: a dash before 0.5.11 splits its output into more assignments (quote it: "$(…)")';
}

/** Every node of a raw tree, in no particular order. */
function* nodes(v: unknown, depth = 0): Generator<RawNode> {
  if (v === null || typeof v !== "object" || depth > 400) return;
  const o = v as { $array?: ArrayLike<unknown>; $offset?: number; $length?: number } & Record<
    string,
    unknown
  >;
  if (o.$array !== undefined && typeof o.$length === "number") {
    for (let i = 0; i < o.$length; i++) yield* nodes(o.$array[(o.$offset ?? 0) + i], depth + 1);
    return;
  }
  const type = (o.constructor as { string?: unknown } | undefined)?.string;
  if (typeof type !== "string" || !type.startsWith("*syntax.") || type === "*syntax.Pos") return;
  if (o === (o.constructor as { nil?: unknown }).nil) return;
  yield o as unknown as RawNode;
  for (const k of Object.keys(o)) if (!k.startsWith("$")) yield* nodes(o[k], depth + 1);
}

function typeOf(n: RawNode): string {
  return String(n.constructor.string);
}

/** The elements of a node's list field (a word's parts, a call's arguments). */
function items(n: RawNode, field: string): RawNode[] {
  const s = n[field] as { $array: ArrayLike<RawNode>; $offset: number; $length: number };
  const out: RawNode[] = [];
  for (let i = 0; i < s.$length; i++) out.push(s.$array[s.$offset + i] as RawNode);
  return out;
}

/** A word's unquoted literal text, with a NUL for each quoted or expanded part. */
function unquotedText(word: RawNode): string {
  return items(word, "Parts")
    .map((p) => (typeOf(p) === "*syntax.Lit" ? String(p.Value) : "\u0000"))
    .join("");
}

/** dash's special builtins: an assignment before one stays set after it (`PATH=x :` changes PATH). */
const SPECIAL_BUILTINS: ReadonlySet<string> = new Set([
  ...[":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set"],
  ...["shift", "times", "trap", "unset"],
]);
/** Unquoted text bash expands and dash does not: a brace expansion `{a,b}` / `{1..3}`. */
const BRACES = /\{[^{}]*(,|\.\.)[^{}]*\}/;
/** Glob brackets bash and dash read differently: `[^…]` negates only in bash; `[[=c=]]`, `[[.c.]]` are bash's. */
const GLOB_BRACKETS = /\[\^|\[\[[=.]/;
/** `~+` and `~-` are $PWD and $OLDPWD to bash, a user named `+` or `-` (so the text as it is) to dash. */
const TILDE_DIRS = /(^|[=:])~[+-]/;

function posixConcern(src: string): string | null {
  let bash: RawNode;
  let posix: RawNode;
  try {
    ({ bash, posix } = bothReadings(src));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `sh (dash) cannot read the script as POSIX shell (${why})`;
  }
  if (shape(bash, src) !== shape(posix, src))
    return "the script reads differently to sh (dash, or bash as sh) and to bash: it uses bash-only syntax ($'…', [[, ((, &>, let, declare, time, +=…)";
  const split = splitConcern(posix, src);
  if (split !== null) return split;
  for (const n of nodes(posix)) {
    const type = typeOf(n);
    if (type === "*syntax.Word") {
      const unquoted = unquotedText(n);
      if (BRACES.test(unquoted))
        return "the script has a brace expansion, which bash expands and sh (dash) does not";
      if (TILDE_DIRS.test(unquoted))
        return "the script has `~+` or `~-`, a directory to bash and plain text to sh (dash)";
      if (GLOB_BRACKETS.test(unquoted))
        return "the script has a glob bracket ([^…], [[=c=]] or [[.c.]]) that bash and sh (dash) match differently";
    } else if (type === "*syntax.CallExpr") {
      const head = items(n, "Args")[0];
      const first = head ? items(head, "Parts") : [];
      const only = first.length === 1 ? (first[0] as RawNode) : null;
      const name = only !== null && typeOf(only) === "*syntax.Lit" ? String(only.Value) : null;
      if (items(n, "Assigns").length > 0 && name !== null && SPECIAL_BUILTINS.has(name))
        return `an assignment before the special builtin \`${name}\` stays set after it in sh (dash), not in bash`;
      // bash expands `~` after `=` in any word that looks like an assignment (`cat x=~/.netrc`); dash only in assignments.
      if (items(n, "Args").some((w) => /[=:]~/.test(unquotedText(w))))
        return "an argument has `=~` or `:~`, which bash expands to the home directory and sh (dash) does not";
    }
  }
  return null;
}
