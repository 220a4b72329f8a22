// Airlock's own home, wherever AIRLOCK_HOME puts it (red team, round 16, r16b-10: a home inside the project
// let the agent rewrite permissions.yaml, and the next `cat ~/.netrc` was allowed). By its default name
// (`.airlock/`) it is a secret family already; this finds it by where it is: the home of the process that
// judges (the hook runs in the agent's environment, the daemon in its own) and the one the agent's
// environment names, which the next hook will use.
import type { CallFact } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { airlockHome } from "../cli/config.ts";
import type { Context } from "./disk-context.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** Each home as named and as the disk resolves it (a link to a directory protects what it leads to). */
function homes(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const home of [airlockHome(process.env), airlockHome(env)]) {
    out.add(home);
    const r = realPathOf(home);
    if (r.ok) out.add(r.real);
  }
  return [...out];
}

/** A read or write at or below Airlock's own home: its policy, its device token, the hook endpoint's secret. */
export function airlockHomeFact(
  access: "read" | "write",
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  const home = homes(ctx.env).find((h) => isWithin(h, real) || isWithin(h, lexical));
  if (home === undefined) return null;
  const where = `Airlock's own home (\`${shownPath(home, ctx.workspace)}\`, AIRLOCK_HOME)`;
  return {
    subject,
    reason:
      access === "write"
        ? `is in ${where}: its permissions.yaml decides what every call may do, so a write there needs a person`
        : `is in ${where}, which holds its device token and the hook endpoint's secret`,
  };
}

/**
 * A recursive read whose tree holds Airlock's own home (or lies in it) reads its secrets as a read does. A
 * home under a secret name (`~/.airlock`) is left to the walk, which skips it as it skips `.ssh/`.
 */
export function airlockHomeWalkFact(root: string, ctx: Context, subject: string): CallFact | null {
  const home = homes(ctx.env).find(
    (h) => (isWithin(root, h) || isWithin(h, root)) && !isDenylistedPath(`${h}/_`),
  );
  return home === undefined
    ? null
    : {
        subject,
        reason: `walks Airlock's own home (\`${shownPath(home, ctx.workspace)}\`, AIRLOCK_HOME), which holds its device token and the hook endpoint's secret`,
      };
}
