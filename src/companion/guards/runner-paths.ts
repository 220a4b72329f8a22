// A runner's project on disk: the directory it runs in and the paths it names, each by its real path. A
// link in the workspace to another checkout (`ext -> ../other`) makes `cd ext && make test` run the other
// checkout's Makefile though every path reads as the workspace's (red team, round 14, r14-24).
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { expandGlob } from "./bash-glob.ts";
import { isWithin, realPathOf } from "./real-path.ts";

/** More matches than this and the glob is not judged path by path. */
const MAX_GLOB_PATHS = 1_000;

/** The paths a word stands for on disk: itself, or a glob's matches. */
function expanded(p: { path: string; glob: boolean }): { paths: string[] } | { unknown: string } {
  if (!p.glob) return { paths: [p.path] };
  const e = expandGlob(p.path, MAX_GLOB_PATHS, true);
  return "unknown" in e ? e : { paths: e.paths };
}

/** The first place the runner's project is that leads out of the workspace on disk; null when none does. */
export function runnerPathsFact(
  t: Extract<DiskTarget, { kind: "runner-paths" }>,
  workspace: string,
): CallFact | null {
  for (const p of t.paths) {
    const e = expanded(p);
    if ("unknown" in e) return { subject: t.shown, reason: e.unknown };
    for (const path of e.paths) {
      const r = realPathOf(path);
      if (!r.ok) return { subject: t.shown, reason: `\`${path}\` cannot be resolved (${r.reason})` };
      if (isWithin(workspace, r.real)) continue;
      // A word naming nothing on disk in the workspace (a make target, `./...`) is no place the project is; one
      // out of it is a place anyone may fill before the run (`--reporter=/tmp/r.mjs` in sticky /tmp, s22-01).
      if (r.stat === null)
        return {
          subject: t.shown,
          reason: `it names \`${path}\`, out of the workspace and not there now: whoever creates it first decides what runs`,
        };
      return {
        subject: t.shown,
        reason: `it runs the project at \`${path}\`, whose real path \`${r.real}\` is out of the workspace: what runs is defined there`,
      };
    }
  }
  return null;
}
