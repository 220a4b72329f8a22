// Where a runner's project is: the directory it runs in, the directories it moves to and the paths its
// words name, for the companion to resolve on disk (red team, round 14: `cd ext && make test`, `make -C ext`,
// `pytest ext/test_x.py` with `ext` a link to another checkout ran that checkout's code).
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellDir, resolveShellPath } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";
import type { WordValue } from "./shell/words.ts";

type RunnerPath = Extract<DiskTarget, { kind: "runner-paths" }>["paths"][number];

/** An option's `=value` (`--rootdir=ext`); a word that is no option is its own value. */
function optionValue(word: string): string {
  if (!word.startsWith("-")) return word;
  const eq = word.indexOf("=");
  return eq < 0 ? "" : word.slice(eq + 1);
}

/**
 * The path a word may name, joined as written (not normalized: `ext/..` climbs from where the link leads,
 * which only the disk knows). An option's `=value` counts; a word naming nothing on disk is no path.
 */
function pathOf(word: WordValue, dir: string, callCwd: string, home: string | null): RunnerPath | null {
  if (word.value === null || word.pipe === true) return null;
  const value = optionValue(word.value);
  if (value === "") return null;
  if (word.tilde) {
    const path = resolveShellPath({ path: value, tilde: true, cwd: dir }, callCwd, home);
    return path === null ? null : { path, glob: word.glob };
  }
  return { path: value.startsWith("/") ? value : `${dir}/${value}`, glob: word.glob };
}

/** A runner running project code: every place its project may be, each to resolve to its real path. */
export function runnerTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.effects?.effect !== "run" || unit.effects.definedBy.length === 0) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  const words = [...unit.words.slice(1), ...unit.effects.chdir, ...unit.effects.paths.map((p) => p.arg)];
  const paths = [{ path: dir, glob: false }];
  for (const w of words) {
    const p = pathOf(w, dir, callCwd, home);
    if (p !== null) paths.push(p);
  }
  return [{ kind: "runner-paths", paths, shown: unit.text }];
}
