// Codex tool calls in Airlock's canonical vocabulary, through the one table in src/policy. A patch can touch
// several files, so one Codex call may become several Airlock calls; every one must be allowed.
import { canonicalCalls, patchTargets } from "../../../policy/tool-names.ts";
import type { MappedTool } from "../claude-code/tools.ts";

export { patchTargets };

export function mapCodexTool(name: string, input: Record<string, unknown>): MappedTool[] {
  // The canonical input carries what the judge needs again (the workdir, fields no mapping knows).
  return canonicalCalls(name, input).map((c) => ({ tool: c.tool, input: c.input }));
}
