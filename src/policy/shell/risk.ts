// The risk of a bash call, per the terminal-safety rubric the capability prompt shows: read-only
// inspection is low, reversible writes inside the workspace are medium, and everything else
// (deleting, privileged or unknown programs, writes elsewhere, secrets, code the engine cannot
// see) is high. Only high asks the person to confirm a second time.
import type { Risk } from "../types.ts";
import { memo } from "./memo.ts";
import { pathFacts } from "./path-facts.ts";
import type { ShellUnit } from "./units.ts";

export interface ShellRisk {
  risk: Risk;
  justification: string;
}

const RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

export function unitRisk(unit: ShellUnit, callCwd: string, home: string | null): ShellRisk {
  switch (unit.kind) {
    case "unparsable":
      return { risk: "high", justification: "the command cannot be fully analysed" };
    case "exec":
      if (unit.dynamic !== null)
        return { risk: "high", justification: "part of the command is only known when it runs" };
      if (unit.notUnderstood !== undefined)
        return { risk: "high", justification: `\`${unit.notUnderstood.word}\` is not understood` };
      if (unit.concerns.length > 0)
        return { risk: "high", justification: (unit.concerns[0] as { reason: string }).reason };
      if (unit.effect === "read") return { risk: "low", justification: "read-only commands" };
      if (unit.effect === "write") return { risk: "medium", justification: "writes files" };
      if (unit.effect === "destroy") return { risk: "high", justification: "deletes or overwrites data" };
      return { risk: "high", justification: "exec can run arbitrary commands" };
    case "read": {
      const facts = pathFacts(unit, callCwd, home);
      if (facts.sensitive) return { risk: "high", justification: "reads a path that looks like a secret" };
      if (facts.path === null) return { risk: "high", justification: "reads a path only known when it runs" };
      if (unit.recursive) return { risk: "medium", justification: "reads every file below a directory" };
      return facts.inside
        ? { risk: "low", justification: "read-only commands" }
        : { risk: "medium", justification: "reads files outside the workspace" };
    }
    case "write": {
      const facts = pathFacts(unit, callCwd, home);
      if (facts.sensitive)
        return { risk: "high", justification: "writes a file that holds secrets or decides what runs" };
      if (facts.path === null || !facts.inside)
        return { risk: "high", justification: "writes outside the workspace" };
      return { risk: "medium", justification: "writes files in the workspace" };
    }
  }
}

/** The highest risk of any part; the justification of the first part that reaches it. */
export function shellRisk(units: readonly ShellUnit[], callCwd: string, home: string | null): ShellRisk {
  return memo(units, `risk\u0000${callCwd}\u0000${home ?? ""}`, () => computeRisk(units, callCwd, home));
}

function computeRisk(units: readonly ShellUnit[], callCwd: string, home: string | null): ShellRisk {
  let worst: ShellRisk = { risk: "low", justification: "read-only commands" };
  for (const u of units) {
    const r = unitRisk(u, callCwd, home);
    if (RANK[r.risk] > RANK[worst.risk]) worst = r;
    if (worst.risk === "high") break;
  }
  return worst;
}
