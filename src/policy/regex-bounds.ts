// Regular expressions in policy conditions run on a linear-time engine (RE2), so an account policy
// cannot stall the hub with catastrophic backtracking; patterns are literals, bounded, checked on save.
import { RE2JS } from "re2js";

export const MAX_PATTERN_CHARS = 256;

export type LinearPattern = { ok: true; test: (text: string) => boolean } | { ok: false; message: string };

const cache = new Map<string, LinearPattern>();

/** Compiles `pattern` with RE2 (no backreferences or lookarounds: those need backtracking). */
export function linearPattern(pattern: string): LinearPattern {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let result: LinearPattern;
  const nested = pattern.length > MAX_PATTERN_CHARS ? undefined : nestedRepetition(pattern);
  if (pattern.length > MAX_PATTERN_CHARS) {
    result = { ok: false, message: `matches() pattern is longer than ${MAX_PATTERN_CHARS} characters` };
  } else if (nested) {
    result = { ok: false, message: `matches() pattern ${nested}` };
  } else {
    try {
      const re = RE2JS.compile(pattern);
      result = { ok: true, test: (text) => re.matcher(text).find() };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      result = { ok: false, message: `matches() pattern is not supported (${reason}); use RE2 syntax` };
    }
  }
  if (cache.size > 1024) cache.clear();
  cache.set(pattern, result);
  return result;
}

/**
 * Finds a repeated group that itself repeats or alternates (`(a+)+`, `(a|aa)*`, `(x*y){2,9}`): the shape
 * behind catastrophic backtracking in a RegExp. `?` (at most once) is allowed on any group.
 */
export function nestedRepetition(pattern: string): string | undefined {
  const groups: { repeats: boolean; alternates: boolean }[] = [{ repeats: false, alternates: false }];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "[") {
      // Skip a character class: `]` right after `[` or `[^` is literal.
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      i = j;
      continue;
    }
    const top = groups[groups.length - 1] as { repeats: boolean; alternates: boolean };
    if (ch === "(") groups.push({ repeats: false, alternates: false });
    else if (ch === "|") top.alternates = true;
    else if (
      ch === "*" ||
      ch === "+" ||
      (ch === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)) && !/^\{(0,)?1\}/.test(pattern.slice(i)))
    ) {
      top.repeats = true;
    } else if (ch === ")" && groups.length > 1) {
      const closed = groups.pop() as { repeats: boolean; alternates: boolean };
      const after = pattern.slice(i + 1);
      const repeated = /^(\*|\+|\{\d+(,\d*)?\})/.test(after) && !/^\{(0,)?1\}/.test(after);
      if (repeated && (closed.repeats || closed.alternates)) {
        return "repeats a group that repeats or alternates (catastrophic backtracking); simplify it";
      }
      const parent = groups[groups.length - 1] as { repeats: boolean; alternates: boolean };
      if (closed.repeats || repeated) parent.repeats = true;
    }
  }
  return undefined;
}
