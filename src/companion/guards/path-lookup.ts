// Which file a bare program name runs: bash's PATH lookup in the agent's environment, in order (red team,
// round 14: direnv's `PATH_add bin`, an in-project .venv/bin or `./node_modules/.bin` made `ls` the
// project's bin/ls). Only a PATH with an entry inside the workspace, or a relative or empty one (the
// directory the command runs in), is looked at; directories out of the workspace are the person's own.
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { statEntry } from "./fs-entry.ts";
import { trackedFile } from "./git-tracked.ts";
import { virtualenvDoubt, virtualenvHolding } from "./python-venv.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** One PATH entry: a directory of the person's (`outside`), of the project, or relative to the command. */
type Entry =
  | { kind: "outside"; dir: string }
  | { kind: "project"; dir: string; real: string }
  | { kind: "relative"; raw: string };

/** The PATH as one decision looks it up, and the files it found executable (a stat per name per directory). */
export interface PathView {
  entries: readonly Entry[];
  executable: Map<string, boolean>;
}

/** The agent's PATH split as bash splits it; null when no entry can name a project file. */
export function pathView(env: NodeJS.ProcessEnv, workspace: string): PathView | null {
  if (env.PATH === undefined) return null;
  const entries: Entry[] = env.PATH.split(":").map((written) => {
    // bash expands a leading `~` of an entry when it searches.
    const home = env.HOME;
    const raw = home && /^~(\/|$)/.test(written) ? `${home}${written.slice(1)}` : written;
    if (!raw.startsWith("/")) return { kind: "relative", raw };
    const r = realPathOf(raw);
    const real = r.ok ? r.real : raw;
    return isWithin(workspace, real) ? { kind: "project", dir: raw, real } : { kind: "outside", dir: raw };
  });
  return entries.some((e) => e.kind !== "outside") ? { entries, executable: new Map() } : null;
}

/** What bash's search takes: a regular file (links followed) with an execute bit. */
export function runnable(file: string): boolean {
  let st: ReturnType<typeof statEntry>;
  try {
    st = statEntry(file);
  } catch {
    st = undefined; // an entry that is a file (ENOTDIR) or not ours to search (EACCES): bash passes it by
  }
  return st?.isFile() === true && (st.mode & 0o111) !== 0;
}

function executable(view: PathView, file: string): boolean {
  let hit = view.executable.get(file);
  if (hit === undefined) {
    hit = runnable(file);
    view.executable.set(file, hit);
  }
  return hit;
}

/** The file bash runs for the bare name `name` in `dir`, through every PATH entry; null when none has it. */
export function programFile(name: string, env: NodeJS.ProcessEnv, dir: string): string | null {
  for (const written of (env.PATH ?? "").split(":")) {
    const home = env.HOME;
    const entry = home && /^~(\/|$)/.test(written) ? `${home}${written.slice(1)}` : written;
    const file = join(resolve(dir, entry || "."), name);
    if (runnable(file)) return file;
  }
  return null;
}

/**
 * Whether the program bash finds for `shim.program` in `dir` is that shim: its real path holds `shim.holds`.
 * A file whose real path cannot be had counts as the shim (unsure asks); no file at all runs nothing.
 */
export function runsShim(
  shim: { program: string; holds: string },
  dir: string,
  env: NodeJS.ProcessEnv,
): boolean {
  const file = programFile(shim.program, env, dir);
  if (file === null) return false;
  try {
    return realpathSync(file).includes(shim.holds);
  } catch {
    return true;
  }
}

type ProgramTarget = Extract<DiskTarget, { kind: "program" }>;

/** A directory PATH names, as written (`dir`) and as the disk has it (`real`), and the entry that named it. */
interface Searched {
  dir: string;
  real: string;
  entry: string;
}

/** Why the directory may hold the program the command runs, or null when bash passes it by. */
function searchedReason(t: ProgramTarget, view: PathView, s: Searched, workspace: string): string | null {
  const where = shownPath(s.real, workspace);
  const into = t.written.find((w) => [s.dir, s.real].some((d) => isWithin(d, w) || isWithin(w, d)));
  if (into !== undefined)
    return `the command first writes \`${shownPath(into, workspace)}\`, in \`${where}\` on PATH, where bash may then find \`${t.name}\``;
  const file = join(s.real, t.name);
  if (!executable(view, file)) return null;
  const installed = isWithin(workspace, s.real) ? installedCode(file, workspace) : null;
  if (typeof installed === "string")
    return `\`${t.name}\` is \`${shownPath(file, workspace)}\` (PATH), but ${installed}`;
  if (installed === true) {
    const r = realPathOf(file);
    const tracked = trackedFile(s.real, r.ok ? [file, r.real] : [file]);
    if (tracked === null) return null;
    return `\`${t.name}\` is \`${shownPath(file, workspace)}\` (PATH), which the repository tracks: the repository's own code, not an installed program`;
  }
  return isWithin(workspace, s.real)
    ? `\`${t.name}\` is \`${shownPath(file, workspace)}\` of the project (PATH), not the system's program`
    : `\`${t.name}\` is \`${file}\`, found through PATH's relative entry \`${s.entry}\`, not the system's program`;
}

/**
 * Whether a file is the project's installed code: in a `node_modules/`, or in a virtualenv the person made
 * (python-venv.ts, the one rule python's start-up also asks). Writes there are protected, so what is there
 * the person installed (an activated `.venv/bin` on PATH is everyday Python work); the repository tracking
 * it makes it the repository's code again. A string: the venv it is in is not installed code, and why.
 */
function installedCode(file: string, workspace: string): boolean | string {
  if (/(^|\/)node_modules\//.test(shownPath(file, workspace))) return true;
  const venv = virtualenvHolding(file, workspace);
  return venv === null ? false : (virtualenvDoubt(venv, workspace) ?? true);
}

/** The directory a project or relative entry names for a unit run in `dir`. */
export function searched(e: Exclude<Entry, { kind: "outside" }>, dir: string): Searched {
  if (e.kind === "project") return { dir: e.dir, real: e.real, entry: e.dir };
  const lexical = resolve(dir, e.raw || ".");
  const r = realPathOf(lexical);
  return { dir: lexical, real: r.ok ? r.real : lexical, entry: e.raw || "(empty: the working directory)" };
}

/** The fact that the unit's bare program name runs a file of the project, or null when PATH finds another first. */
export function programFact(t: ProgramTarget, view: PathView, workspace: string): CallFact | null {
  const last = view.entries.findLastIndex((e) => e.kind !== "outside");
  for (const e of view.entries.slice(0, last + 1)) {
    if (e.kind === "outside") {
      if (executable(view, join(e.dir, t.name))) return null;
      continue;
    }
    if (t.dir === null && e.kind === "relative")
      return {
        subject: t.shown,
        reason: `PATH has the relative entry \`${e.raw}\` and the command runs in a directory not known here, which may hold \`${t.name}\``,
      };
    const reason = searchedReason(t, view, searched(e, t.dir ?? "/"), workspace);
    if (reason !== null) return { subject: t.shown, reason };
  }
  return null;
}
