// sed and awk take a program as an argument, and that program can run commands (sed's `e`,
// awk's system() and pipes), write files (sed's `w`, awk's `print > f`) or read them (sed's `r`,
// awk's getline < f). These scanners find those commands; anything they cannot read counts as
// the worst case.

export interface ScriptFinding {
  risk: "exec" | "write" | "read";
  why: string;
  /** The file written or read, when the script names one. */
  file?: string;
}

/** The index after a bracket expression opening at `at` (`[]/]`, `[^]x]`, `[[:alpha:]/]`); -1 when unclosed. */
function bracketEnd(s: string, at: number): number {
  let i = at + 1;
  if (s[i] === "^") i++;
  if (s[i] === "]") i++; // a `]` first is a member, not the end
  while (i < s.length) {
    const c = s[i];
    if (c === "[" && /[:=.]/.test(s[i + 1] ?? "")) {
      const close = s.indexOf(`${s[i + 1]}]`, i + 2);
      if (close === -1) return -1;
      i = close + 2;
    } else if (c === "]") return i + 1;
    else if (c === "\n") return -1;
    else i++;
  }
  return -1;
}

/**
 * Reads a delimited part of an `s` or `y` command, or an address; returns the index after the closing
 * delimiter. In a regex (`regex`), a bracket expression holds the delimiter as a member (`s/[]/]x/y/`).
 */
function delimited(s: string, at: number, delim: string, regex = false): number {
  let i = at;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") i += 2;
    else if (regex && c === "[" && delim !== "[") {
      const end = bracketEnd(s, i);
      if (end === -1) return -1;
      i = end;
    } else if (c === delim) return i + 1;
    else if (c === "\n" && delim !== "\n") return -1;
    else i++;
  }
  return -1;
}

function restOfLine(s: string, at: number): { text: string; end: number } {
  const nl = s.indexOf("\n", at);
  const end = nl === -1 ? s.length : nl;
  return { text: s.slice(at, end).trim(), end };
}

/** The commands of a sed script that run, write or read; null when it cannot be read. */
export function scanSed(script: string): ScriptFinding[] | null {
  const out: ScriptFinding[] = [];
  let i = 0;
  const s = script;
  while (i < s.length) {
    const c = s[i] as string;
    if (/[\s;{}!]/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") {
      i = restOfLine(s, i).end;
      continue;
    }
    // Addresses: line numbers, $, ranges, steps, and /regex/ or \cregexc.
    if (/[0-9$,~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "/" ? "/" : s[i + 1];
      if (delim === undefined) return null;
      const end = delimited(s, c === "/" ? i + 1 : i + 2, delim, true);
      if (end === -1) return null;
      i = end;
      while (/[IM]/.test(s[i] ?? "")) i++;
      continue;
    }
    i++;
    switch (c) {
      case ":":
      case "b":
      case "t":
      case "T": {
        // GNU sed ends a label at whitespace or a semicolon: `:x w FILE` is a label, then a `w`.
        while (s[i] === " " || s[i] === "\t") i++;
        while (i < s.length && !/[\s;]/.test(s[i] as string)) i++;
        break;
      }
      case "s":
      case "y": {
        const delim = s[i];
        if (delim === undefined || delim === "\n" || delim === "\\") return null;
        let end = delimited(s, i + 1, delim, c === "s");
        if (end === -1) return null;
        end = delimited(s, end, delim);
        if (end === -1) return null;
        i = end;
        if (c === "y") break;
        // Flags: g p i I m M e N w FILE.
        while (i < s.length && /[gpiImMe0-9]/.test(s[i] as string)) {
          if (s[i] === "e")
            out.push({ risk: "exec", why: "the s///e flag runs the pattern space as a command" });
          i++;
        }
        if (s[i] === "w") {
          const { text, end: e } = restOfLine(s, i + 1);
          out.push({ risk: "write", why: "the s///w flag writes to a file", file: text });
          i = e;
        }
        break;
      }
      case "a":
      case "i":
      case "c": {
        // Text to the end of the line, continued by a trailing backslash.
        let { end } = restOfLine(s, i);
        while (end < s.length && s[end - 1] === "\\") end = restOfLine(s, end + 1).end;
        i = end;
        break;
      }
      case "r":
      case "R": {
        const { text, end } = restOfLine(s, i);
        out.push({ risk: "read", why: `the ${c} command reads a file`, file: text });
        i = end;
        break;
      }
      case "w":
      case "W": {
        const { text, end } = restOfLine(s, i);
        out.push({ risk: "write", why: `the ${c} command writes a file`, file: text });
        i = end;
        break;
      }
      case "e":
        out.push({ risk: "exec", why: "the e command runs a command" });
        i = restOfLine(s, i).end;
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        while (/[0-9 ]/.test(s[i] ?? "")) i++;
        break;
      case "v":
      case "F":
      case "z":
        while (i < s.length && s[i] !== "\n" && s[i] !== ";") i++;
        break;
      default:
        if (!"nNpPhHgGxdD=".includes(c)) return null;
    }
  }
  return out;
}

/** What an awk program does beyond reading its input; strings and regexes are blanked first. */
export function scanAwk(program: string): ScriptFinding[] {
  // Blank string literals, so `print "a|b"` is not a pipe; a regex literal after an operator too.
  const code = program
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/(^|[\s(,!~&|;{}])\/(?:[^/\\\n]|\\.)+\//g, "$1//")
    .replace(/#[^\n]*/g, "");
  const out: ScriptFinding[] = [];
  if (/\bsystem\s*\(/.test(code)) out.push({ risk: "exec", why: "system() runs a command" });
  if (/\|/.test(code.replace(/\|\|/g, "")))
    out.push({ risk: "exec", why: "a pipe to or from a command runs it" });
  if (/@load\b|@include\b|@namespace\b/.test(code))
    out.push({ risk: "exec", why: "loads code from elsewhere" });
  if (/\b(print|printf)\b[^;{}\n]*>/.test(code))
    out.push({ risk: "write", why: "print > file writes a file" });
  if (/\bgetline\b[^;{}\n]*</.test(code)) out.push({ risk: "read", why: "getline < file reads a file" });
  // ARGV and ARGC name the input files: changed in the program, awk reads files its command line does not name.
  if (
    /\bARG[VC]\b\s*(\[[^\]]*\]\s*)?([-+*/%^]?=(?!=)|\+\+|--)|(\+\+|--)\s*ARGC\b|\b(delete|split|sub|gsub)\b[^;{}\n]*\bARG[VC]\b/.test(
      code,
    )
  )
    out.push({
      risk: "read",
      why: "assigning ARGV or ARGC makes awk read files its command line does not name",
    });
  if (/\bENVIRON\b|\bPROCINFO\b/.test(code))
    out.push({ risk: "read", why: "reads the environment (secrets live there)" });
  return out;
}
