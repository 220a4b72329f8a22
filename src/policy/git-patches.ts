// `git apply --check PATCH` tells by its exit status whether every context and removed line of the patch is
// in the file it names: a patch guessing a line of `.env` (or, outside a repository, of `../x` or an absolute
// path) is a whole-line oracle over that file (red team, rounds 16/17). Which files a patch names is in the
// patch, so the disk reads its headers (guards/git-patches.ts); a patch on standard input is not seen.
// --stat, --numstat and --summary alone only read the patch itself.
import type { ExecUnit } from "./shell/units.ts";

/** The patches a `git apply --check` reads, and the leading components it strips from their paths. */
export interface CheckedPatches {
  /** The patch files as the words name them (relative to where git runs). */
  files: string[];
  /** `-p N` (1 by default). */
  strip: number;
  /** The patch on standard input, read from this file (relative to where the shell runs, not `-C`'s). */
  stdin?: string;
}

/** git apply's options that take the next word as their value (builtin/apply.c, 2.39). */
const TAKES_VALUE = new Set(["-p", "-C", "--exclude", "--include", "--whitespace", "--directory"]);

/**
 * What `git apply --check` in `unit` reads besides the patches: their files. Null when the unit is no
 * such check; a string says why what it reads is not known (standard input, a word known at run time).
 */
export function checkedPatches(unit: ExecUnit, subcommand: string | null): CheckedPatches | string | null {
  if (subcommand !== "apply") return null;
  const words = unit.words.map((w) => w.value);
  const rest = words.slice(words.indexOf(subcommand) + 1);
  if (!rest.includes("--check")) return null;
  const files: string[] = [];
  let strip = 1;
  let options = true;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === null || w === undefined) return "a word of `git apply --check` is only known at run time";
    if (options && w === "--") options = false;
    else if (options && TAKES_VALUE.has(w)) {
      const value = rest[++i];
      if (w === "-p") strip = Number(value);
    } else if (options && /^-p\d+$/.test(w)) strip = Number(w.slice(2));
    else if (options && w.startsWith("-") && w !== "-") continue;
    else if (w === "-")
      return "`git apply --check -` reads the patch on standard input, which Airlock does not see";
    else files.push(w);
  }
  if (!Number.isInteger(strip) || strip < 0) return "git apply's `-p` is not a number";
  if (files.length > 0) return { files, strip };
  // `git apply --check < p.diff`, `cat p.diff | git apply --check`: the file is the patch.
  const input = unit.stdinFile;
  if (input?.value == null || input.glob || input.tilde)
    return "`git apply --check` reads the patch on standard input, which Airlock does not see";
  return { files, strip, stdin: input.value };
}
