// `shopt -s globstar`: a `**` path segment then matches any number of directories (bash 5.2: not through a
// symlinked directory, not into dot-directories unless dotglob), where by default it is `*`. The engine and
// the disk expand globs with bash's defaults, so a script that sets it is judged here instead: a read of a
// `**` glob is a recursive read of the directory before its first glob segment, every file below it, links
// followed and dotfiles included (more than bash reads: walking more is never unsafe); a names-only listing
// (`ls`, `echo`, `printf`) prints names whatever they are; any other word with a `**` segment (a write, an
// operand of another kind) is not understood.
import type { ExecUnit, PathUnit, ShellUnit, UnparsableUnit } from "./units.ts";

/** Programs that only print the names a glob expands to (ls prints a directory's entries: names too). */
const NAMES_ONLY = new Set(["ls", "echo", "printf"]);

const STARRED = /(^|\/)\*\*(\/|$)/;

/** Whether the script sets (or unsets: judged alike) globstar. */
function setsGlobstar(units: readonly ShellUnit[]): boolean {
  return units.some(
    (u) => u.kind === "exec" && u.program === "shopt" && u.words.some((w) => w.value === "globstar"),
  );
}

/** The directory before the first segment with a glob character (`.` when the pattern starts with one). */
function walkRoot(pattern: string): string {
  const segments = pattern.split("/");
  const first = segments.findIndex((s) => /[*?[]/.test(s));
  const root = segments.slice(0, first).join("/");
  return root === "" ? (pattern.startsWith("/") ? "/" : ".") : root;
}

function recursiveRead(u: PathUnit, pattern: string): PathUnit {
  return {
    ...u,
    path: walkRoot(pattern),
    glob: false,
    recursive: true,
    walk: { content: true, hidden: true, ignoreFiles: false, follow: true, skipVcs: false, only: [] },
  };
}

function unmodelled(text: string, word: string): UnparsableUnit {
  return {
    kind: "unparsable",
    text,
    reason: `under \`shopt -s globstar\`, \`${word}\` matches files at any depth, which the engine models only for reads and names`,
  };
}

/** The units as a script that sets globstar runs them; unchanged when it does not. */
export function underGlobstar(units: readonly ShellUnit[]): readonly ShellUnit[] {
  if (!setsGlobstar(units)) return units;
  const reads = new Set<string>();
  const out: ShellUnit[] = [];
  for (const u of units) {
    if (u.kind === "unparsable" || u.kind === "exec" || !u.glob || !STARRED.test(u.path ?? "")) {
      out.push(u);
      continue;
    }
    const pattern = u.path as string;
    if (u.kind === "read") {
      reads.add(pattern);
      out.push(recursiveRead(u, pattern));
    } else out.push(unmodelled(u.text, pattern));
  }
  for (const u of units.filter((x): x is ExecUnit => x.kind === "exec")) {
    if (NAMES_ONLY.has(u.program)) continue;
    const word = u.words.find((w) => w.glob && STARRED.test(w.value ?? "") && !reads.has(w.value ?? ""));
    if (word !== undefined) out.push(unmodelled(u.text, word.raw));
  }
  return out;
}
