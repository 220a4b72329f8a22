// What a shell word means before expansion: its literal value when the shell would pass it
// through unchanged, or null when it depends on run time (variables, substitutions, $'..').
import type { Word, WordPart } from "./shell-parser.ts";

/** Removes shell backslash quoting outside quotes: `\r` → `r`, backslash-newline → nothing. */
function unescapeBare(raw: string): string {
  return raw.includes("\\") ? raw.replace(/\\(\n|.)/g, (_m, ch: string) => (ch === "\n" ? "" : ch)) : raw;
}

/** Inside double quotes only `$`, backtick, `"`, `\` and newline are escapable. */
function unescapeDouble(raw: string): string {
  return raw.includes("\\")
    ? raw.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch))
    : raw;
}

export interface WordValue {
  /** The literal value, or null when the word is not static. */
  value: string | null;
  /** Unquoted glob or brace characters: the shell may expand the word into other words. */
  expands: boolean;
}

// Unescaped *, ?, [ glob; { may brace-expand; a leading ~ is fine (a path).
const GLOB = /(^|[^\\])[*?[{]/;

export function wordValue(word: Word): WordValue {
  let value = "";
  let expands = false;
  for (const part of word.parts as readonly WordPart[]) {
    if (part.type === "lit") {
      if (GLOB.test(part.value)) expands = true;
      value += unescapeBare(part.value);
    } else if (part.type === "sgl") {
      if (part.dollar) return { value: null, expands };
      value += part.value;
    } else if (part.type === "dbl") {
      if (part.dollar) return { value: null, expands };
      for (const inner of part.parts) {
        if (inner.type !== "lit") return { value: null, expands };
        value += unescapeDouble(inner.value);
      }
    } else {
      return { value: null, expands };
    }
  }
  return { value, expands };
}
