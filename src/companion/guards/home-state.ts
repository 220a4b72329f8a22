// HOME's own state (home-config.ts: its hidden entries, ~/Library, ~/snap) as the disk has it, for reads in a
// workspace that holds HOME: a link in the workspace leading into ~/.config, a glob's match in a hidden entry,
// a walk from HOME down into them (red team, round 18, r18-03: wallets' keys, chat sessions, histories).
import type { CallFact } from "../../policy/call-facts.ts";
import { holdsHome, homeStateEntry, homeStateRead } from "../../policy/home-config.ts";
import { homeFor } from "../../policy/paths.ts";
import { homeOf } from "./git-config-layers.ts";
import { realPathOf } from "./real-path.ts";

/** What these checks need of a decision's context (disk-context.ts's Context; not imported, as tree-walk.ts uses this file). */
interface HomeContext {
  cwd: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
}

/** The agent's HOME as the disk has it (links resolved); null when it cannot be resolved. */
export function realHome(env: NodeJS.ProcessEnv): string | null {
  const home = realPathOf(homeOf(env));
  return home.ok ? home.real : null;
}

/** HOME as the disk has it when the workspace is HOME or above it (its state is then inside), else null. */
export function heldHome(ctx: HomeContext): string | null {
  const home = realHome(ctx.env);
  return home !== null && holdsHome(ctx.workspace, home) ? home : null;
}

/** What a person reads for such a read: `how` reaches `where` (the entry of HOME's state it is in). */
export function homeStateReason(how: string, where: string, entry: string): string {
  return `${how} \`${where}\`, the home directory's own state (\`${entry}\`: the keys, tokens, sessions and histories programs keep there), in a workspace that holds the home directory`;
}

/** A read whose real path is in HOME's state, `home` being heldHome's answer; null when it is not. */
export function homeStateFact(
  real: string,
  home: string | null,
  subject: string,
  how: string,
): CallFact | null {
  const entry = homeStateEntry(real, home);
  return entry === null ? null : { subject, reason: homeStateReason(how, real, entry) };
}

/**
 * A read whose real path is in HOME's state (through a link, or with HOME where the policy does not infer it
 * from the working directory: `/var/lib/u`); null when not, or when the policy judged its path so already.
 */
export function homeStateReadFact(
  real: string,
  lexical: string,
  ctx: HomeContext,
  subject: string,
): CallFact | null {
  if (homeStateRead(lexical, ctx.cwd, homeFor(ctx.cwd)) !== null) return null;
  return homeStateFact(real, heldHome(ctx), subject, real === lexical ? "reads" : "is a link to");
}
