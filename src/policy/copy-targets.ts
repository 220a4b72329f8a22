// The trees a copy or move puts somewhere whole (fileops.ts `copies`) and the archives tar extracts (`extracts`):
// the companion lists what each source holds, as the names that land below the destination are only on the disk
// (guards/copy-landings.ts).
import type { DiskTarget } from "./call-facts.ts";
import { normalizePath } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";
import type { Arg } from "./shell/wrappers.ts";
import { unitDir } from "./unit-dir.ts";

function absolute(arg: Arg, dir: string): string | null {
  if (arg.value === null || arg.tilde) return null;
  return normalizePath(arg.value.startsWith("/") ? arg.value : `${dir}/${arg.value}`);
}

/** The archive a tar extracts below `dest`, or why its member names are not known here. */
function extractTarget(
  unit: ExecUnit,
  archive: Arg,
  dest: Arg,
  dir: string,
  home: string | null,
): DiskTarget {
  const from = absolute(archive, dir);
  const to = absolute(dest, dir);
  if (from === null || to === null || archive.glob || dest.glob)
    return {
      kind: "unknown",
      shown: unit.text,
      reason: `it extracts an archive whose member names (and where they land) are not known here: a pipe, a renaming or absolute-names option, or a name only known at run time`,
    };
  return { kind: "extract", archive: from, to, home, shown: unit.text };
}

/** One target per tree the unit copies or moves whole, or one saying its names cannot be known here. */
export function copyTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const paths = unit.effects?.paths ?? [];
  const copies = paths.filter((e) => e.access === "write" && (e.copies ?? e.extracts) !== undefined);
  if (copies.length === 0) return [];
  const dir = unitDir(unit, callCwd, home, "it copies a tree from a directory not known here");
  if (typeof dir !== "string") return dir;
  const out: DiskTarget[] = [];
  for (const e of copies) {
    if (e.extracts !== undefined) {
      out.push(extractTarget(unit, e.extracts, e.arg, dir, home));
      continue;
    }
    const source = e.copies as Arg;
    const from = absolute(source, dir);
    const to = absolute(e.arg, dir);
    // An unknown destination is a write the rules already ask about; an unknown source lands unknown names.
    if (to === null) continue;
    if (from === null) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: `it copies \`${source.raw}\`, a tree not known here, whose names land below \`${e.arg.raw}\``,
      });
      continue;
    }
    const walk = paths.find((w) => w.access === "walk" && w.arg === source);
    out.push({
      kind: "copy",
      from,
      to,
      glob: source.glob,
      follow: walk?.follow ?? "none",
      home,
      shown: unit.text,
    });
  }
  return out;
}
