// Size bounds on what Airlock judges, stores and shows, so one huge call cannot stall the hub or bloat
// every listing: a command past the judged size is asked about (never parsed, never covered by a grant),
// and stored text is clipped (its hash stays exact).

/**
 * Commands longer than this are not parsed: they are asked about as "too large to judge". The wire refuses
 * them earlier (src/protocol/limits.ts uses this number); this bound holds for every other way in.
 */
export const MAX_JUDGED_COMMAND_CHARS = 32 * 1024;
/** Stored and shown scope text (summaries, grant patterns) is clipped to this. */
export const MAX_SHOWN_SCOPE_CHARS = 300;
/** A call with more judged units than this can never be covered by grants (it is asked about). */
export const MAX_GRANT_UNITS = 64;
/** Exact grant patterns a prompt lists; the rest are counted. */
export const MAX_SHOWN_GRANT_PATTERNS = 10;
/** A prompt holds at most this many calls; later ones with the same key open a new prompt. */
export const MAX_CALLS_PER_PROMPT = 100;
/** Open prompts per user; beyond this a new call that needs a person is denied at once. */
export const MAX_OPEN_PROMPTS = 200;
/** Unknown tools' input larger than this (as canonical JSON) can never be covered by a grant. */
export const MAX_GRANTABLE_INPUT_CHARS = 64 * 1024;

/** Clips text to `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max = MAX_SHOWN_SCOPE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function commandTooLarge(command: string): boolean {
  return command.length > MAX_JUDGED_COMMAND_CHARS;
}
