// Where a command shown on a card reads as dangerous, so the eye lands there first: piping into a shell, a download
// piped onward, recursive forced removal, decoding hidden payloads, writing outside the workspace. Display only: it
// decides nothing (the verdict and the risk come from src/policy); a part it misses is still shown, just unmarked.

export interface DangerSpan {
  start: number;
  end: number;
  why: string;
}

const SHELLS = "(?:sudo\\s+)?(?:ba|z|da|k|fi)?sh|python3?|perl|ruby|node|php";

const PATTERNS: readonly { re: RegExp; why: string }[] = [
  { re: new RegExp(`\\|\\s*(?:${SHELLS})\\b`, "g"), why: "pipes into a shell" },
  { re: /\b(?:curl|wget)\b[^|\n;&]*\|/g, why: "downloads and pipes it onward" },
  { re: /\bbase64\s+(?:-\w*d\w*|--decode)\b/g, why: "decodes a hidden payload" },
  { re: /\b(?:eval|source)\s+["'$`(<]/g, why: "runs generated code" },
];

// `rm` with both a recursive and a force flag, as one cluster (-rf, -fR) or separate words (-r -f, --recursive --force).
const RM = /\brm((?:\s+-{1,2}[\w-]+)+)/g;

// A redirect and its target: `> file`, `>> file`, `2> file`, `&> file`, `>| file`.
const REDIRECT = /(?:^|[^<>&\d])(\d?>>?\|?|&>>?)\s*([^\s;|&<>]+)/g;

function rmFlagsAreDangerous(flags: string): boolean {
  const words = flags.trim().split(/\s+/);
  const short = words.filter((w) => /^-[^-]/.test(w)).join("");
  const recursive = /[rR]/.test(short) || words.includes("--recursive");
  const force = /f/.test(short) || words.includes("--force");
  return recursive && force;
}

/** True when `target` is a path outside `cwd` (absolute elsewhere, home, or climbing out with `..`). */
function outsideWorkspace(target: string, cwd: string | null | undefined): boolean {
  const path = target.replace(/^["']|["']$/g, "");
  if (path === "/dev/null" || path === "/dev/stdout" || path === "/dev/stderr") return false;
  if (path.startsWith("~") || path.startsWith("$HOME")) return true;
  if (path.split("/").includes("..")) return true;
  if (!path.startsWith("/")) return false;
  if (!cwd?.startsWith("/")) return true;
  const root = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return !path.startsWith(root);
}

function findDanger(text: string, cwd: string | null | undefined): DangerSpan[] {
  const found: DangerSpan[] = [];
  for (const { re, why } of PATTERNS)
    for (const m of text.matchAll(re)) found.push({ start: m.index, end: m.index + m[0].length, why });
  for (const m of text.matchAll(RM))
    if (rmFlagsAreDangerous(m[1] ?? ""))
      found.push({ start: m.index, end: m.index + m[0].length, why: "removes recursively, forced" });
  for (const m of text.matchAll(REDIRECT)) {
    if (!outsideWorkspace(m[2] ?? "", cwd)) continue;
    const start = m.index + m[0].indexOf(m[1] ?? "");
    found.push({ start, end: m.index + m[0].length, why: "writes outside the workspace" });
  }
  return found;
}

/** The dangerous parts of `text`, sorted and merged where they overlap. */
export function dangerSpans(text: string, cwd?: string | null): DangerSpan[] {
  const found = findDanger(text, cwd).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: DangerSpan[] = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The distinct reasons a text is marked, in the order they first appear ("pipes into a shell"). */
export function dangerReasons(text: string, cwd?: string | null): string[] {
  const found = findDanger(text, cwd).sort((a, b) => a.start - b.start);
  return [...new Set(found.map((s) => s.why))];
}

/** `text` split into plain and dangerous pieces, for rendering with <mark>. */
export function dangerPieces(text: string, cwd?: string | null): { text: string; why: string | null }[] {
  const pieces: { text: string; why: string | null }[] = [];
  let at = 0;
  for (const span of dangerSpans(text, cwd)) {
    if (span.start > at) pieces.push({ text: text.slice(at, span.start), why: null });
    pieces.push({ text: text.slice(span.start, span.end), why: span.why });
    at = span.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), why: null });
  return pieces;
}
