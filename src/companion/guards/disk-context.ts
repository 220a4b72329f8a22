// What one decision's look at the disk carries from target to target: where it stands, the agent's
// environment, and the answers it caches (the workspace's own repository, repository states, PATH).
import type { Repository } from "./git-discovery.ts";
import type { PathView } from "./path-lookup.ts";
import { realPathOf } from "./real-path.ts";

export interface Context {
  cwd: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  walkBound: number;
  ownRepo?: Repository | null;
  /** repositoryStateFact's answers in this decision (several git units walk the same `.git` once). */
  states?: Map<string, string | null>;
  /** The agent's PATH as this decision looks programs up (null: no entry can name a project file). */
  path?: PathView | null;
}

/** The workspace as the disk has it (links resolved), for comparing with real paths. */
export function realWorkspace(ctx: Context): string {
  const r = realPathOf(ctx.workspace);
  return r.ok ? r.real : ctx.workspace;
}
