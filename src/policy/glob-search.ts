// The directories a file-name search (Claude Code's Glob, Gemini's and OpenCode's glob, Pi's find) really
// lists, read from its pattern. Imports only brace-expansion: hook entry points load it through tool-names.ts
// without the policy engine.
import { expand } from "brace-expansion";

export interface GlobSearch {
  pattern?: string;
  path?: string;
}

// Past this many brace alternatives the pattern is judged as one search of the filesystem's root: judging
// each would cost more than asking.
const MAX_ALTERNATIVES = 64;
const WILD = /[*?[{\\]/;
const ROOT: GlobSearch = { path: "/" };

/**
 * The searches a pattern stands for: one per brace alternative, as node-glob, minimatch, Bun.Glob and Claude
 * Code's engine expand `{a,b}` before walking (red team, round 17: `{src,/home/u/.ssh}/*` listed a key from
 * a pattern judged by its leading `{`). The call is allowed only when every alternative would be.
 */
export function globSearches(pattern: string | undefined, path: string | undefined): GlobSearch[] {
  if (pattern === undefined) return [path === undefined ? {} : { path }];
  const alternatives = expand(pattern, { max: MAX_ALTERNATIVES + 1 });
  if (alternatives.length > MAX_ALTERNATIVES) return [{ ...ROOT, pattern }];
  return alternatives.map((p) => globSearch(p, path));
}

// One brace-free pattern: its `path` (the session's directory when absent) joined with the pattern's fixed
// leading segments. A pattern that is absolute, starts at `~`, or climbs lists names outside `path`
// (`/home/u/.ssh/*`, `../home/.ssh/*`): its fixed prefix is a path like any other and is judged as the
// search's directory (red team, round 10). A climbing segment after a wildcard one climbs from directories
// the text cannot name: the search is then judged as one of the filesystem's root.
function globSearch(pattern: string, path: string | undefined): GlobSearch {
  const segments = pattern.split("/");
  const escapes = pattern.startsWith("/") || pattern.startsWith("~") || climbs(segments);
  if (!escapes) return path === undefined ? { pattern } : { pattern, path };
  const wildAt = segments.findIndex((s) => WILD.test(s));
  const fixed = wildAt < 0 ? segments.slice(0, -1) : segments.slice(0, wildAt);
  const rest = segments.slice(fixed.length).join("/");
  if (climbs(segments.slice(fixed.length))) return { ...ROOT, pattern: rest };
  const prefix = fixed.join("/") || "/";
  const root =
    prefix.startsWith("/") || prefix.startsWith("~") || path === undefined ? prefix : `${path}/${prefix}`;
  return { pattern: rest, path: root };
}

/**
 * Whether a pattern's segments climb: a `..`, or a directory segment that may stand for one. A last segment
 * names entries: a wildcard there (`.*`, to find dotfiles) never names the parent in node-glob; only `..`
 * spelled as classes or escapes (`[.][.]`) does.
 */
function climbs(segments: readonly string[]): boolean {
  const last = segments.length - 1;
  return segments.some((s, i) => s === ".." || (mayNameParent(s) && (i < last || !/[*?]/.test(s))));
}

/**
 * Whether a segment may stand for `..` in some engine. minimatch turns `[.]` and `\.` into a literal dot
 * (red team, round 17: `.[.]/home/.ssh/*` and `[.][.]/*` climbed through Gemini's glob); bash without
 * globskipdots lets `?`, `*` and classes match the dots after an explicit leading one (`.?`, `.*`). So: the
 * first character is a dot, an escaped dot or a class, and the second may be a dot. Extglob groups holding a
 * dot are not read: they may.
 */
function mayNameParent(segment: string): boolean {
  if (/[@!?+*]\([^)]*\./.test(segment)) return true;
  const first = leadingToken(segment);
  if (first === undefined || !mayBeDot(first, true)) return false;
  const second = leadingToken(segment.slice(first.length));
  return second !== undefined && (second === "*" || mayBeDot(second, false));
}

/** The first character of a glob, or its first escape (`\.`) or bracket class (`[.]`, `[!a]`). */
function leadingToken(s: string): string | undefined {
  if (s === "") return undefined;
  if (s[0] === "\\") return s.slice(0, 2);
  if (s[0] === "[") {
    const close = s.indexOf("]", s[1] === "]" || (s[1] === "!" && s[2] === "]") ? 3 : 2);
    if (close > 0) return s.slice(0, close + 1);
  }
  return s[0];
}

/** Whether one token may match a dot: a leading dot only explicitly (a dot, `\.`, a class), a later one also by `?`. */
function mayBeDot(token: string, leading: boolean): boolean {
  if (token === "." || token === "\\.") return true;
  if (token === "?") return !leading;
  if (!token.startsWith("[") || token.length < 3) return false;
  const body = token.slice(1, -1);
  // A negated class, a range or a character class may hold a dot; a plain one only when it names it.
  return /^[!^]/.test(body) || body.includes("-") || body.includes("[:") || body.includes(".");
}
