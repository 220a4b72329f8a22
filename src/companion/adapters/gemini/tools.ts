// Gemini CLI's tools (0.61, as its model sees them) in Airlock's canonical vocabulary. Every field of each schema is
// listed; anything else makes the call not understood (agent-tools.ts). MCP tools keep their own names.
import {
  type AgentToolTable,
  type MappedTool,
  mapAgentTool,
  one,
  present,
  session,
  text,
} from "../agent-tools.ts";

/** Gemini schedules some calls after the one before; the field changes when, never what, a call does. */
const WAIT = "wait_for_previous";

const lines = (i: Record<string, unknown>) => {
  const start = typeof i.start_line === "number" ? i.start_line : undefined;
  const end = typeof i.end_line === "number" ? i.end_line : undefined;
  return { offset: start, limit: start !== undefined && end !== undefined ? end - start + 1 : undefined };
};

/** A read_many_files entry Gemini expands as a glob (the glob package's pattern characters). */
const GLOB_WORD = /[*?[\]{}!]/;

/** Where a search tool's walk covers every file an entry reads: itself, or a glob's fixed leading directories. */
function walkRoot(entry: string): string {
  if (!GLOB_WORD.test(entry)) return entry;
  const segments = entry.split("/");
  const fixed = segments.slice(
    0,
    segments.findIndex((s) => GLOB_WORD.test(s)),
  );
  return fixed.length === 0 ? "." : fixed.join("/") || "/";
}

/**
 * read_many_files reads each entry of `paths` (`include` in newer versions): a file, every file below a
 * directory, or every match of a glob. Each is judged as a search tool's walk of it (a glob's: of its fixed
 * leading directories, a superset of its matches), so a secret or a link out below asks as Grep's does.
 * `useDefaultExcludes: false` and the ignore options widen what it reads: not listed, they ask.
 */
function readManyFiles(i: Record<string, unknown>): MappedTool[] {
  const entries = [i.paths, i.include].flatMap((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]));
  if (entries.length === 0 || entries.some((e) => typeof e !== "string"))
    return [{ tool: "grep", input: {} }];
  return (entries as string[]).map((e) => ({ tool: "grep", input: { path: walkRoot(e) } }));
}

export const GEMINI_TOOLS: AgentToolTable = {
  run_shell_command: one(
    "bash",
    ["command", "description", "dir_path", "is_background", "delay_ms", "additional_permissions", WAIT],
    (i) =>
      present({
        command: i.command,
        workdir: i.dir_path,
        background: i.is_background === true ? true : undefined,
        // Asking for more than Gemini's tool sandbox gives is leaving the sandbox: a person must see it.
        escalated: i.additional_permissions !== undefined ? true : undefined,
      }),
  ),
  read_file: one("read", ["file_path", "start_line", "end_line", WAIT], (i) =>
    present({ path: text(i, "file_path"), ...lines(i) }),
  ),
  write_file: one("write", ["file_path", "content", WAIT], (i) =>
    present({ path: text(i, "file_path"), content: i.content }),
  ),
  replace: one(
    "edit",
    ["file_path", "instruction", "old_string", "new_string", "allow_multiple", WAIT],
    (i) =>
      present({
        path: text(i, "file_path"),
        old_string: i.old_string,
        new_string: i.new_string,
        replace_all: i.allow_multiple,
      }),
  ),
  list_directory: one("ls", ["dir_path", "ignore", "file_filtering_options", WAIT], (i) =>
    present({ path: text(i, "dir_path") }),
  ),
  glob: one(
    "find",
    ["pattern", "dir_path", "case_sensitive", "respect_git_ignore", "respect_gemini_ignore", WAIT],
    (i) => present({ pattern: text(i, "pattern"), path: text(i, "dir_path") }),
  ),
  grep_search: one(
    "grep",
    [
      "pattern",
      "dir_path",
      "include_pattern",
      "exclude_pattern",
      "names_only",
      "case_sensitive",
      "fixed_strings",
      "context",
      "after",
      "before",
      "no_ignore",
      "max_matches_per_file",
      "total_max_matches",
      WAIT,
    ],
    (i) =>
      present({ pattern: text(i, "pattern"), path: text(i, "dir_path"), glob: text(i, "include_pattern") }),
  ),
  // web_fetch takes a prompt naming the URLs; the host is known only at run time (http, dynamic host).
  web_fetch: one("webfetch", ["prompt", WAIT], (i) => present({ prompt: text(i, "prompt") })),
  google_web_search: one("webfetch", ["query", WAIT], (i) => present({ query: text(i, "query") })),
  read_many_files: { fields: ["paths", "include", "exclude", "recursive", WAIT], map: readManyFiles },
  write_todos: session("session.todo_write", ["todos", WAIT]),
  update_topic: session("session.update_topic", ["title", "summary", "strategic_intent", WAIT]),
  enter_plan_mode: session("ui.enter_plan_mode", ["reason", WAIT]),
  exit_plan_mode: session("ui.exit_plan_mode", ["plan_filename", WAIT]),
  ask_user: session("ui.ask_user_question", ["questions", WAIT]),
  invoke_agent: session("session.subagent", ["agent_name", "prompt", WAIT]),
  activate_skill: session("session.skill", ["name", WAIT]),
};

export function mapGeminiTool(name: string, input: Record<string, unknown>): MappedTool[] {
  return mapAgentTool(GEMINI_TOOLS, name, input);
}
