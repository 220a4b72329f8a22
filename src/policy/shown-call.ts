// What the person reads on a card: the call as it will run, not a tidy summary. A summary that folds
// whitespace shows `git status # ⏎ rm -rf ~` as one commented line, and one clipped at 300 characters hides
// a payload placed after 300 harmless ones; so the card gets the whole command (redacted), newlines kept,
// and every character that could make the text read differently from what runs made visible.
import { clip } from "./limits.ts";
import { redactText, redactValue } from "./redact.ts";
import { canonicalCalls } from "./tool-names.ts";

/** The card shows at most this much of one call; longer calls say how much is not shown. */
export const MAX_SHOWN_CALL_CHARS = 8 * 1024;

export interface ShownCall {
  /** Redacted, control characters made visible, clipped to MAX_SHOWN_CALL_CHARS. */
  text: string;
  /** Length of the full text before clipping, so the card can say "first 8,192 of 40,000 characters". */
  chars: number;
}

// C0 controls but tab and newline, DEL, C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: making control characters visible is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Bidirectional overrides and isolates, zero-width characters, the BOM: text that renders in an order or a
// shape other than the one bash reads.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

function hex(c: string): string {
  return (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
}

/** Makes every character visible that would otherwise hide or reorder what runs. */
export function visibleText(text: string): string {
  return text
    .replace(CONTROL, (c) => {
      const code = c.codePointAt(0) ?? 0;
      // Control Pictures (U+2400…) for C0, so a carriage return reads ␍ and an escape ␛.
      if (code < 0x20) return String.fromCodePoint(0x2400 + code);
      return code === 0x7f ? "␡" : `⟦U+${hex(c)}⟧`;
    })
    .replace(INVISIBLE, (c) => `⟦U+${hex(c)}⟧`);
}

function shown(full: string): ShownCall {
  // Redact only what could be shown (with room for a secret that straddles the cut): never megabytes.
  const head = full.length > 2 * MAX_SHOWN_CALL_CHARS ? full.slice(0, 2 * MAX_SHOWN_CALL_CHARS) : full;
  const text = visibleText(redactText(head));
  return { text: clip(text, MAX_SHOWN_CALL_CHARS), chars: head === full ? text.length : full.length };
}

/** The text a card shows for one call of `tool` with `input`. */
export function shownCall(tool: string, input: Record<string, unknown>): ShownCall {
  const calls = canonicalCalls(tool, input);
  const parts: string[] = [];
  for (const c of calls) {
    if (c.tool === "bash" && typeof c.input.command === "string") parts.push(c.input.command);
    else {
      let json = "";
      try {
        json = JSON.stringify(redactValue(c.input), null, 2) ?? "";
      } catch {
        json = "";
      }
      parts.push(json === "" || json === "{}" ? c.tool : `${c.tool} ${json}`);
    }
  }
  return shown(parts.join("\n"));
}
