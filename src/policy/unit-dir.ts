// The directory a shell unit runs in, as the targets derived from it need it: known, or one target saying why not.
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellDir } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";

/**
 * The directory `unit` runs in, or the one target that says it is not known here (`why`: what in that
 * directory the decision needs).
 */
export function unitDir(
  unit: ExecUnit,
  callCwd: string,
  home: string | null,
  why: string,
): string | DiskTarget[] {
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  return dir ?? [{ kind: "unknown", shown: unit.text, reason: why }];
}
