// What the companion's look at the disk settles of a bash call's parts, read once for the verdict
// (judge-bash.ts) and the risk shown beside it (risk.ts): a glob the disk showed harmless must lower both,
// or the card shows an allowed call as high risk (red team, s04: `base64 .git/objects/*/*`).
import type { PathFacts } from "./path-facts.ts";
import type { ExecUnit, PathUnit, ShellUnit } from "./units.ts";

/** How the call is decided (decide.ts): with the disk looked at, and with read globs judged by their matches. */
export interface DiskLook {
  diskChecked: boolean;
  globsOnDisk: boolean;
}

/** What the disk settles for one call's parts. */
export interface Settled {
  /** A leading glob a grammar could not place is placed (its matches named like options raise the call). */
  optionGlobs: boolean;
  /** A glob a read-only command reads is judged by its matches, not by every name it could match. */
  readGlobs: boolean;
}

export const NOTHING_SETTLED: Settled = { optionGlobs: false, readGlobs: false };

/**
 * The disk as the companion sees it now is the disk the command meets only if nothing in it creates or
 * renames a file first (`touch ./--files0-from=.env; du -sh *`).
 */
export function diskSettles(units: readonly ShellUnit[]): boolean {
  return units.every((u) => u.kind === "read" || (u.kind === "exec" && u.effect === "read"));
}

/** What a look at the disk settles for these parts; nothing when the command may change the disk first. */
export function settledBy(units: readonly ShellUnit[], look: DiskLook): Settled {
  if (!look.diskChecked || !diskSettles(units)) return NOTHING_SETTLED;
  return { optionGlobs: true, readGlobs: look.globsOnDisk };
}

/**
 * A leading glob the companion expands on the disk (disk-targets.ts): a match named like an option raises
 * the call there, so where it looks (and the command changes no file first) the command is what its grammar
 * placed; elsewhere it stays not understood.
 */
export function settledExec(unit: ExecUnit, settled: Settled): ExecUnit {
  if (unit.notUnderstood?.optionGlob !== true || !settled.optionGlobs) return unit;
  const { notUnderstood: _settled, ...placed } = unit;
  return placed;
}

/**
 * A glob a read-only command reads, which the caller expands on the disk it meets (judge-call.ts): what it
 * could match by name is left to its matches there. Not a recursive read (the walk is judged on its own),
 * nor `**` (globstar, if the agent's shell set it, walks the tree), nor a path not known before it runs.
 */
function globByMatches(unit: PathUnit, facts: PathFacts, settled: Settled): boolean {
  return (
    settled.readGlobs &&
    unit.kind === "read" &&
    unit.glob &&
    !unit.recursive &&
    facts.path !== null &&
    !facts.path.includes("**")
  );
}

/** A path part's facts with what the disk settled: a read glob is no secret (nor HOME's state) by its name alone. */
export function settledFacts(unit: PathUnit, facts: PathFacts, settled: Settled): PathFacts {
  return globByMatches(unit, facts, settled) ? { ...facts, sensitive: false, homeState: null } : facts;
}
