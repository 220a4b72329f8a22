// Bash's filename expansion, against the disk: a pattern's segments matched as bash matches them with
// its default options (dotglob, nocaseglob, extglob and globstar off; globskipdots and globasciiranges
// on, as in Debian's bash 5.2): `*`, `?`, bracket expressions with classes, equivalence classes
// (`[[=e=]]`) and collating symbols (`[[.e.]]`), backslash escapes, and a leading `.` matched only by
// a literal `.`. Where a locale could make a bracket match more (an equivalence class of a letter
// includes its accented forms), the matcher matches more: a wider expansion is only ever stricter.
import { readdirSync, statSync } from "node:fs";
import { errno, nothingThere, undecodable } from "./real-path.ts";

const CLASSES: Readonly<Record<string, string>> = {
  alpha: "\\p{L}",
  digit: "0-9",
  alnum: "\\p{L}\\p{Nd}",
  upper: "\\p{Lu}",
  lower: "\\p{Ll}",
  space: "\\s",
  blank: " \\t",
  punct: "\\p{P}\\p{S}",
  print: "^\\p{C}",
  graph: "^\\p{C}\\s",
  cntrl: "\\p{Cc}",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
};

function esc(c: string): string {
  return c.replace(/[\\\]^[-]/g, "\\$&");
}

/** One bracket expression from `at` (the `[`): its regex class and the index of its `]`; null if unclosed. */
function bracket(p: string, at: number): { re: string; end: number } | null {
  let i = at + 1;
  let negated = false;
  if (p[i] === "!" || p[i] === "^") {
    negated = true;
    i++;
  }
  const parts: string[] = [];
  let first = true;
  while (i < p.length) {
    const c = p[i] as string;
    if (c === "]" && !first) {
      // Nothing to match (`[!]`-style oddities) is not a class bash would accept either.
      if (parts.length === 0) return null;
      const body = parts.join("");
      // A negated class never matches `/`; a class with `\p{…}` needs the u flag (set by the caller).
      return { re: negated ? `[^/${body}]` : `[${body}]`, end: i };
    }
    first = false;
    if (c === "[" && (p[i + 1] === ":" || p[i + 1] === "=" || p[i + 1] === ".")) {
      const kind = p[i + 1] as string;
      const close = p.indexOf(`${kind}]`, i + 2);
      if (close === -1) return null;
      const name = p.slice(i + 2, close);
      if (kind === ":") {
        const cls = CLASSES[name];
        if (cls === undefined) return null;
        // `print`/`graph` are written as negations; fold them into the set as everything not a control.
        parts.push(cls.startsWith("^") ? "\\P{C}" : cls);
      } else if ([...name].length === 1) {
        parts.push(esc(name));
        // In a UTF-8 locale the equivalence class of a letter holds its accented forms: match any non-ASCII.
        if (kind === "=" && /\p{L}/u.test(name)) parts.push("\\u0080-\\u{10FFFF}");
      } else parts.push("\\s\\S"); // a named collating element: match anything
      i = close + 2;
      continue;
    }
    if (c === "\\" && i + 1 < p.length) {
      parts.push(esc(p[i + 1] as string));
      i += 2;
      continue;
    }
    if (p[i + 1] === "-" && p[i + 2] !== undefined && p[i + 2] !== "]") {
      const hi = p[i + 2] as string;
      if (hi >= c) parts.push(`${esc(c)}-${esc(hi)}`);
      i += 3;
      continue;
    }
    parts.push(esc(c));
    i++;
  }
  return null;
}

const EXTGLOB = /[?*+@!]\(/;

/** True when a segment holds an unescaped glob character bash expands. */
export function segmentHasGlob(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?" || c === "[") return true;
  }
  return false;
}

/**
 * A segment pattern as a RegExp over one file name, or null when it uses something not modelled here
 * (an extended glob, an unknown class): the caller must then not claim to know what it matches.
 */
export function segmentMatcher(segment: string, anyDot = false, anyCase = false): RegExp | null {
  if (EXTGLOB.test(segment)) return null;
  let re = "";
  // The leading dot of a name is matched only by a literal dot (escaped or not).
  const explicitDot = anyDot || segment.startsWith(".") || segment.startsWith("\\.");
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "\\" && i + 1 < segment.length) {
      re += (segment[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const b = bracket(segment, i);
      if (b === null) re += "\\[";
      else {
        re += b.re;
        i = b.end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(explicitDot ? `^${re}$` : `^(?!\\.)${re}$`, anyCase ? "iu" : "u");
  } catch {
    return null;
  }
}

function literalOf(segment: string): string {
  return segment.replace(/\\(.)/g, "$1");
}

export type Expansion = { paths: string[] } | { unknown: string };

/**
 * The absolute paths bash would expand an absolute pattern to (none when nothing matches: bash then
 * passes the word as it is). At most `limit` paths; more is reported as unknown. `wide` matches as if
 * dotglob and nocaseglob were on too (the agent's shell may have set them in a start-up file it sources):
 * a superset of what any of those settings expands to, for judging what a glob may reach.
 */
export function expandGlob(pattern: string, limit: number, wide = false): Expansion {
  const segments = pattern.split("/").filter((s) => s !== "");
  let current = ["/"];
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k] as string;
    const last = k === segments.length - 1;
    if (!segmentHasGlob(seg)) {
      const name = literalOf(seg);
      current = current.map((d) => (d === "/" ? `/${name}` : `${d}/${name}`));
      continue;
    }
    const re = segmentMatcher(seg, wide, wide);
    if (re === null) return { unknown: `the pattern \`${seg}\` uses a form of glob Airlock does not expand` };
    const next: string[] = [];
    for (const dir of current) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (error) {
        if (nothingThere(error)) continue;
        return { unknown: `Airlock cannot list \`${dir}\` (${errno(error)}), which bash may` };
      }
      for (const name of names) {
        if (!re.test(name)) continue;
        const full = dir === "/" ? `/${name}` : `${dir}/${name}`;
        if (undecodable(name))
          return { unknown: `the glob matches \`${full}\`, a name Airlock cannot read (not UTF-8)` };
        // A segment before the last must lead into a directory (through symlinks, as bash does).
        if (!last) {
          try {
            if (!statSync(full).isDirectory()) continue;
          } catch (error) {
            if (nothingThere(error)) continue;
            return { unknown: `Airlock cannot look at \`${full}\` (${errno(error)}), which bash may` };
          }
        }
        next.push(full);
        if (next.length > limit) return { unknown: `the glob matches more than ${limit} paths` };
      }
    }
    current = next;
    if (current.length === 0) return { paths: [] };
  }
  return { paths: current };
}
