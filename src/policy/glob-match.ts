// Whether a shell glob (`.e*`, `*.p?m`, `[.]env`) could match a name that another glob pattern
// describes (`.env.*`, `*.pem`), as bash would match file names: `*`, `?` and `[…]`, a leading
// dot matched only by a literal dot. Decided exactly on the two patterns, without listing files.

type Token =
  | { t: "star" }
  | { t: "any" }
  | { t: "lit"; c: string }
  | { t: "set"; test: (c: string) => boolean };

function bracket(glob: string, at: number): { token: Token; end: number } | null {
  let i = at + 1;
  const negated = glob[i] === "!" || glob[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  // A `]` right after the opening (or after `!`) is a member.
  if (glob[i] === "]") {
    ranges.push(["]", "]"]);
    i++;
  }
  while (i < glob.length && glob[i] !== "]") {
    const c = glob[i] as string;
    if (glob[i + 1] === "-" && glob[i + 2] !== undefined && glob[i + 2] !== "]") {
      ranges.push([c, glob[i + 2] as string]);
      i += 3;
    } else if (c === "[" && (glob[i + 1] === ":" || glob[i + 1] === "=" || glob[i + 1] === ".")) {
      // A character class ([:alpha:]), an equivalence class ([=e=], which matches é too) or a
      // collating symbol ([.x.]): any character may be in it.
      const kind = glob[i + 1] as string;
      const close = glob.indexOf(`${kind}]`, i + 2);
      if (close === -1) return null;
      ranges.push(["\u0000", "\uffff"]);
      i = close + 2;
    } else {
      ranges.push([c, c]);
      i++;
    }
  }
  if (i >= glob.length) return null;
  const inRange = (c: string) => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return { token: { t: "set", test: negated ? (c) => !inRange(c) : inRange }, end: i };
}

function tokens(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) out.push({ t: "lit", c: glob[++i] as string });
    else if (c === "*") out.push({ t: "star" });
    else if (c === "?") out.push({ t: "any" });
    else if (c === "[") {
      const b = bracket(glob, i);
      if (b === null) out.push({ t: "lit", c });
      else {
        out.push(b.token);
        i = b.end;
      }
    } else out.push({ t: "lit", c });
  }
  return out;
}

/** Two single-character tokens can accept a common character. */
function overlap(a: Token, b: Token): boolean {
  if (a.t === "lit" && b.t === "lit") return a.c === b.c;
  if (a.t === "lit" && b.t === "set") return b.test(a.c);
  if (a.t === "set" && b.t === "lit") return a.test(b.c);
  // `?` against anything, or two sets: assume some character fits both.
  return true;
}

/** Some string matches both patterns. */
export function globsIntersect(a: string, b: string): boolean {
  const x = tokens(a);
  const y = tokens(b);
  const seen = new Set<number>();
  const stack: [number, number][] = [[0, 0]];
  const width = y.length + 1;
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === x.length && j === y.length) return true;
    const ti = x[i];
    const tj = y[j];
    if (ti?.t === "star") stack.push([i + 1, j]);
    if (tj?.t === "star") stack.push([i, j + 1]);
    if (ti === undefined || tj === undefined) continue;
    const si = ti.t === "star";
    const sj = tj.t === "star";
    if (si && sj) continue; // both stay: covered by the two empty moves
    if (overlap(si ? { t: "any" } : ti, sj ? { t: "any" } : tj)) stack.push([si ? i : i + 1, sj ? j : j + 1]);
  }
  return false;
}

const GLOB_CHARS = /[*?[]/;
const EXTGLOB = /[@!+?*]\(/;

export function hasGlob(segment: string): boolean {
  return GLOB_CHARS.test(segment) || EXTGLOB.test(segment);
}

/**
 * Whether a glob segment bash would expand could name a file that `pattern` (a name or a name
 * glob, compared case-insensitively) matches. A leading dot must be matched by a literal dot.
 */
export function segmentMayMatch(segment: string, pattern: string): boolean {
  const s = segment.toLowerCase();
  const p = pattern.toLowerCase();
  if (EXTGLOB.test(s)) return true; // extended globs can match anything, dotfiles included
  if (!GLOB_CHARS.test(s))
    return GLOB_CHARS.test(p) ? globsIntersect(s.replace(/[*?[\\]/g, "\\$&"), p) : s === p;
  if (p.startsWith(".") && !s.startsWith(".")) return false;
  return globsIntersect(s, p);
}
