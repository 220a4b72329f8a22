// Claude Code tool calls in Airlock's canonical (Pi) vocabulary: which tool, and the input fields policy reads.
export interface MappedTool {
  tool: string;
  input: Record<string, unknown>;
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

/** Only set fields that are present, so a rule on `path` never sees `undefined` as a string. */
function pick(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/**
 * Claude Code's own bookkeeping tools have no effect outside the session; they map to `session.*` / `ui.*`
 * (low risk) instead of the unknown-tool capability, so they do not page the phone.
 */
const SESSION_TOOLS: Record<string, string> = {
  TodoWrite: "session.todo_write",
  TaskCreate: "session.task_create",
  TaskGet: "session.task_get",
  TaskUpdate: "session.task_update",
  TaskList: "session.task_list",
  TaskStop: "session.task_stop",
  Task: "session.subagent",
  Agent: "session.subagent",
  EnterPlanMode: "ui.enter_plan_mode",
  ExitPlanMode: "ui.exit_plan_mode",
  AskUserQuestion: "ui.ask_user_question",
};

export function mapClaudeTool(name: string, input: Record<string, unknown>): MappedTool {
  switch (name) {
    case "Bash":
      return { tool: "bash", input: pick({ command: str(input, "command") }) };
    case "Read":
      return {
        tool: "read",
        input: pick({ path: str(input, "file_path"), offset: input.offset, limit: input.limit }),
      };
    case "Write":
      return { tool: "write", input: pick({ path: str(input, "file_path"), content: input.content }) };
    case "Edit":
    case "MultiEdit":
      return { tool: "edit", input: pick({ path: str(input, "file_path") }) };
    case "NotebookEdit":
      return { tool: "edit", input: pick({ path: str(input, "notebook_path") }) };
    case "Grep":
      return {
        tool: "grep",
        input: pick({ pattern: str(input, "pattern"), path: str(input, "path"), glob: str(input, "glob") }),
      };
    case "Glob":
      return { tool: "find", input: pick({ pattern: str(input, "pattern"), path: str(input, "path") }) };
    case "LS":
      return { tool: "ls", input: pick({ path: str(input, "path") }) };
    case "WebFetch":
      return { tool: "webfetch", input: pick({ url: str(input, "url") }) };
    case "WebSearch":
      // A search goes to the search provider, not to a URL the model chose: http with a dynamic host.
      return {
        tool: "webfetch",
        input: pick({ query: str(input, "query"), allowed_domains: input.allowed_domains }),
      };
    default: {
      const session = SESSION_TOOLS[name];
      if (session) return { tool: session, input: {} };
      // mcp__server__tool and any other tool keep their own name (capability "tool").
      return { tool: name, input };
    }
  }
}
