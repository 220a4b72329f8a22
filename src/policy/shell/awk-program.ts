// An awk program read as awk's own lexer reads it, to find what it does beyond reading its input:
// system(), pipes to and from commands and gawk's `@` forms run programs; `print > f` writes f;
// `getline < f` reads f; ENVIRON shows the environment; ARGV and ARGC change which files it reads.
//
// The one hard part is `/`: a regex where an operand is expected, a division after one (red team,
// round 8: `x = 1 / 2; system("…"); y = 3 / 4` hid the system() as one regex). The awks do not all
// agree where that is: mawk (Debian's awk) decides by the token before (`can_precede_div` in
// scan.c: a number, string, name, field, `)`, `]`, regex, getline, `++`/`--`), gawk by its grammar
// (`want_regexp`: a regex after `if (…)`, `case`, a division after `length`). So a `/` after a token
// the awks may read differently is read both ways, as is a `/` inside a regex's bracket expression
// (`/[/]/`); every reading that lexes is judged, and what any of them finds counts.
import type { ScriptFinding } from "./scripts.ts";

type Kind = "num" | "str" | "re" | "name" | "op" | "nl";
interface Token {
  kind: Kind;
  text: string;
}

/** Keywords of every awk: after them an operand (so a regex) comes. */
const KEYWORDS: ReadonlySet<string> = new Set([
  ...["BEGIN", "END", "function", "if", "else", "while", "for", "do", "break", "continue", "next"],
  ...["exit", "return", "delete", "in", "print", "printf"],
]);
/**
 * Names one awk reads as a keyword or built-in and another as a variable, or after which the awks read
 * `/` differently (`length / 2` divides in gawk; mawk starts a regex after any built-in).
 */
const EITHER: ReadonlySet<string> = new Set([
  ...["getline", "func", "switch", "case", "default", "nextfile", "BEGINFILE", "ENDFILE"],
  ...["length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2"],
  ...["exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system", "close", "fflush"],
  ...["gensub", "and", "or", "xor", "compl", "lshift", "rshift", "strftime", "systime", "mktime"],
  ...["asort", "asorti", "patsplit", "isarray", "typeof", "strtonum", "mkbool", "dcgettext"],
  ...["dcngettext", "bindtextdomain"],
]);
/** After these a newline does not end the statement (mawk's eat_nl, gawk's grammar). */
const GLUE: ReadonlySet<string> = new Set([",", "{", "&&", "||", ";", "do", "else"]);
const OPERATORS = [
  ...["&&", "||", "|&", "**=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!="],
  ...["!~", ">>", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "%", "^", "!", ">"],
  ...["<", "|", "~", "?", ":", "=", "$", "@"],
];
/** Forks are read both ways; a program with more readings than this is not read. */
const MAX_READINGS = 64;

/** Where a `/` after this token starts: a division, a regex, or either (read both ways). */
function slashAfter(prev: Token | undefined): "div" | "re" | "either" {
  if (prev === undefined) return "re";
  switch (prev.kind) {
    case "num":
    case "str":
      return "div";
    case "re":
      return "either";
    case "name":
      if (EITHER.has(prev.text)) return "either";
      return KEYWORDS.has(prev.text) ? "re" : "div";
    case "op":
      if (prev.text === "]") return "div";
      return prev.text === ")" || prev.text === "++" || prev.text === "--" ? "either" : "re";
    default:
      return "re";
  }
}

class Unlexable extends Error {}

/** One reading: at the k-th fork, `regexAt(k)` says which way; `forks` counts the forks met. */
function lex(src: string, regexAt: (k: number) => boolean): { tokens: Token[]; forks: number } {
  const tokens: Token[] = [];
  let forks = 0;
  const fork = () => regexAt(forks++);
  let i = 0;
  const push = (kind: Kind, text: string) => tokens.push({ kind, text });
  while (i < src.length) {
    const c = src[i] as string;
    const prev = tokens[tokens.length - 1];
    if (c === " " || c === "\t") {
      i++;
    } else if (c === "\\") {
      // A line continuation: blanks, then a newline (anything else is an error to mawk and gawk).
      let j = i + 1;
      while (src[j] === " " || src[j] === "\t") j++;
      if (src[j] === "\r") j++;
      if (src[j] !== "\n") throw new Unlexable();
      i = j + 1;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i + 1] !== "\n") throw new Unlexable();
      if (prev !== undefined && prev.kind !== "nl" && !GLUE.has(prev.text)) push("nl", "\n");
      i += c === "\r" ? 2 : 1;
    } else if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === '"') {
      i = stringEnd(src, i + 1);
      push("str", '""');
    } else if (c === "/") {
      const way = slashAfter(prev);
      if (way === "re" || (way === "either" && fork())) {
        i = regexEnd(src, i + 1, fork);
        push("re", "//");
      } else if (src[i + 1] === "=") {
        push("op", "/=");
        i += 2;
      } else {
        push("op", "/");
        i++;
      }
    } else if (/[0-9.]/.test(c)) {
      const m = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i));
      if (m === null) throw new Unlexable();
      push("num", m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i)) as RegExpExecArray;
      push("name", m[0]);
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i));
      if (op === undefined) throw new Unlexable();
      // `a++ /` and `++a`: the token is the same; `slashAfter` reads both ways after it.
      push("op", op);
      i += op.length;
    }
  }
  return { tokens, forks };
}

/** The index after a string's closing quote; a backslash escapes any character, a newline included. */
function stringEnd(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === '"') return i + 1;
    if (c === "\n") break;
    if (c === "\\") i++;
  }
  throw new Unlexable();
}

/**
 * The index after a regex's closing slash. `\/` does not close it; a backslash-newline is a
 * continuation (mawk). A `/` after a `[` in it may close it (an awk that does not read bracket
 * expressions there) or not (gawk, newer mawk): read both ways.
 */
function regexEnd(src: string, from: number, fork: () => boolean): number {
  let bracket = false;
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === "\n") break;
    if (c === "\\") i++;
    else if (c === "[") bracket = true;
    else if (c === "/" && (!bracket || fork())) return i + 1;
  }
  throw new Unlexable();
}

const ASSIGNING = new Set(["=", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "++", "--"]);
/** Built-ins that only read their arguments (any other function may change an array passed to it). */
const READ_ONLY_CALLS: ReadonlySet<string> = new Set([
  ...["length", "substr", "index", "sprintf", "sin", "cos", "atan2", "exp", "log", "sqrt", "int"],
  ...["tolower", "toupper", "close", "fflush", "srand", "and", "or", "xor", "compl", "lshift", "rshift"],
  ...["strftime", "mktime", "isarray", "typeof", "strtonum"],
]);

/**
 * Whether the ARGV or ARGC at `at` may be changed there: assigned, incremented, deleted, read into by
 * getline, a `for (… in …)` variable, a whole array handed to a function, or an argument of a call that
 * may change it (`sub(/x/, "y", ARGV[1])`, `split(s, ARGV)`). Reading `ARGV[1]` is not.
 */
function changesArgs(tokens: readonly Token[], at: number, calls: readonly boolean[]): boolean {
  const prev = tokens[at - 1]?.text;
  if (prev === "++" || prev === "--" || prev === "delete" || prev === "getline") return true;
  if (calls.some((mayChange) => mayChange)) return true;
  // `(k in ARGV)`, `for (k in ARGV)`: the array is only read.
  if (prev === "in") return false;
  let next = at + 1;
  if (tokens[next]?.text === "[") {
    for (let depth = 0; next < tokens.length; next++) {
      const t = tokens[next]?.text;
      if (t === "[") depth++;
      else if (t === "]" && --depth === 0) break;
    }
    next++;
  } else if (tokens[at]?.text === "ARGV") return true;
  const after = tokens[next]?.text ?? "";
  return ASSIGNING.has(after) || after === "in";
}

/** What one reading's tokens do. */
function findings(tokens: readonly Token[]): ScriptFinding[] {
  const out: ScriptFinding[] = [];
  const add = (f: ScriptFinding) => {
    if (!out.some((o) => o.why === f.why)) out.push(f);
  };
  let inPrint = false;
  let afterGetline = false;
  // One entry per open parenthesis: whether it holds the arguments of a call that may change them.
  const calls: boolean[] = [];
  tokens.forEach((t, i) => {
    const { kind, text } = t;
    if (kind === "nl" || text === ";" || text === "}") inPrint = false;
    if (text === "(") {
      const before = tokens[i - 1];
      calls.push(before?.kind === "name" && !KEYWORDS.has(before.text) && !READ_ONLY_CALLS.has(before.text));
    } else if (text === ")") calls.pop();
    if (kind === "name") {
      if (text === "system") add({ risk: "exec", why: "system() runs a command" });
      else if (text === "print" || text === "printf") inPrint = true;
      else if (text === "getline") afterGetline = true;
      else if (/^(ENVIRON|PROCINFO|SYMTAB|FUNCTAB)$/.test(text))
        add({ risk: "read", why: "reads the environment (secrets live there)" });
      else if ((text === "ARGV" || text === "ARGC") && changesArgs(tokens, i, calls))
        add({
          risk: "read",
          why: "changing ARGV or ARGC makes awk read files its command line does not name",
        });
    } else if (kind === "op") {
      if (text === "|" || text === "|&") add({ risk: "exec", why: "a pipe to or from a command runs it" });
      else if (text === "@")
        add({ risk: "exec", why: "gawk's @include, @load and @name() run code from elsewhere" });
      else if (inPrint && (text === ">" || text === ">>"))
        add({ risk: "write", why: "print > file writes a file" });
      else if (afterGetline && text === "<") add({ risk: "read", why: "getline < file reads a file" });
    }
  });
  return out;
}

/** What an awk program does beyond reading its input; null when no awk would read it the same way. */
export function scanAwk(program: string): ScriptFinding[] | null {
  const out: ScriptFinding[] = [];
  let lexed = 0;
  const pending: boolean[][] = [[]];
  for (let runs = 0; pending.length > 0; runs++) {
    if (runs === MAX_READINGS) return null;
    const choices = pending.pop() as boolean[];
    let seen = 0;
    try {
      const run = lex(program, (k) => {
        seen = Math.max(seen, k + 1);
        return choices[k] ?? false;
      });
      lexed++;
      for (const f of findings(run.tokens)) if (!out.some((o) => o.why === f.why)) out.push(f);
    } catch (error) {
      if (!(error instanceof Unlexable)) throw error;
      // A reading that does not lex is one no awk compiles; with no fork before it, no reading does.
      if (seen === 0) return null;
    }
    // Every fork past the given choices was taken the first way: queue the other way of each.
    for (let k = choices.length; k < seen; k++)
      pending.push([...choices, ...new Array<boolean>(k - choices.length).fill(false), true]);
  }
  return lexed > 0 ? out : null;
}
