// The checksum lists `sha256sum -c` reads (sums.ts marks them): the files their lines name are only on the disk,
// so each list is a target the companion reads (guards/checksum-lists.ts). A list named by a glob or a word
// known only at run time asks.
import type { DiskTarget } from "./call-facts.ts";
import { normalizePath } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";
import { unitDir } from "./unit-dir.ts";

/** One target per checksum list the unit checks, or one saying its names cannot be known here. */
export function checksumTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const lists = (unit.effects?.paths ?? []).filter((e) => e.checksums === true);
  if (lists.length === 0) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "it checks the files a checksum list names, from a directory not known here",
  );
  if (typeof dir !== "string") return dir;
  return lists.map(({ arg }): DiskTarget => {
    if (arg.value === null || arg.tilde || arg.glob)
      return {
        kind: "unknown",
        shown: unit.text,
        reason: `it checks the files the checksum list \`${arg.raw}\` names, a list not known before it runs`,
      };
    const list = normalizePath(arg.value.startsWith("/") ? arg.value : `${dir}/${arg.value}`);
    return { kind: "checksums", list, dir, shown: unit.text };
  });
}
