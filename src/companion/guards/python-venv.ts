// Python virtual environments inside the project, by what is on disk: a directory holding `pyvenv.cfg`
// (what `python3 -m venv`, virtualenv, uv, poetry and tox make, under any name) is installed code that runs
// later, as node_modules/ is: its `bin/activate` is sourced by editors' terminals and direnv, and site runs
// every `import` line of its `site-packages/*.pth` at each interpreter start (red team, round 14).
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isWithin } from "./real-path.ts";

/** The virtualenv directory below `workspace` that holds `real` (a real path), or null when none does. */
export function virtualenvHolding(real: string, workspace: string): string | null {
  for (let d = dirname(real); isWithin(workspace, d) && d !== workspace; d = dirname(d))
    if (statSync(join(d, "pyvenv.cfg"), { throwIfNoEntry: false })?.isFile() === true) return d;
  return null;
}
