// What a unit's operands make the companion look at beyond the paths it names: the tree a name walker that
// follows links walks, the walks a program's grammar reports for the files it finds and runs, the script a
// shell or an interpreter runs, and a leading glob whose matches may read as options.
import type { DiskTarget } from "./call-facts.ts";
import { normalizePath, resolveShellDir } from "./paths.ts";
import { interpreterScript, nodeJsonRead } from "./shell/interpreters.ts";
import { shellScriptFile } from "./shell/script-runs.ts";
import type { ExecUnit } from "./shell/units.ts";
import { SHELLS } from "./shell/wrappers.ts";
import { unitDir } from "./unit-dir.ts";
import { WIDEST } from "./walk-styles.ts";

/** Programs that list a tree's names without reading contents, and the options that make them follow links. */
const NAME_WALKERS: Readonly<Record<string, RegExp>> = {
  find: /^(-L|-follow)$/,
  du: /^(-[A-Za-z]*L[A-Za-z]*|--dereference)$/,
  tree: /^(-[A-Za-z]*l[A-Za-z]*)$/,
  fd: /^(-[A-Za-z]*L[A-Za-z]*|--follow)$/,
  ls: /^(-[A-Za-z]*L[A-Za-z]*|--dereference)$/,
};

/**
 * A name walk reads no contents, so only one that follows links can leave the tree; that one is
 * walked (for links out and size). Its roots: the operands that are not options (`.` when none).
 */
export function nameWalks(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const follows = NAME_WALKERS[unit.program];
  if (follows === undefined || !unit.argv.slice(1).some((w) => follows.test(w))) return [];
  if (unit.program === "ls" && !unit.argv.some((w) => /^-[A-Za-z]*R|^--recursive$/.test(w))) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  const roots: string[] = [];
  for (const w of unit.words.slice(1)) {
    if (w.value === null || w.glob || w.tilde) continue;
    if (w.value.startsWith("-") || w.value === "!" || w.value === "(" || w.value === ")") {
      if (unit.program === "find") break;
      continue;
    }
    roots.push(w.value);
    if (unit.program === "fd" && roots.length === 1) roots.pop(); // fd's first operand is the pattern
  }
  if (roots.length === 0) roots.push(".");
  const style = { ...WIDEST, content: false };
  return roots.map((r) => ({
    kind: "walk",
    root: normalizePath(r.startsWith("/") ? r : `${dir}/${r}`),
    style,
    shown: unit.text,
  }));
}

/**
 * A walk a program's grammar reports for the names it finds and runs (`node --test` with no files finds
 * its test files, following symlinked directories): walked for links out of the workspace.
 */
export function findingWalks(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const walks =
    unit.effects?.paths.filter((e) => e.access === "walk" && !e.contents && e.follow === "all") ?? [];
  if (walks.length === 0) return [];
  const dir = unitDir(unit, callCwd, home, "it finds the files it runs in a directory not known here");
  if (typeof dir !== "string") return dir;
  const out: DiskTarget[] = [];
  for (const w of walks) {
    const r = w.arg.value;
    if (r === null || w.arg.glob || w.arg.tilde) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: `it finds the files it runs below \`${w.arg.raw}\`, not known here`,
      });
      continue;
    }
    const style = { ...WIDEST, content: false, ...(w.prune !== undefined ? { prune: w.prune } : {}) };
    out.push({
      kind: "walk",
      root: normalizePath(r.startsWith("/") ? r : `${dir}/${r}`),
      style,
      shown: unit.text,
    });
  }
  return out;
}

/**
 * The script a shell or an interpreter runs, or the JSON file `node -p` reads a field of: read by it, so what
 * it is on disk (a link to a key) counts, and an interpreter's must be a file as named (`runs`).
 */
export function scriptTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const argv = unit.words.map((w) => ({ value: w.value, raw: w.raw, glob: w.glob, tilde: w.tilde }));
  const script = SHELLS.has(unit.program)
    ? shellScriptFile(argv)
    : (interpreterScript(argv) ?? nodeJsonRead(argv));
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (script === null || script.value === null || script.tilde || script.glob || dir === null) return [];
  const path = normalizePath(script.value.startsWith("/") ? script.value : `${dir}/${script.value}`);
  const runs = SHELLS.has(unit.program) ? {} : { runs: true as const };
  return [{ kind: "path", access: "read", path, glob: false, shown: script.raw, ...runs }];
}

/**
 * A command whose only doubt is a glob at the start of a word (grammar/parse.ts): every such word, for the
 * disk to expand (bash passes its matches relative to the directory the command runs in).
 */
export function optionGlobTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.notUnderstood?.optionGlob !== true) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  const out: DiskTarget[] = [];
  for (const w of unit.words.slice(1)) {
    if (!w.glob || w.value === null || !/^[*?[]/.test(w.value)) continue;
    if (dir === null) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: `it runs in a directory not known here, where \`${w.raw}\` may match a name like an option`,
      });
      return out;
    }
    out.push({ kind: "names", dir, pattern: w.value, shown: w.raw });
  }
  return out;
}
