// Claude Code tool calls in Airlock's canonical (Pi) vocabulary, through the one table in src/policy.
import { canonicalCalls } from "../../../policy/tool-names.ts";

export interface MappedTool {
  tool: string;
  input: Record<string, unknown>;
}

/** Claude Code's tools each map to exactly one canonical call (`Bash` → `bash`, `Read` → `read` …). */
export function mapClaudeTool(name: string, input: Record<string, unknown>): MappedTool {
  const c = canonicalCalls(name, input)[0];
  // The canonical input carries what the judge needs again (a workdir, fields no mapping knows).
  return c === undefined ? { tool: name, input } : { tool: c.tool, input: c.input };
}
