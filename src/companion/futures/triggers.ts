// Warming triggers: a submitted prompt, a draft while the person types (debounced), or idle time at session
// start. All text is untrusted input: it is bounded and stripped of control characters, never logged.
import { z } from "zod";
import { MAX_TEXT_CHARS } from "./candidates.ts";

export const TriggerSource = z.enum(["prompt", "draft", "idle"]);
export type TriggerSource = z.infer<typeof TriggerSource>;

export interface WarmTrigger {
  source: TriggerSource;
  cwd: string;
  /** Empty for idle warming. */
  text: string;
}

/** Bounds and cleans text before anything scans it (NULs and control characters become spaces). */
export function untrustedText(raw: string): string {
  return raw.slice(0, MAX_TEXT_CHARS).replace(/[^\P{Cc}\n\t]/gu, " ");
}

/** How long the draft must rest before it is warmed. */
export const DRAFT_DEBOUNCE_MS = 300;

/**
 * Calls `warm` with the latest draft once typing pauses; repeated identical drafts warm once. Used by the
 * Pi extension, which sees the editor text on every keystroke.
 */
export class DraftDebouncer {
  readonly #warm: (text: string) => void;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #last = "";

  constructor(warm: (text: string) => void, delayMs = DRAFT_DEBOUNCE_MS) {
    this.#warm = warm;
    this.#delayMs = delayMs;
  }

  update(text: string): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const trimmed = text.trim();
      if (trimmed === "" || trimmed === this.#last) return;
      this.#last = trimmed;
      this.#warm(trimmed);
    }, this.#delayMs);
    this.#timer.unref?.();
  }

  cancel(): void {
    clearTimeout(this.#timer);
  }
}
