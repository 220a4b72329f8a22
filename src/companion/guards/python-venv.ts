// Python virtual environments inside the project, by what is on disk: a directory holding `pyvenv.cfg`
// (what `python3 -m venv`, virtualenv, uv, poetry and tox make, under any name) or `conda-meta/` (conda,
// mamba, micromamba and pixi environments, `conda create -p ./env`) is installed code that runs
// later, as node_modules/ is: its `bin/activate` is sourced by editors' terminals and direnv, and site runs
// every `import` line of its `site-packages/*.pth` at each interpreter start (red team, round 14).
// One rule says when a venv is the person's installed code (the PATH lookup and python's start-up both ask
// it, fix15e): writing into one, and writing a pyvenv.cfg, ask, so the files were the person's to make; but
// a venv the repository tracks is its code, and one whose python is a file of the workspace runs that file.
import { dirname, join } from "node:path";
import { statEntry } from "./fs-entry.ts";
import { trackedFile } from "./git-tracked.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { textFileOrNull } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

/** The virtualenv directory below `workspace` that holds `real` (a real path), or null when none does. */
export function virtualenvHolding(real: string, workspace: string): string | null {
  for (let d = dirname(real); isWithin(workspace, d) && d !== workspace; d = dirname(d))
    if (isVirtualenv(d)) return d;
  return null;
}

/**
 * A virtualenv (`pyvenv.cfg`), or a conda, mamba or pixi environment (`conda-meta/`, round 18, r18-02): its
 * own stdlib, `bin/` and `etc/conda/activate.d/*.sh` run at every python start or `conda activate`.
 */
export function isVirtualenv(dir: string): boolean {
  return isFile(join(dir, "pyvenv.cfg")) || isCondaEnv(dir);
}

function isCondaEnv(dir: string): boolean {
  return statEntry(join(dir, "conda-meta"))?.isDirectory() === true;
}

function isFile(path: string): boolean {
  return statEntry(path)?.isFile() === true;
}

/**
 * Why the virtualenv `venv` (in the workspace) is not installed code the person made, or null when it is:
 * its pyvenv.cfg tracked by the repository, or its python (`home`, and the `bin/python` every script's
 * `#!` names) leading into the workspace, where the agent writes.
 */
export function virtualenvDoubt(venv: string, workspace: string): string | null {
  const where = shownPath(venv, workspace);
  const cfg = join(venv, "pyvenv.cfg");
  // A conda environment's python is its own copy, a file of the workspace: never installed code out of it.
  if (!isFile(cfg))
    return `\`${where}\` is a conda environment (\`conda-meta/\`), whose python is its own file in the workspace`;
  if (trackedFile(venv, [cfg]) !== null)
    return `the repository tracks \`${where}/pyvenv.cfg\`: the virtualenv is the repository's code, not an installed one`;
  const home = /^\s*home\s*=\s*(.*?)\s*$/m.exec(textFileOrNull(cfg) ?? "")?.[1];
  if (home === undefined || !home.startsWith("/") || inWorkspace(home, workspace))
    return `the python of the virtualenv \`${where}\` (pyvenv.cfg \`home\`) is ${home === undefined ? "not named" : `\`${home}\``}, not an install out of the workspace`;
  for (const name of ["python", "python3"]) {
    const python = join(venv, "bin", name);
    const r = realPathOf(python);
    if (r.ok && r.stat === null) continue;
    if (inWorkspace(python, workspace))
      return `\`${shownPath(python, workspace)}\`, the python of the virtualenv, leads to a file of the workspace`;
  }
  return null;
}

/** Whether `path`, links followed, is in the workspace (one that cannot be resolved counts as in it). */
function inWorkspace(path: string, workspace: string): boolean {
  const r = realPathOf(path);
  return !r.ok || isWithin(workspace, r.real);
}
