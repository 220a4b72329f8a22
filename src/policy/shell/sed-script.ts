// GNU sed's script reader (sed 4.9, compile.c's compile_program), followed character by character
// so that text, file names, labels and regexes end exactly where sed ends them: a command the
// scan took for text (red team, round 8: `a foo\\` ends its text, so the next line's `1e CMD`
// runs) would be a command it never judged. It reports the commands that run a program (`e`,
// `s///e`), write a file (`w`, `W`, `s///w`) or read one (`r`, `R`); a script sed would refuse
// to compile is not read (null).
import type { ScriptFinding } from "./scripts.ts";

/** The end of the script, as compile.c's inchar() returns EOF. */
const EOF = "";
const BLANK = /^[ \t]$/;
/** isspace() in the C locale: what compile_program skips between commands. */
const SPACE = /^[ \t\n\v\f\r]$/;
const DIGIT = /^[0-9]$/;

class Unreadable extends Error {}

class Reader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  next(): string {
    return this.i < this.s.length ? (this.s[this.i++] as string) : EOF;
  }
  /** savchar(): EOF is never pushed back. */
  back(ch: string): void {
    if (ch !== EOF) this.i--;
  }
  nonblank(): string {
    let ch: string;
    do ch = this.next();
    while (BLANK.test(ch));
    return ch;
  }
  integer(first: string): void {
    let ch = first;
    while (DIGIT.test(ch)) ch = this.next();
    this.back(ch);
  }
}

/** read_end_of_cmd: a command ends at `;`, a newline or the end; `}` and `#` start the next one. */
function endOfCommand(r: Reader): void {
  const ch = r.nonblank();
  if (ch === "}" || ch === "#") r.back(ch);
  else if (ch !== EOF && ch !== "\n" && ch !== ";") throw new Unreadable();
}

/** read_filename: after blanks, everything to the end of the line (`;` and `}` included). */
function fileName(r: Reader): string {
  let ch = r.nonblank();
  let name = "";
  while (ch !== EOF && ch !== "\n") {
    name += ch;
    ch = r.next();
  }
  if (name === "") throw new Unreadable();
  return name;
}

/** read_label: after blanks, up to a blank, `;`, `}`, `#` or the end of the line. */
function label(r: Reader): void {
  let ch = r.nonblank();
  while (ch !== EOF && ch !== "\n" && !BLANK.test(ch) && ch !== ";" && ch !== "}" && ch !== "#")
    ch = r.next();
  r.back(ch);
}

/** snarf_char_class: a bracket expression, `[` already read; returns the character it stopped at. */
function bracket(r: Reader): string {
  let state = 0;
  let delim = "";
  let ch = r.next();
  if (ch === "^") ch = r.next();
  if (ch === "]") ch = r.next();
  for (; ; ch = r.next()) {
    if (ch === EOF || ch === "\n") return ch;
    if (ch === "." || ch === ":" || ch === "=") {
      if (state === 1) {
        delim = ch;
        state = 2;
        continue;
      }
      if (state === 2 && ch === delim) {
        state = 3;
        continue;
      }
    } else if (ch === "[") {
      if (state === 0) state = 1;
      continue;
    } else if (ch === "]") {
      if (state === 0 || state === 1) return ch;
      if (state === 3) state = 0;
    }
    state &= ~1;
  }
}

/** match_slash: a regex (with bracket expressions) or a replacement, up to the unescaped delimiter. */
function slashed(r: Reader, slash: string, regex: boolean): void {
  // sed takes only a single-byte delimiter; a newline never closes one.
  if (slash === EOF || slash === "\n" || slash.charCodeAt(0) > 0x7f) throw new Unreadable();
  for (let ch = r.next(); ch !== EOF && ch !== "\n"; ch = r.next()) {
    if (ch === slash) return;
    if (ch === "\\") {
      // An escaped character, a newline included (a replacement may span lines).
      if (r.next() === EOF) break;
    } else if (ch === "[" && regex && bracket(r) !== "]") break;
  }
  throw new Unreadable();
}

/** read_text: a/i/c/e text up to an unescaped newline; a backslash escapes any character, a newline too. */
function text(r: Reader): void {
  for (let ch = r.next(); ch !== EOF && ch !== "\n"; ch = r.next()) if (ch === "\\") r.next();
}

/** compile_address: true when one was read. */
function address(r: Reader, first: string): boolean {
  let ch = first;
  if (ch === "/" || ch === "\\") {
    if (ch === "\\") ch = r.next();
    slashed(r, ch, true);
    do ch = r.nonblank();
    while (ch === "I" || ch === "M");
    r.back(ch);
    return true;
  }
  if (DIGIT.test(ch)) {
    r.integer(ch);
    ch = r.nonblank();
    if (ch === "~") r.integer(r.nonblank());
    else r.back(ch);
    return true;
  }
  if (ch === "+" || ch === "~") {
    r.integer(r.nonblank());
    return true;
  }
  return ch === "$";
}

/** The flags after `s///`: `e` runs the result, `w FILE` writes (and ends the command). */
function substFlags(r: Reader, out: ScriptFinding[]): void {
  for (;;) {
    const ch = r.nonblank();
    if ("iImMpg".includes(ch) && ch !== EOF) continue;
    if (ch === "e") out.push({ risk: "exec", why: "the s///e flag runs the pattern space as a command" });
    else if (ch === "w") {
      out.push({ risk: "write", why: "the s///w flag writes to a file", file: fileName(r) });
      return;
    } else if (DIGIT.test(ch)) r.integer(ch);
    else if (ch === "}" || ch === "#") {
      r.back(ch);
      return;
    } else if (ch === EOF || ch === "\n" || ch === ";") return;
    else if (ch === "\r" && r.next() === "\n") return;
    else throw new Unreadable();
  }
}

function command(r: Reader, ch: string, out: ScriptFinding[]): void {
  switch (ch) {
    case "#":
      for (let c = r.next(); c !== EOF && c !== "\n"; c = r.next());
      return;
    case "v":
    case ":":
    case "b":
    case "t":
    case "T":
      label(r);
      return;
    case "{":
      return;
    case "}":
      endOfCommand(r);
      return;
    case "e":
    case "a":
    case "i":
    case "c": {
      const c = r.nonblank();
      if (ch === "e") {
        out.push({ risk: "exec", why: "the e command runs a command" });
        if (c === EOF || c === "\n") return;
      }
      if (c === EOF) throw new Unreadable();
      // `a\` then the text (the next line when the backslash ends this one); `a text` is the GNU one-liner.
      // (The character after that backslash is the text's first, taken as it is: `a\\` is the text `\`.)
      if (c === "\\") {
        if (r.next() === EOF) return;
      } else r.back(c);
      text(r);
      return;
    }
    case "q":
    case "Q":
    case "l":
    case "L": {
      const c = r.nonblank();
      if (DIGIT.test(c)) r.integer(c);
      else r.back(c);
      endOfCommand(r);
      return;
    }
    case "r":
    case "R":
      out.push({ risk: "read", why: `the ${ch} command reads a file`, file: fileName(r) });
      return;
    case "w":
    case "W":
      out.push({ risk: "write", why: `the ${ch} command writes a file`, file: fileName(r) });
      return;
    case "s": {
      const slash = r.next();
      slashed(r, slash, true);
      slashed(r, slash, false);
      substFlags(r, out);
      return;
    }
    case "y": {
      const slash = r.next();
      slashed(r, slash, false);
      slashed(r, slash, false);
      endOfCommand(r);
      return;
    }
    default:
      if (ch === EOF || !"=dDFgGhHnNpPzx".includes(ch)) throw new Unreadable();
      endOfCommand(r);
      return;
  }
}

/**
 * The commands of a sed script that run, write or read; null when sed would not compile it. Pieces given
 * with several `-e` are one script joined by newlines (an `a` text ending in a backslash goes on into the
 * next piece, as sed's pending text does).
 */
export function scanSed(script: string): ScriptFinding[] | null {
  const r = new Reader(script);
  const out: ScriptFinding[] = [];
  try {
    for (;;) {
      let ch = r.next();
      while (ch === ";" || SPACE.test(ch)) ch = r.next();
      if (ch === EOF) return out;
      if (address(r, ch)) {
        ch = r.nonblank();
        if (ch === ",") {
          if (!address(r, r.nonblank())) throw new Unreadable();
          ch = r.nonblank();
        }
      }
      if (ch === "!") ch = r.nonblank();
      command(r, ch, out);
    }
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}
