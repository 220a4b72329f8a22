// GitHub Copilot CLI's tools (1.0, as its model sees them) in Airlock's canonical vocabulary. Every field of each
// schema is listed; anything else makes the call not understood (agent-tools.ts). MCP tools keep their own names, and
// so does `write_bash` (keystrokes into a running program: only its exact input can be granted).
import {
  type AgentToolTable,
  type MappedTool,
  mapAgentTool,
  one,
  present,
  session,
  text,
} from "../agent-tools.ts";

/** `paths` is one path or several: one canonical call per path, each judged. */
function perPath(
  tool: string,
  fields: readonly string[],
  extra: (i: Record<string, unknown>) => Record<string, unknown>,
) {
  return {
    fields,
    map: (i: Record<string, unknown>): MappedTool[] => {
      const paths = Array.isArray(i.paths) ? i.paths : i.paths === undefined ? [undefined] : [i.paths];
      return paths.map((p) => ({
        tool,
        input: present({
          ...extra(i),
          path: typeof p === "string" ? p : p === undefined ? undefined : String(p),
        }),
      }));
    },
  };
}

export const COPILOT_TOOLS: AgentToolTable = {
  bash: one("bash", ["command", "description", "shellId", "mode", "detach", "initial_wait"], (i) =>
    present({
      command: i.command,
      background: i.mode === "async" || i.detach === true ? true : undefined,
    }),
  ),
  view: one("read", ["path", "view_range", "forceReadLargeFiles"], (i) => present({ path: text(i, "path") })),
  create: one("write", ["path", "file_text"], (i) =>
    present({ path: text(i, "path"), content: i.file_text }),
  ),
  edit: one("edit", ["path", "old_str", "new_str"], (i) => present({ path: text(i, "path") })),
  grep: perPath(
    "grep",
    [
      "pattern",
      "paths",
      "output_mode",
      "glob",
      "type",
      "-i",
      "-A",
      "-B",
      "-C",
      "-n",
      "head_limit",
      "multiline",
    ],
    (i) => ({ pattern: text(i, "pattern"), glob: text(i, "glob"), type: text(i, "type") }),
  ),
  glob: perPath("find", ["pattern", "paths"], (i) => ({ pattern: text(i, "pattern") })),
  web_fetch: one("webfetch", ["url", "max_length", "start_index", "raw"], (i) =>
    present({ url: text(i, "url") }),
  ),
  read_bash: session("session.shell_output", ["shellId", "delay"]),
  stop_bash: session("session.shell_stop", ["shellId"]),
  list_bash: session("session.shell_list", []),
  task: session("session.subagent", [
    "description",
    "prompt",
    "agent_type",
    "name",
    "model",
    "reasoning_effort",
    "context_tier",
    "mode",
  ]),
  read_agent: session("session.subagent", ["agent_id", "wait", "timeout", "since_turn"]),
  list_agents: session("session.subagent", ["include_completed", "scope"]),
  write_agent: session("session.subagent", ["agent_id", "agent_ids", "scope", "message"]),
  skill: session("session.skill", ["skill"]),
  // Copilot's own per-session database (its todos and notes), not a database of the user's.
  sql: session("session.sql", ["description", "query"]),
  session_store_sql: session("session.sql", ["description", "query", "source"]),
  fetch_copilot_cli_documentation: session("session.docs", []),
  report_intent: session("session.report_intent", ["intent"]),
  update_todo: session("session.todo_write", ["todos"]),
};

export function mapCopilotTool(name: string, input: Record<string, unknown>): MappedTool[] {
  return mapAgentTool(COPILOT_TOOLS, name, input);
}
