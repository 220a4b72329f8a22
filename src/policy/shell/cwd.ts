// The working directory bash will be in, as the script moves it (cd, pushd, popd). A `cd` may
// fail and leave the directory unchanged, so each move adds a possibility rather than replacing
// one; a move the engine cannot follow makes the directory unknown, and every relative path
// with it.
import { climbsAfterName, normalizePath } from "../paths.ts";
import type { ShellCwd } from "./units.ts";
import type { WordValue } from "./words.ts";

/** The directories bash may be in; null when unknown. */
export type CwdSet = readonly string[] | null;

export const START: CwdSet = ["."];

/**
 * How a directory is entered: bash's logical `cd`; `cd -P`, which sets $PWD to the physical path; or a
 * program's own chdir() (`git -C`, `env -C`), which the kernel resolves through links and which moves no $PWD.
 */
export type Move = "cd" | "cd -P" | "chdir";
const MAX_POSSIBLE = 8;

/** `base/rel` lexically (bash's `cd` is logical by default); null when it leaves `~` unknowably. */
function join(base: string, rel: string): string | null {
  if (rel.startsWith("/")) return normalizePath(rel);
  if (base.startsWith("~")) {
    const [head, ...rest] = base.split("/");
    const joined = normalizePath([...rest, rel].join("/"));
    // Climbing out of the home directory leads somewhere not known here.
    if (joined === ".." || joined.startsWith("../")) return null;
    return joined === "." ? (head as string) : `${head}/${joined}`;
  }
  return normalizePath(base === "." ? rel : `${base}/${rel}`);
}

/**
 * `link/..`, `a/b/../..`: names, then only climbs. bash's logical `cd` checks each name before a `..` is a
 * directory (stat, through links, as the kernel would resolve it) and lands on the lexical result, a prefix of
 * that directory's path or of the working directory's, which exists; when a name is no directory, the
 * chdir() of the path as written fails too. Either way it never leaves through the link (checked with bash).
 */
function onlyClimbsBack(v: string): boolean {
  const segs = v.split("/").filter((s) => s !== "" && s !== ".");
  const first = segs.indexOf("..");
  return segs.slice(first).every((s) => s === "..");
}

/** Where `cd WORD` goes from `base`; null when not known. `word` null means a bare `cd` (home). */
function target(base: string, word: WordValue | null, how: Move): string | null {
  if (word === null) return "~";
  const v = word.value;
  if (v === null || v === "" || v === "-") return null;
  // A glob bash expands to whatever directory matches (`cd .s*` may be `.ssh`).
  if (word.glob) return null;
  // `cd -P` makes $PWD the physical path, through any link in the word or in the logical directory (`cd -P
  // .` after `cd link`), so a later `cd ..` climbs out of the link's target (checked with bash, issue 20).
  if (how === "cd -P") return null;
  if (how === "chdir" && v.split("/").includes("..")) return null;
  // `cd link/../x`: bash goes to the lexical `x` when it exists, else chdir()s the path as written, which
  // the kernel resolves through the link (red team, round 12): where it lands is not known here.
  if (climbsAfterName(v) && !onlyClimbsBack(v)) return null;
  if (word.tilde) {
    const slash = v.indexOf("/");
    const prefix = slash === -1 ? v : v.slice(0, slash);
    const rest = slash === -1 ? "" : v.slice(slash + 1);
    if (prefix === "~") return rest === "" ? "~" : join("~", rest);
    if (prefix === "~+") return join(base, rest || ".");
    return null; // ~-, ~user
  }
  return join(base, v);
}

function union(a: readonly string[], b: readonly (string | null)[]): CwdSet {
  if (b.includes(null)) return null;
  const set = new Set([...a, ...(b as string[])]);
  return set.size > MAX_POSSIBLE ? null : [...set];
}

/** After `cd WORD` (a `cd` that may fail, so the old directory stays possible). */
export function changeDir(cwd: CwdSet, word: WordValue | null, how: Move = "cd"): CwdSet {
  if (cwd === null) return null;
  return union(
    cwd,
    cwd.map((base) => target(base, word, how)),
  );
}

/**
 * The directory a program moves to before it does anything (`git -C`, `env -C`), or where a `cd` that
 * succeeded leads (`word` null: a bare `cd`): no fallback.
 */
export function moveTo(cwd: CwdSet, word: WordValue | null, how: Move = "cd"): CwdSet {
  if (cwd === null) return null;
  const targets = cwd.map((base) => target(base, word, how));
  if (targets.includes(null)) return null;
  return [...new Set(targets as string[])];
}

/** The one directory a command runs in, or null when there are several or none is known. */
export function single(cwd: CwdSet): ShellCwd {
  return cwd !== null && cwd.length === 1 ? (cwd[0] as string) : null;
}

/** Either of two possibilities (after `a && b`: b ran or it did not). */
export function unionCwd(a: CwdSet, b: CwdSet): CwdSet {
  if (a === null || b === null) return null;
  const set = new Set([...a, ...b]);
  return set.size > MAX_POSSIBLE ? null : [...set];
}

/** Every directory a command may run in (its one `cwd`, or its several `dirs`); null when not known. */
export function unitDirs(unit: { cwd: ShellCwd; dirs?: readonly string[] }): CwdSet {
  if (unit.cwd !== null) return [unit.cwd];
  return unit.dirs ?? null;
}
