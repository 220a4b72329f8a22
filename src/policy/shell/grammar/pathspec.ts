// git pathspecs (gitglossary(7), git 2.39): an operand git matches against the index and the tree,
// with wildcards whether or not the shell quoted them, and magic: `:(top)`/`:/` (from the top of
// the work tree), `:(literal)`, `:(glob)`, `:(icase)`, `:(exclude)`/`:!`/`:^`, `:(attr:…)`.
// A pathspec is never taken as a literal path: it becomes the glob it can match, a path only
// known at run time (relative to a top this engine cannot see), or not understood.
import type { Arg } from "../wrappers.ts";

export interface GlobalPathspecMode {
  literal: boolean;
  glob: boolean;
  icase: boolean;
}

export type Pathspec =
  | { kind: "path"; arg: Arg }
  /** Only excludes: it narrows what the others match (alone, it means everything else). */
  | { kind: "exclude" }
  | { kind: "refused"; reason: string };

const WILDCARD = /[*?[\\]/;
const KNOWN_MAGIC = new Set(["top", "literal", "glob", "icase", "exclude"]);

/** Every letter as a bracket of both cases (`.ENV` → `.[eE][nN][vV]`), other glob characters kept. */
function caseless(pattern: string): string {
  return pattern.replace(/[A-Za-z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/** Glob characters escaped, for a pattern that must match only itself. */
function escaped(path: string): string {
  return path.replace(/[*?[\\]/g, "\\$&");
}

export function parsePathspec(a: Arg, mode: GlobalPathspecMode): Pathspec {
  const v = a.value;
  if (v === null) return { kind: "path", arg: a };
  const magic = new Set<string>();
  let rest = v;
  if (!mode.literal && v.startsWith(":")) {
    if (v.startsWith(":(")) {
      const close = v.indexOf(")");
      if (close < 0) return { kind: "refused", reason: "the pathspec magic is not closed" };
      for (const word of v.slice(2, close).split(",")) {
        const name = word.trim();
        if (name.startsWith("attr:") || name === "attr")
          return {
            kind: "refused",
            reason: "pathspec attr magic matches by attributes this engine cannot read",
          };
        if (!KNOWN_MAGIC.has(name))
          return { kind: "refused", reason: `unknown pathspec magic ${name || "(empty)"}` };
        magic.add(name);
      }
      rest = v.slice(close + 1);
    } else {
      // Short magic: any of `/`, `!`, `^` after the colon, up to an optional second colon.
      let i = 1;
      while (i < v.length && "/!^".includes(v[i] as string)) {
        magic.add(v[i] === "/" ? "top" : "exclude");
        i++;
      }
      if (v[i] === ":") i++;
      else if (i < v.length && /[^A-Za-z0-9]/.test(v[i] as string) && i === 1)
        return { kind: "refused", reason: `unknown pathspec magic ${v[i]}` };
      rest = v.slice(i);
    }
  }
  if (magic.has("exclude")) return { kind: "exclude" };
  const literal = magic.has("literal") || (mode.literal && !magic.has("glob"));
  const icase = magic.has("icase") || mode.icase;
  let pattern = literal ? escaped(rest) : rest;
  const glob = !literal && WILDCARD.test(rest);
  if (icase) pattern = caseless(pattern);
  const top = magic.has("top");
  if (top && rest === "") return { kind: "path", arg: { ...a, value: null } };
  return {
    kind: "path",
    arg: {
      ...a,
      // From the top of the work tree: where that is only the resolver on the disk knows.
      value: top ? null : pattern === "" ? "." : pattern,
      glob: glob || icase,
      tilde: false,
      // Quoted wildcards reach git as written; an unquoted one bash expands on the disk first.
      ...((glob || icase) && !a.glob ? { pathspec: true as const } : {}),
    },
  };
}
