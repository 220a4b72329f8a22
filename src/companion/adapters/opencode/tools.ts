// OpenCode's tools (1.18, as its model sees them) in Airlock's canonical vocabulary. Every field of each schema is
// listed; anything else makes the call not understood (agent-tools.ts). OpenCode's names overlap Airlock's canonical
// ones (`bash`, `read`, `edit`) with other fields, so its calls are always mapped through this table first.
import { codexPatchTargets, headerLines } from "../../../policy/codex-patch.ts";
import {
  type AgentToolTable,
  type MappedTool,
  mapAgentTool,
  one,
  present,
  session,
  text,
} from "../agent-tools.ts";

export const OPENCODE_TOOLS: AgentToolTable = {
  bash: one("bash", ["command", "timeout", "workdir", "description"], (i) =>
    present({ command: i.command, workdir: i.workdir }),
  ),
  read: one("read", ["filePath", "offset", "limit"], (i) =>
    present({ path: text(i, "filePath"), offset: i.offset, limit: i.limit }),
  ),
  write: one("write", ["filePath", "content"], (i) =>
    present({ path: text(i, "filePath"), content: i.content }),
  ),
  edit: one("edit", ["filePath", "oldString", "newString", "replaceAll"], (i) =>
    present({
      path: text(i, "filePath"),
      old_string: i.oldString,
      new_string: i.newString,
      replace_all: i.replaceAll,
    }),
  ),
  glob: one("find", ["pattern", "path"], (i) =>
    present({ pattern: text(i, "pattern"), path: text(i, "path") }),
  ),
  grep: one("grep", ["pattern", "path", "include"], (i) =>
    present({ pattern: text(i, "pattern"), path: text(i, "path"), glob: text(i, "include") }),
  ),
  list: one("ls", ["path", "ignore"], (i) => present({ path: text(i, "path") })),
  webfetch: one("webfetch", ["url", "format", "timeout"], (i) => present({ url: text(i, "url") })),
  websearch: one("webfetch", ["query"], (i) => present({ query: text(i, "query") })),
  // The patch names its files: one call per file, an edit of an unknown file when none can be read.
  apply_patch: {
    fields: ["patchText"],
    map: (i) => {
      // OpenCode's parser is not Codex's: every line that reads as a header once trimmed is judged too.
      const patch = text(i, "patchText") ?? "";
      const seen = new Set<string>();
      const targets = [...(codexPatchTargets(patch) ?? []), ...headerLines(patch)].filter((t) => {
        const key = `${t.op}\0${t.path}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (targets.length === 0) return [{ tool: "edit", input: {} }];
      return targets.map((t) => ({ tool: t.op === "update" ? "edit" : "write", input: { path: t.path } }));
    },
  },
  lsp: one("read", ["operation", "filePath", "line", "character", "query"], (i) =>
    present({ path: text(i, "filePath") }),
  ),
  todowrite: session("session.todo_write", ["todos"]),
  todoread: session("session.todo_read", []),
  task: session("session.subagent", ["description", "prompt", "subagent_type", "task_id", "command"]),
  skill: session("session.skill", ["name"]),
  question: session("ui.ask_user_question", ["questions"]),
  plan_exit: session("ui.exit_plan_mode", []),
  // OpenCode's stand-in when the model named a tool that does not exist: it only reports the error.
  invalid: session("session.invalid", ["tool", "error"]),
};

export function mapOpenCodeTool(name: string, input: Record<string, unknown>): MappedTool[] {
  return mapAgentTool(OPENCODE_TOOLS, name, input);
}
