// What a shell word means before expansion: its literal value when the shell would pass it
// through unchanged, or null when it depends on run time (variables, substitutions, $'..').
import { nodeType, type ShLit, type ShNode, type ShQuoted, type ShWord } from "./shell-parser.ts";

/** Removes shell backslash quoting outside quotes: `\r` → `r`, backslash-newline → nothing. */
function unescapeBare(raw: string): string {
  return raw.replace(/\\(\n|.)/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

/** Inside double quotes only `$`, backtick, `"`, `\` and newline are escapable. */
function unescapeDouble(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

export interface WordValue {
  /** The literal value, or null when the word is not static. */
  value: string | null;
  /** Unquoted glob or brace characters: the shell may expand the word into other words. */
  expands: boolean;
}

export function wordValue(word: ShWord): WordValue {
  let value = "";
  let expands = false;
  for (const part of word.Parts) {
    const kind = nodeType(part);
    if (kind === "Lit") {
      const raw = (part as ShLit).Value;
      // Unescaped *, ?, [ glob; { may brace-expand; a leading ~ is fine (a path).
      if (/(^|[^\\])[*?[{]/.test(raw)) expands = true;
      value += unescapeBare(raw);
    } else if (kind === "SglQuoted") {
      const q = part as ShQuoted;
      if (q.Dollar) return { value: null, expands };
      value += q.Value;
    } else if (kind === "DblQuoted") {
      const q = part as ShQuoted;
      if (q.Dollar) return { value: null, expands };
      for (const inner of q.Parts) {
        if (nodeType(inner) !== "Lit") return { value: null, expands };
        value += unescapeDouble((inner as ShLit).Value);
      }
    } else {
      return { value: null, expands };
    }
  }
  return { value, expands };
}

export function isWordNode(node: ShNode | null): node is ShWord {
  return node !== null && nodeType(node) === "Word";
}
