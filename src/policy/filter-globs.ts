// The file filters of recursive readers — rg's `-g/--glob/--iglob`, GNU grep's `--include`, the Grep
// tools' `glob` field (rg's `--glob`) — as those programs match them, over-approximated so a file they
// would read is never taken for one they skip. Unlike bash's globs, none of them keeps a leading dot
// from `*`: ripgrep's globset and grep's fnmatch (no FNM_PERIOD) both match `.env` with `*.env` (red team,
// round 9, checked with rg and GNU grep). Here `*` also crosses `/`, `{a,b}` is expanded (rg's
// alternation; grep has none, so that only widens) and the comparison ignores case (`--iglob`, fd).
import { globsIntersect } from "./glob-match.ts";

/** Alternatives a brace expansion may produce before the filter is taken to match everything. */
const MAX_ALTERNATIVES = 64;

/** `a{b,c}d` → `abd`, `acd` (nested braces too); null when there would be too many. */
function alternatives(glob: string): string[] | null {
  let out = [""];
  let i = 0;
  const push = (suffixes: readonly string[]): boolean => {
    const next: string[] = [];
    for (const o of out) for (const s of suffixes) next.push(o + s);
    out = next;
    return out.length <= MAX_ALTERNATIVES;
  };
  while (i < glob.length) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) {
      if (!push([glob.slice(i, i + 2)])) return null;
      i += 2;
      continue;
    }
    if (c !== "{") {
      if (!push([c])) return null;
      i++;
      continue;
    }
    // The matching `}` and the top-level commas inside.
    let depth = 0;
    let j = i;
    const cuts: number[] = [];
    for (; j < glob.length; j++) {
      const d = glob[j];
      if (d === "\\") j++;
      else if (d === "{") depth++;
      else if (d === "}" && --depth === 0) break;
      else if (d === "," && depth === 1) cuts.push(j);
    }
    if (j >= glob.length) {
      // No closing brace: a literal `{`.
      if (!push(["{"])) return null;
      i++;
      continue;
    }
    const parts: string[] = [];
    let from = i + 1;
    for (const cut of [...cuts, j]) {
      parts.push(glob.slice(from, cut));
      from = cut + 1;
    }
    const expanded: string[] = [];
    for (const p of parts) {
      const inner = alternatives(p);
      if (inner === null) return null;
      expanded.push(...inner);
    }
    if (!push(expanded)) return null;
    i = j + 1;
  }
  return out;
}

function literal(text: string): string {
  return text.replace(/[*?[\\]/g, "\\$&");
}

/**
 * Whether a filter glob may select the file `name` at `rel` (its path below the walk's root): a glob
 * with a `/` is compared with the path, any other with the name.
 */
export function filterGlobMatches(glob: string, name: string, rel: string): boolean {
  // `**/` also matches no directory at all (`**/*` selects `a.env` at the root).
  const alts = alternatives(glob.toLowerCase().replaceAll("**/", "{**/,}"));
  if (alts === null) return true;
  const target = literal((glob.includes("/") ? rel : name).toLowerCase());
  // A leading `/` or `./` anchors the glob at the root the path is relative to.
  return alts.some((g) => globsIntersect(g.replace(/^\.?\//, ""), target));
}
