// Where `man NAME` finds its page (man-db 2.11.2): MANPATH from the agent's environment, else a path made
// from PATH (each element's manual directory: `DIR/../man`, `DIR/../share/man`, …, or /etc/manpath.config's
// map). A page is groff input whose `.so` includes any other file, so a manual directory the project holds
// could print any file (`.so ~/.ssh/id_ed25519`): a MANPATH or PATH element in the workspace (or just below
// it, whose `..` is the workspace) asks. So do MANOPT, options man adds to every call (`-H` runs a browser),
// and MANROFFOPT, options it gives groff (groff's own variables are in policy/env-loads.ts).
import { dirname } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isWithin } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

export function manPathFact(env: NodeJS.ProcessEnv, workspace: string, subject: string): CallFact | null {
  if ((env.MANOPT ?? "") !== "")
    return {
      subject,
      reason: "MANOPT is set in the agent's environment: man adds its options to every call",
    };
  // man(1): MANROFFOPT's options go to every formatter man runs (`-M DIR` macro files, `-F DIR` devices, `-U`).
  if ((env.MANROFFOPT ?? "") !== "")
    return {
      subject,
      reason:
        "MANROFFOPT is set in the agent's environment: man passes its options (macro and device directories) to the formatter",
    };
  for (const [name, list] of [
    ["MANPATH", env.MANPATH],
    ["PATH", env.PATH],
  ] as const)
    for (const dir of (list ?? "").split(":")) {
      if (!dir.startsWith("/")) continue;
      if (isWithin(workspace, dir) || isWithin(workspace, dirname(dir)))
        return {
          subject,
          reason: `${name} holds \`${shownPath(dir, workspace)}\`, in the workspace: man would search manual pages the project holds, whose \`.so\` includes any file`,
        };
    }
  return null;
}
