// The one table from agents' tool names (Claude Code, Codex, Pi, MCP) to Airlock's canonical tools and
// the input fields policy reads. The companion's adapters and the edge both map through it, so `Bash`
// sent straight to POST /v1/decisions is judged as the shell it is, never as "an unknown tool".
// No imports: hook entry points load this file without the policy engine.

export interface CanonicalCall {
  /** Canonical (Pi) name: read, write, edit, bash, grep, find, ls, webfetch, session.*, ui.*, or the tool's own name. */
  tool: string;
  input: Record<string, unknown>;
}

type Input = Record<string, unknown>;
type Mapper = (input: Input) => CanonicalCall[];

function str(input: Input, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

/** Only set fields that are present, so a rule on `path` never sees `undefined` as a string. */
function pick(entries: Input): Input {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

function one(tool: string, input: Input): CanonicalCall[] {
  return [{ tool, input }];
}

/** A shell command as a string (Claude Code) or an argv array (Codex's `shell`). */
function commandText(input: Input): string | undefined {
  const c = input.command ?? input.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) return c.join(" ");
  return undefined;
}

const shell: Mapper = (input) => one("bash", pick({ command: commandText(input) }));

/** The files an apply_patch envelope touches, with what it does to each. */
export function patchTargets(patch: string): { op: "add" | "update" | "delete" | "move"; path: string }[] {
  const ops = {
    "Add File": "add",
    "Update File": "update",
    "Delete File": "delete",
    "Move to": "move",
  } as const;
  const out: { op: "add" | "update" | "delete" | "move"; path: string }[] = [];
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trimEnd());
    if (!m?.[1] || !m[2]) continue;
    out.push({ op: ops[m[1] as keyof typeof ops], path: m[2].trim() });
  }
  return out;
}

/** A patch can touch several files: one canonical call per file, and every one must be allowed. */
const applyPatch: Mapper = (input) => {
  const patch =
    [input.command, input.patch, input.input].find((v): v is string => typeof v === "string") ?? "";
  const targets = patchTargets(patch);
  // A patch whose files cannot be read is an edit of an unknown path (dynamic, never auto-allowed).
  if (targets.length === 0) return one("edit", {});
  return targets.map((t) => ({ tool: t.op === "update" ? "edit" : "write", input: { path: t.path } }));
};

/** Bookkeeping tools with no effect outside the agent's session: low risk, they never page the phone. */
const session =
  (tool: string): Mapper =>
  () =>
    one(tool, {});

const identity: Mapper = (input) => one("", input);

/**
 * Agent tool name → canonical calls. Canonical names map to themselves (`identity` keeps the name).
 * Names absent here are unknown tools: capability `tool`, and a grant covers only their exact input.
 */
const TABLE: Readonly<Record<string, Mapper>> = {
  // Pi and Airlock's own MCP server already speak the canonical names.
  read: identity,
  write: identity,
  edit: identity,
  bash: identity,
  grep: identity,
  find: identity,
  ls: identity,
  webfetch: identity,
  // Claude Code
  Bash: shell,
  Read: (i) => one("read", pick({ path: str(i, "file_path"), offset: i.offset, limit: i.limit })),
  Write: (i) => one("write", pick({ path: str(i, "file_path"), content: i.content })),
  Edit: (i) => one("edit", pick({ path: str(i, "file_path") })),
  MultiEdit: (i) => one("edit", pick({ path: str(i, "file_path") })),
  NotebookEdit: (i) => one("edit", pick({ path: str(i, "notebook_path") })),
  Grep: (i) => one("grep", pick({ pattern: str(i, "pattern"), path: str(i, "path"), glob: str(i, "glob") })),
  Glob: (i) => one("find", pick({ pattern: str(i, "pattern"), path: str(i, "path") })),
  LS: (i) => one("ls", pick({ path: str(i, "path") })),
  WebFetch: (i) => one("webfetch", pick({ url: str(i, "url") })),
  // A search goes to the search provider, not to a URL the model chose: http with a dynamic host.
  WebSearch: (i) => one("webfetch", pick({ query: str(i, "query"), allowed_domains: i.allowed_domains })),
  TodoWrite: session("session.todo_write"),
  TaskCreate: session("session.task_create"),
  TaskGet: session("session.task_get"),
  TaskUpdate: session("session.task_update"),
  TaskList: session("session.task_list"),
  TaskStop: session("session.task_stop"),
  Task: session("session.subagent"),
  Agent: session("session.subagent"),
  EnterPlanMode: session("ui.enter_plan_mode"),
  ExitPlanMode: session("ui.exit_plan_mode"),
  AskUserQuestion: session("ui.ask_user_question"),
  // Codex
  shell,
  local_shell: shell,
  exec_command: shell,
  apply_patch: applyPatch,
  update_plan: session("session.update_plan"),
};

export function isKnownTool(name: string): boolean {
  return Object.hasOwn(TABLE, name);
}

/** The canonical calls an agent's tool call stands for (one, or one per file of a patch). */
export function canonicalCalls(name: string, input: Input): CanonicalCall[] {
  const mapper = Object.hasOwn(TABLE, name) ? TABLE[name] : undefined;
  // mcp__server__tool and any other tool keep their own name (capability "tool").
  if (!mapper) return one(name, input);
  return mapper(input).map((c) => (c.tool === "" ? { tool: name, input: c.input } : c));
}

/** The canonical name of an agent tool name when it maps to exactly one tool (`Bash` → `bash`), else itself. */
export function canonicalToolName(name: string): string {
  return canonicalCalls(name, {})[0]?.tool ?? name;
}
