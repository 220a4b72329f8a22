// Size and shape bounds on what Airlock accepts, shared by the edge's routes, the hub's socket and the companion.
import { MAX_JUDGED_COMMAND_CHARS } from "../policy/limits.ts";

/** Largest REST body, in bytes (413 past it). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Largest websocket message, in bytes: a bigger one closes the socket with CLOSE_CODES.message_too_big. */
export const MAX_SOCKET_MESSAGE_BYTES = 256 * 1024;
/** Deepest nesting of objects and arrays in any JSON Airlock reads (a 400, or a socket error, past it). */
export const MAX_JSON_DEPTH = 32;
/**
 * Longest shell command the policy judges; longer calls are refused before any rule runs. The policy
 * engine's own bound (src/policy/limits.ts) is the same number, for callers that reach it another way.
 */
export const MAX_COMMAND_CHARS = MAX_JUDGED_COMMAND_CHARS;
/** Longest path or URL the policy judges. */
export const MAX_PATH_CHARS = 4096;
export const MAX_URL_CHARS = 8192;

/**
 * How deep a JSON text nests, counted without parsing it (so a 100,000-level body costs one linear scan,
 * not a recursion). Brackets inside strings do not count.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return max;
}

/** How deep a parsed value nests (objects and arrays), iteratively, stopping once past `limit`. */
export function valueDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    const here = depth + 1;
    if (here > max) max = here;
    if (max > limit) return max;
    for (const child of Object.values(node)) stack.push([child, here]);
  }
  return max;
}
