// What bash makes of a word before it runs a command: quote removal, brace expansion, `$'…'`
// escapes, a leading `~` or `$HOME`, and whether the result is a glob pattern. A word whose
// value depends on run time (a variable, a substitution, word splitting) has no value.
import type { StmtEvent, Word, WordPart } from "./walk.ts";

export interface WordValue {
  /** The word after quote removal; `~`, `~user` and `$HOME` are kept as written (see `tilde`). */
  value: string | null;
  /** Unquoted `*`, `?`, `[…]` or an extended glob: bash may replace the word with file names. */
  glob: boolean;
  /** The value starts with a `~` or `~user` bash expands (not a quoted `"~"`). */
  tilde: boolean;
  /** The word is a process substitution: a pipe from a command (judged on its own), not a file. */
  pipe?: boolean;
  /** The word is exactly an unquoted `$(CMD)`: CMD's statement (judged on its own), whose output bash splits. */
  subst?: StmtEvent;
  /**
   * A run-time word bash splits and then expands as a glob again (unquoted-globs.ts): its unquoted
   * expansions, and whether an unquoted glob character stands beside them (`"$d"/*`).
   */
  rescan?: { parts: readonly WordPart[]; glob: boolean };
}

export const DYNAMIC_WORD: WordValue = Object.freeze({ value: null, glob: false, tilde: false });
const dynamicWord = (): WordValue => ({ value: null, glob: false, tilde: false });

/** One character of a word as bash sees it: quoted or not; `null` stands for a run-time part. */
interface Ch {
  c: string | null;
  quoted: boolean;
  /** The `~` stands for `$HOME`: home whatever is quoted after it. */
  home?: true;
  /** An unquoted run-time part, whose value bash splits and globs. */
  part?: WordPart;
}

const MAX_EXPANSIONS = 256;

/** `$'…'` as bash decodes it; null when the result is not plain text (a high byte, a bad escape). */
export function ansiC(raw: string): string | null {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = raw[i + 1];
    if (e === undefined) return out + c;
    i++;
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    const s = Object.hasOwn(simple, e) ? simple[e] : undefined;
    if (s !== undefined) {
      out += s;
      continue;
    }
    let code: number | null = null;
    const take = (re: RegExp, max: number, base: number): number | null => {
      let digits = "";
      while (digits.length < max && re.test(raw[i + 1] ?? "")) digits += raw[++i];
      return digits === "" ? null : Number.parseInt(digits, base);
    };
    if (/[0-7]/.test(e)) {
      i--;
      code = (take(/[0-7]/, 3, 8) as number) & 0xff;
    } else if (e === "x") {
      code = take(/[0-9a-fA-F]/, 2, 16);
      if (code === null) {
        out += "\\x";
        continue;
      }
    } else if (e === "u" || e === "U") {
      code = take(/[0-9a-fA-F]/, e === "u" ? 4 : 8, 16);
      if (code === null) {
        out += `\\${e}`;
        continue;
      }
      // Beyond ASCII the bytes depend on the locale bash runs in.
      if (code >= 0x80) return null;
    } else if (e === "c") {
      const x = raw[++i];
      if (x === undefined) return null;
      code = x === "?" ? 0x7f : x.toUpperCase().charCodeAt(0) & 0x1f;
    } else {
      out += `\\${e}`;
      continue;
    }
    if (code === 0) return out; // bash ends the string at a NUL
    if (code >= 0x80) return null; // a lone high byte is not UTF-8: bash and this reading differ
    out += String.fromCharCode(code);
  }
  return out;
}

function pushText(out: Ch[], text: string, quoted: boolean): void {
  for (const c of text) out.push({ c, quoted });
}

/** Unquoted literal text: a backslash quotes the next character; backslash-newline is removed. */
function pushBare(out: Ch[], raw: string): void {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === "\\" && i + 1 < raw.length) {
      const n = raw[++i] as string;
      if (n !== "\n") out.push({ c: n, quoted: true });
    } else out.push({ c, quoted: false });
  }
}

/** Inside double quotes only `$`, backtick, `"`, `\` and newline are escapable. */
function pushDouble(out: Ch[], raw: string): void {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    const n = raw[i + 1];
    if (c === "\\" && n !== undefined && '$`"\\\n'.includes(n)) {
      i++;
      if (n !== "\n") out.push({ c: n, quoted: true });
    } else out.push({ c, quoted: true });
  }
}

/** A variable bash knows statically here: `$HOME` as a leading `~`, `$PWD` as `.`. */
function pushParam(out: Ch[], name: string, first: boolean): boolean {
  if (!first) return false;
  if (name === "HOME") out.push({ c: "~", quoted: false, home: true });
  else if (name === "PWD") out.push({ c: ".", quoted: true });
  else return false;
  return true;
}

function chars(parts: readonly WordPart[], out: Ch[], inDouble: boolean): void {
  for (const part of parts) {
    const first = out.length === 0;
    switch (part.type) {
      case "lit":
        if (inDouble) pushDouble(out, part.value);
        else pushBare(out, part.value);
        break;
      case "sgl": {
        const text = part.dollar ? ansiC(part.value) : part.value;
        if (text === null) out.push({ c: null, quoted: true });
        // An empty quoted string is still a word ('' is an empty argument).
        else if (text === "") out.push({ c: "", quoted: true });
        else pushText(out, text, true);
        break;
      }
      case "dbl":
        // $"…" is translated through the locale's message catalogue.
        if (part.dollar) out.push({ c: null, quoted: true });
        else if (part.parts.length === 0) out.push({ c: "", quoted: true });
        else chars(part.parts, out, true);
        break;
      case "param":
        if (!pushParam(out, part.name, first)) out.push(runTime(part, inDouble));
        break;
      case "extglob":
        for (const c of part.value) out.push({ c, quoted: false });
        break;
      case "procsubst":
        out.push({ c: null, quoted: true });
        break;
      case "subst":
      case "dynamic":
        out.push(runTime(part, inDouble));
        break;
    }
  }
}

/** A part only known at run time; outside double quotes, bash splits and globs what it gives. */
function runTime(part: WordPart, inDouble: boolean): Ch {
  return inDouble ? { c: null, quoted: true } : { c: null, quoted: false, part };
}

function isGlob(word: readonly Ch[]): boolean {
  for (let i = 0; i < word.length; i++) {
    const { c, quoted } = word[i] as Ch;
    if (quoted || c === null) continue;
    if (c === "*" || c === "?") return true;
    // `[` starts a bracket expression only when a `]` closes it; a lone `[` (the test
    // builtin's name) is a plain word.
    if (c === "[" && word.slice(i + 2).some((x) => x.c === "]")) return true;
    // Extended glob operators `@( !( +( ?( *(` (the `?`/`*` forms are caught above).
    if ((c === "@" || c === "!" || c === "+") && word[i + 1]?.c === "(" && !word[i + 1]?.quoted) return true;
  }
  return false;
}

function readValue(word: readonly Ch[]): WordValue {
  let value = "";
  for (const ch of word) {
    if (ch.c === null) return rescanned(word);
    value += ch.c;
  }
  return { value, glob: isGlob(word), tilde: tildeExpands(word) };
}

/** A run-time word: what bash splits and globs again in it, if anything. */
function rescanned(word: readonly Ch[]): WordValue {
  const parts = word.flatMap((ch) => (ch.part === undefined ? [] : [ch.part]));
  const glob = isGlob(word);
  return parts.length > 0 || glob ? { ...dynamicWord(), rescan: { parts, glob } } : dynamicWord();
}

/** bash expands a leading `~` when nothing up to the first unquoted `/` is quoted. */
function tildeExpands(word: readonly Ch[]): boolean {
  const head = word[0];
  if (head?.c !== "~" || head.quoted) return false;
  if (head.home) return true;
  for (const ch of word) {
    if (ch.c === "/" && !ch.quoted) return true;
    if (ch.quoted) return false;
  }
  return true;
}

// --- brace expansion -------------------------------------------------------------------------

/** An unquoted `$` right before: `${` is a parameter expansion, not a brace expression. */
function dollarBefore(word: readonly Ch[], at: number): boolean {
  const prev = word[at - 1];
  return prev?.c === "$" && !prev.quoted;
}

/** The index of the `}` closing the `{` at `open`, or -1. */
function closing(word: readonly Ch[], open: number): number {
  let depth = 0;
  for (let i = open; i < word.length; i++) {
    const { c, quoted } = word[i] as Ch;
    if (quoted || c === null) continue;
    if (c === "{" && !dollarBefore(word, i)) depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Top-level alternatives of a brace body split on unquoted commas; null when there is no comma. */
function alternatives(body: readonly Ch[]): Ch[][] | null {
  const out: Ch[][] = [[]];
  let depth = 0;
  for (const ch of body) {
    if (!ch.quoted && ch.c === "{") depth++;
    if (!ch.quoted && ch.c === "}") depth--;
    if (!ch.quoted && ch.c === "," && depth === 0) out.push([]);
    else out[out.length - 1]?.push(ch);
  }
  return out.length > 1 ? out : null;
}

/** `{a..e}`, `{1..10..2}`, `{01..3}`: the items, or null when the body is not a sequence. */
function sequence(body: readonly Ch[]): Ch[][] | null {
  if (body.some((c) => c.c === null || c.quoted)) return null;
  const text = body.map((c) => c.c).join("");
  const num = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/.exec(text);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(text);
  const m = num ?? chr;
  if (!m) return null;
  const [from, to] = num
    ? [Number(m[1]), Number(m[2])]
    : [(m[1] as string).charCodeAt(0), (m[2] as string).charCodeAt(0)];
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_EXPANSIONS) return null;
  const width =
    num && (/^[-+]?0\d/.test(m[1] as string) || /^[-+]?0\d/.test(m[2] as string))
      ? Math.max((m[1] as string).length, (m[2] as string).length)
      : 0;
  const items: Ch[][] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    let s = num ? String(Math.abs(v)).padStart(v < 0 ? width - 1 : width, "0") : String.fromCharCode(v);
    if (num && v < 0) s = `-${s}`;
    items.push([...s].map((c) => ({ c, quoted: false })));
  }
  return items;
}

function expandBraces(word: Ch[], budget: { left: number }): Ch[][] | null {
  for (let open = 0; open < word.length; open++) {
    const ch = word[open] as Ch;
    if (ch.quoted || ch.c !== "{" || dollarBefore(word, open)) continue;
    const close = closing(word, open);
    if (close === -1) continue;
    const body = word.slice(open + 1, close);
    const alts = alternatives(body) ?? sequence(body);
    if (alts === null) continue;
    const pre = word.slice(0, open);
    const post = expandBraces(word.slice(close + 1), budget);
    if (post === null) return null;
    const out: Ch[][] = [];
    for (const alt of alts) {
      const inner = expandBraces(alt, budget);
      if (inner === null) return null;
      for (const a of inner)
        for (const p of post) {
          if (--budget.left < 0) return null;
          out.push([...pre, ...a, ...p]);
        }
    }
    return out;
  }
  return [word];
}

/** The value of a word where bash needs exactly one (a redirect target): braces are not expanded. */
const PIPE: WordValue = { value: "/dev/fd/63", glob: false, tilde: false, pipe: true };

/** Characters after which a literal needs the full reading (escapes, globs, braces, `~`, extglobs). */
const SPECIAL_LIT = /[\\*?[{]|^~|[@!+]\(/;

/**
 * Most words are one plain literal or one quoted string: their value is the text itself, with no
 * per-character reading. Null when the word needs the full reading.
 */
function plainValue(word: Word): WordValue | null {
  if (word.parts.length !== 1) return null;
  const p = word.parts[0] as WordPart;
  if (p.type === "lit") {
    if (p.value === "[" || p.value === "[[") return { value: p.value, glob: false, tilde: false };
    return SPECIAL_LIT.test(p.value) ? null : { value: p.value, glob: false, tilde: false };
  }
  if (p.type === "sgl" && !p.dollar) return { value: p.value, glob: false, tilde: false };
  if (p.type === "procsubst") return { ...PIPE };
  if (p.type === "subst")
    return { value: null, glob: false, tilde: false, subst: p.stmt, rescan: { parts: [p], glob: false } };
  return null;
}

export function wordValue(word: Word): WordValue {
  const plain = plainValue(word);
  if (plain !== null) return plain;
  const cs: Ch[] = [];
  chars(word.parts, cs, false);
  const v = readValue(cs);
  // A brace expression in a redirect target is an "ambiguous redirect" in bash, or one name.
  if (v.value !== null && cs.some((c) => !c.quoted && c.c === "{")) {
    const expanded = expandBraces(cs, { left: MAX_EXPANSIONS });
    if (expanded === null || expanded.length !== 1) return DYNAMIC_WORD;
  }
  return v;
}

/**
 * The words a command word becomes after brace expansion (`{a,b}x` → `ax`, `bx`); empty
 * unquoted results disappear as in bash. One dynamic entry when the count is not knowable.
 */
export function expandWord(word: Word): WordValue[] {
  const plain = plainValue(word);
  if (plain !== null) return [plain];
  const cs: Ch[] = [];
  chars(word.parts, cs, false);
  if (!cs.some((c) => !c.quoted && c.c === "{")) return [readValue(cs)];
  const expanded = expandBraces(cs, { left: MAX_EXPANSIONS });
  if (expanded === null) return [dynamicWord()];
  return expanded.filter((w) => w.length > 0).map(readValue);
}
