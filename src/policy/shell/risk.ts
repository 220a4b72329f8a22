// The risk of a bash call, per the terminal-safety rubric the capability prompt shows: read-only
// inspection is low; reversible writes inside the workspace, known runners and what is not understood
// are medium; what cannot be undone, leaves the machine or escalates (deleting, outbound, privileged,
// writes outside the workspace, secrets, text bash reads differently) is high. Only high asks the
// person to confirm a second time, and only high never offers "always".
import type { Risk } from "../types.ts";
import { dangerOf, effectOf } from "./danger.ts";
import {
  type DiskLook,
  NOTHING_SETTLED,
  type Settled,
  settledBy,
  settledExec,
  settledFacts,
} from "./disk-settled.ts";
import { memo } from "./memo.ts";
import { pathFacts } from "./path-facts.ts";
import type { ExecUnit, ShellUnit } from "./units.ts";

/**
 * Programs whose working directory matters only as the place their path operands are resolved from (each
 * judged as the path it resolves to, `.` included): they read no configuration there (strace: `ls` opens
 * `.` and nothing else relative), so `cd .. && ls` is `ls ..`. A name found through PATH's relative entry
 * is the disk's to check (path-lookup.ts).
 */
const OPERANDS_ONLY: ReadonlySet<string> = new Set(["ls", "dir", "vdir", "pwd"]);

/** It runs somewhere other than the workspace: `git -C /elsewhere`, or after a `cd` out of it. */
function movesOut(unit: ExecUnit): boolean {
  if (OPERANDS_ONLY.has(unit.program) && (unit.effects?.chdir ?? []).length === 0) return false;
  const away = (p: string | null) =>
    p === null || p.startsWith("/") || p.startsWith("~") || p === ".." || p.startsWith("../");
  if (unit.cwd !== null && unit.cwd !== "." && away(unit.cwd)) return true;
  return (unit.effects?.chdir ?? []).some((a) => away(a.value));
}

/** The system's scratch directories: a write there changes no one's work. */
function isTempPath(path: string): boolean {
  return /^\/(tmp|var\/tmp)\/[^/]/.test(path);
}

export interface ShellRisk {
  risk: Risk;
  justification: string;
}

const RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

/** One part's risk; `settled` is what the companion's look at the disk settled (the verdict reads the same). */
export function unitRisk(
  given: ShellUnit,
  callCwd: string,
  home: string | null,
  settled: Settled = NOTHING_SETTLED,
): ShellRisk {
  const unit = given.kind === "exec" ? settledExec(given, settled) : given;
  switch (unit.kind) {
    case "unparsable":
      return { risk: "high", justification: "the command cannot be fully analysed" };
    case "exec": {
      // What cannot be undone, leaves the machine or escalates is high whether or not it is understood.
      const danger = dangerOf(unit);
      if (danger !== null) return { risk: "high", justification: danger.reason };
      // A secret printed or a variable that changes what runs is high; a session is a question (medium).
      const concern = unit.concerns.find((c) => c.mention !== "interactive") ?? unit.concerns[0];
      if (concern !== undefined)
        return { risk: concern.mention === "interactive" ? "medium" : "high", justification: concern.reason };
      // Not understood is a question, not a danger: medium, and the card says which word.
      if (unit.dynamic !== null) return { risk: "medium", justification: `not understood: ${unit.dynamic}` };
      if (unit.notUnderstood !== undefined)
        return {
          risk: "medium",
          justification: `not understood: \`${unit.notUnderstood.word}\` (${unit.notUnderstood.reason})`,
        };
      const effect = effectOf(unit);
      if (effect !== "run" && movesOut(unit))
        return { risk: "medium", justification: "runs in a directory outside the workspace" };
      if (effect === "read") return { risk: "low", justification: "read-only commands" };
      if (effect === "write") return { risk: "medium", justification: "writes files" };
      if (effect === "destroy") return { risk: "high", justification: "deletes or overwrites data" };
      return {
        risk: "medium",
        justification: "runs the project's code (a known test, build or script runner)",
      };
    }
    case "read": {
      const facts = settledFacts(unit, pathFacts(unit, callCwd, home), settled);
      if (facts.sensitive) return { risk: "high", justification: "reads a path that looks like a secret" };
      if (facts.homeState !== null)
        return {
          risk: "high",
          justification: "reads the home directory's own state (keys, sessions, histories)",
        };
      // An unknown path is not understood (medium); a write to one stays high (it could overwrite anything).
      if (facts.path === null)
        return { risk: "medium", justification: "not understood: reads a path only known when it runs" };
      // A tree inside the workspace is read-only inspection; where the disk is looked at, the walk raises
      // the call if a secret is reachable. Outside the workspace it is medium like any outside read.
      if (unit.recursive)
        return facts.inside
          ? { risk: "low", justification: "reads every file below a directory in the workspace" }
          : { risk: "medium", justification: "reads every file below a directory outside the workspace" };
      return facts.inside
        ? { risk: "low", justification: "read-only commands" }
        : { risk: "medium", justification: "reads files outside the workspace" };
    }
    case "write": {
      const facts = pathFacts(unit, callCwd, home);
      if (facts.sensitive)
        return { risk: "high", justification: "writes a file that holds secrets or decides what runs" };
      if (facts.path !== null && !facts.inside && isTempPath(facts.path))
        return { risk: "medium", justification: "writes a file in the temporary directory" };
      if (facts.path === null || !facts.inside)
        return { risk: "high", justification: "writes outside the workspace" };
      return { risk: "medium", justification: "writes files in the workspace" };
    }
  }
}

/**
 * The highest risk of any part; the justification of the first part that reaches it. `look` is how the call
 * is decided: the disk a judge looked at lowers what it settled, as it lowers the verdict.
 */
export function shellRisk(
  units: readonly ShellUnit[],
  callCwd: string,
  home: string | null,
  look: DiskLook = { diskChecked: false, globsOnDisk: false },
): ShellRisk {
  const key = `risk\u0000${callCwd}\u0000${home ?? ""}\u0000${look.diskChecked}\u0000${look.globsOnDisk}`;
  return memo(units, key, () => computeRisk(units, callCwd, home, settledBy(units, look)));
}

function computeRisk(
  units: readonly ShellUnit[],
  callCwd: string,
  home: string | null,
  settled: Settled,
): ShellRisk {
  let worst: ShellRisk = { risk: "low", justification: "read-only commands" };
  for (const u of units) {
    const r = unitRisk(u, callCwd, home, settled);
    if (RANK[r.risk] > RANK[worst.risk]) worst = r;
    if (worst.risk === "high") break;
  }
  return worst;
}
