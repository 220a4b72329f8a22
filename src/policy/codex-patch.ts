// Codex's apply_patch envelope, read as Codex's own parser reads it (codex-rs/apply-patch/src/parser.rs,
// lenient mode): the text trimmed and split into lines (a `\r` before each `\n` dropped), the first and
// last lines `*** Begin Patch` / `*** End Patch` after trimming (or the same inside a `<<EOF` … `EOF`
// heredoc), then hunks one after another. A hunk's header is its first line trimmed (` *** Add File: x`
// is a header: red team, round 11), its path what follows the marker, untrimmed; an Add File body is
// every following line that starts with `+`; an Update File takes an untrimmed `*** Move to: ` line, then
// chunks up to a line starting with `*`, each `@@`/`@@ CONTEXT` and lines starting with ` `, `+`, `-` or
// empty. Anything else makes Codex refuse the whole patch, so nothing is written: null here too. Trimming
// is Rust's: Unicode White_Space (U+0085 too), which JavaScript's trim() is not (it trims U+FEFF, not U+0085).

export type PatchOp = "add" | "update" | "delete" | "move";

export interface PatchTarget {
  op: PatchOp;
  path: string;
}

/** Rust's `char::is_whitespace` (Unicode White_Space). */
const RUST_WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING = new RegExp(`^[${RUST_WS}]+`);
const TRAILING = new RegExp(`[${RUST_WS}]+$`);

/** `str::trim` as Rust does it. */
export function rustTrim(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}

/** `str::lines`: split at `\n`, a `\r` right before it dropped, no empty last line for a final `\n`. */
function rustLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (s.endsWith("\n")) lines.pop();
  return lines;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";

function bounded(lines: readonly string[]): boolean {
  return (
    lines.length > 0 &&
    rustTrim(lines[0] as string) === BEGIN &&
    rustTrim(lines[lines.length - 1] as string) === END
  );
}

/** The lines between the markers, or null when Codex rejects the envelope. */
function hunkLines(lines: readonly string[]): readonly string[] | null {
  if (bounded(lines)) return lines.slice(1, Math.max(1, lines.length - 1));
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (
    (first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"') &&
    last?.endsWith("EOF") &&
    lines.length >= 4
  ) {
    const inner = lines.slice(1, -1);
    if (bounded(inner)) return inner.slice(1, Math.max(1, inner.length - 1));
  }
  return null;
}

/** One update chunk's length in lines, or null when Codex rejects it. */
function chunkLength(lines: readonly string[], first: boolean): number | null {
  let start = 0;
  if (lines[0] === "@@" || lines[0]?.startsWith("@@ ")) start = 1;
  else if (!first) return null;
  if (start >= lines.length) return null;
  let n = 0;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (n === 0) return null;
      n++;
      break;
    }
    const c = line[0];
    if (c !== undefined && c !== " " && c !== "+" && c !== "-") {
      if (n === 0) return null;
      break;
    }
    n++;
  }
  return n + start;
}

/** The files a Codex patch writes, in order, or null when Codex would refuse it (and write nothing). */
export function codexPatchTargets(patch: string): PatchTarget[] | null {
  const body = hunkLines(rustLines(rustTrim(patch)));
  if (body === null) return null;
  const out: PatchTarget[] = [];
  let rest = body;
  while (rest.length > 0) {
    const header = rustTrim(rest[0] as string);
    if (header.startsWith(ADD)) {
      out.push({ op: "add", path: header.slice(ADD.length) });
      let n = 1;
      while (n < rest.length && (rest[n] as string).startsWith("+")) n++;
      rest = rest.slice(n);
    } else if (header.startsWith(DELETE)) {
      out.push({ op: "delete", path: header.slice(DELETE.length) });
      rest = rest.slice(1);
    } else if (header.startsWith(UPDATE)) {
      out.push({ op: "update", path: header.slice(UPDATE.length) });
      let n = 1;
      if (rest[1]?.startsWith(MOVE)) {
        out.push({ op: "move", path: (rest[1] as string).slice(MOVE.length) });
        n = 2;
      }
      let chunks = 0;
      while (n < rest.length) {
        const line = rest[n] as string;
        if (rustTrim(line) === "") {
          n++;
          continue;
        }
        if (line.startsWith("*")) break;
        const len = chunkLength(rest.slice(n), chunks === 0);
        if (len === null) return null;
        chunks++;
        n += len;
      }
      if (chunks === 0) return null;
      rest = rest.slice(n);
    } else return null;
  }
  return out;
}

/**
 * Every line that reads as a hunk header once trimmed, wherever it stands: for a patch format whose
 * parser is not Codex's own (OpenCode's), judging each of them is never weaker than judging the ones
 * that parser takes.
 */
export function headerLines(patch: string): PatchTarget[] {
  const ops: [string, PatchOp][] = [
    [ADD, "add"],
    [UPDATE, "update"],
    [DELETE, "delete"],
    [MOVE, "move"],
  ];
  const out: PatchTarget[] = [];
  for (const raw of rustLines(patch)) {
    const line = rustTrim(raw);
    for (const [marker, op] of ops)
      if (line.startsWith(marker.trimEnd())) out.push({ op, path: rustTrim(line.slice(marker.length - 1)) });
  }
  return out;
}
