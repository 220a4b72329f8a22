// Files a program finds in the directory it runs in or one above: the one that picks its toolchain or
// defines what it runs, and version files a shim reads and may print.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { climbingVersionName, NAMED_VERSION_FILES } from "../../policy/version-names.ts";
import type { Context } from "./disk-context.ts";
import { lstatEntry } from "./fs-entry.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/**
 * The first file by one of `names` in `dir` or a directory above it (as rustup looks), or null; with
 * `contains`, the first whose text matches it (an unreadable one counts).
 */
export function pickerFile(dir: string, names: readonly string[], contains?: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    for (const n of names) {
      const p = join(d, n);
      if (lstatEntry(p) === undefined) continue;
      if (contains === undefined) return p;
      let text: string;
      try {
        text = readFileSync(p, "utf8");
      } catch {
        return p;
      }
      if (new RegExp(contains, "m").test(text)) return p;
    }
    if (dirname(d) === d) return null;
  }
}

/**
 * Version files in `dir` and above that a shim would print (a word it rejects is echoed back): one that
 * links onto a secret, or, in the workspace, one that links out of it or is a hard link, asks. A plain
 * file is the project's own words; the person's own links above the workspace are theirs. In the
 * workspace, a version name that climbs out of the manager's versions directory asks too (version-names.ts).
 */
export function versionFileFacts(
  dir: string,
  names: readonly string[],
  shown: string,
  ctx: Context,
): CallFact[] {
  const facts: CallFact[] = [];
  for (let d = dir; ; d = dirname(d)) {
    for (const n of names) {
      const p = join(d, n);
      const st = lstatEntry(p);
      if (st === undefined) continue;
      const inside = isWithin(ctx.workspace, p);
      const r = realPathOf(p);
      const real = r.ok ? r.real : null;
      const why =
        real === null
          ? "cannot be resolved"
          : isDenylistedPath(real) && !isDenylistedPath(p)
            ? `is a link to \`${shownPath(real, ctx.workspace)}\`, a secret`
            : inside && st.isSymbolicLink() && !isWithin(ctx.workspace, real)
              ? `leads out of the workspace through a symlink, to \`${real}\``
              : inside && st.isFile() && st.nlink > 1
                ? "is a hard link, whose other name may be a secret"
                : null;
      if (why !== null)
        facts.push({
          subject: shown,
          reason: `\`${shownPath(p, ctx.workspace)}\` ${why}; the program or a version manager's shim reads it and may print its words`,
        });
      else if (inside && NAMED_VERSION_FILES.includes(n)) {
        const climbs = climbingName(p);
        if (climbs !== null)
          facts.push({
            subject: shown,
            reason: `\`${shownPath(p, ctx.workspace)}\` ${climbs}: a version manager's shim (jenv) runs the program of the directory it names`,
          });
      }
    }
    if (dirname(d) === d) return facts;
  }
}

/** What makes a version file's name climb out of a versions directory, or null: an unreadable one may. */
function climbingName(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return "cannot be read";
  }
  const word = climbingVersionName(text);
  return word === null ? null : `names \`${word}\`, a directory outside the manager's versions`;
}
