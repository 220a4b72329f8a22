// Every pattern a policy condition uses (local layers and the account layer, in the companion and at the
// edge) runs on RE2 (re2js): matching time is linear in the text whatever the pattern, so no shape or
// length limit is needed beyond a size bound real configs never reach. What RE2 cannot express
// (backreferences, lookaround, possessive or atomic groups) is refused at load with a suggestion.
import { RE2JS } from "re2js";

/** A pattern's size bound: a generous ceiling on compile work, far above any hand-written pattern. */
export const MAX_PATTERN_CHARS = 8192;

export type LinearPattern =
  | { ok: true; test: (text: string) => boolean }
  | {
      ok: false;
      message: string;
      /** The piece of the pattern that is refused (as RE2 reports it), to point at it in the file. */
      fragment?: string;
    };

// A policy holds a bounded number of patterns, compiled once per distinct text and shared by every
// condition, layer and reload that uses it; the bound keeps a stream of edited policies from growing it.
const cache = new Map<string, LinearPattern>();
const CACHE_LIMIT = 4096;

/** How to say what RE2 refused, and what to write instead. */
function explain(error: string, fragment: string): string {
  if (/^\\[1-9]/.test(fragment) || fragment.startsWith("\\k")) {
    return "uses a backreference, which RE2 cannot match in linear time; match the repeated text itself, or compare the parts in separate conditions";
  }
  if (fragment.startsWith("(?=") || fragment.startsWith("(?!")) {
    return 'uses lookahead, which RE2 does not support; test the excluded case as its own condition, e.g. `command.matches("^git ") && !command.matches("^git push")`';
  }
  if (fragment.startsWith("(?<=") || fragment.startsWith("(?<!")) {
    return 'uses lookbehind, which RE2 does not support; anchor the pattern instead, or test the excluded case as its own condition with `!x.matches("…")`';
  }
  if (fragment.startsWith("(?>") || /^[*+?}]\+$/.test(fragment) || /nested repetition/.test(error)) {
    return "uses a possessive or atomic repeat; RE2 never backtracks, so write the plain repeat (`a+` for `a++`)";
  }
  if (/invalid repeat count/.test(error)) {
    return `repeats more than RE2 allows (${fragment}: at most 1000, nested repeats counted together); use \`*\` or \`+\`, or a smaller count`;
  }
  if (fragment === "\\Z") return "uses `\\Z`; write `$` (end of text) instead";
  if (fragment === "\\u") return "uses `\\uXXXX`; write `\\x{XXXX}` instead";
  if (fragment === "\\c") return "uses a control escape `\\cX`; write `\\x01`…`\\x1F` instead";
  return `is not RE2 syntax (${error}${fragment ? ` at \`${fragment}\`` : ""}); see "Patterns" in docs/policy.md`;
}

function compileLinear(pattern: string): LinearPattern {
  if (pattern.length > MAX_PATTERN_CHARS) {
    return {
      ok: false,
      message: `matches() pattern is ${pattern.length} characters, more than the ${MAX_PATTERN_CHARS} a pattern may have; split it across conditions`,
    };
  }
  try {
    const re = RE2JS.compile(pattern);
    // `test` needs no match positions, so re2js runs it on its DFA where it can (no Matcher built).
    return { ok: true, test: (text) => re.test(text) };
  } catch (error) {
    const e = error as { error?: unknown; input?: unknown; message?: unknown };
    const reason = typeof e.error === "string" ? e.error : String(e.message ?? error);
    const fragment = typeof e.input === "string" ? e.input : "";
    const out: LinearPattern = { ok: false, message: `matches() pattern ${explain(reason, fragment)}` };
    if (fragment !== "") out.fragment = fragment;
    return out;
  }
}

/** Compiles `pattern` with RE2, once per distinct text. */
export function linearPattern(pattern: string): LinearPattern {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const result = compileLinear(pattern);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, result);
  return result;
}

/** A pattern's matcher, or an Error saying why it cannot run (cel-js reports it as the condition's error). */
export function linearTest(pattern: string, text: string): boolean {
  const compiled = linearPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.test(text);
}
