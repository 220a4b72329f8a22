// What the engine knows about a file a shell command reads or writes: its absolute path (as
// bash and the kernel will resolve it), whether it is inside the workspace, and whether it is
// sensitive (a secret, or a file that decides what runs later), globs judged by every path they
// could match, and whether a read is of HOME's own state from a workspace that holds HOME.

import { holdsHome, homeConfigEntry, homeStateRead, isProtectedWriteAt } from "../home-config.ts";
import { relativeInside, resolveShellPath } from "../paths.ts";
import { globMayBeDenylisted, isDenylistedPath } from "../secret-paths.ts";
import { memo } from "./memo.ts";
import type { PathUnit } from "./units.ts";

export interface PathFacts {
  /** The absolute path (a glob keeps its pattern characters), or null when it cannot be known. */
  path: string | null;
  inside: boolean;
  sensitive: boolean;
  /** A read's entry of HOME's own state (`~/.config`) when the workspace holds HOME (home-config.ts), or null. */
  homeState: string | null;
}

// Units come from the analysis cache and are judged again on every repeat of a command: the
// facts are kept per unit for the last working directory and home they were resolved against.
export function pathFacts(unit: PathUnit, callCwd: string, home: string | null): PathFacts {
  return memo(unit, `facts\u0000${callCwd}\u0000${home ?? ""}`, () => computeFacts(unit, callCwd, home));
}

function computeFacts(unit: PathUnit, callCwd: string, home: string | null): PathFacts {
  const path = resolveShellPath(unit, callCwd, home);
  // Unknown paths are still checked by what is written (`~user/.ssh/id_rsa`).
  const shown = path ?? unit.path ?? unit.text;
  const write = unit.kind === "write";
  const sensitive = unit.glob
    ? globMayBeDenylisted(shown, write) ||
      (write && (homeConfigEntry(shown, home) !== null || holdsHome(shown, home)))
    : write
      ? isProtectedWriteAt(shown, home)
      : isDenylistedPath(shown);
  const homeState = !write && path !== null ? homeStateRead(path, callCwd, home) : null;
  return { path, inside: path !== null && relativeInside(callCwd, path) !== null, sensitive, homeState };
}
