// The one table from agents' tool names (Claude Code, Codex, Pi, MCP) to Airlock's canonical tools and
// the input fields policy reads. The companion's adapters and the edge both map through it, so `Bash`
// sent straight to POST /v1/decisions is judged as the shell it is, never as "an unknown tool".
// Every field of every mapped tool is known here: one that is not (a new agent version's option, a
// field that would change what runs) makes the call not understood, so it is never allowed unasked.
// No imports but codex-patch.ts, paths.ts and glob-search.ts (brace-expansion only): hook entry points load
// this file without the policy engine.
import { codexPatchTargets, type PatchTarget } from "./codex-patch.ts";
import { globSearches } from "./glob-search.ts";
import { climbsAfterName } from "./paths.ts";

export interface CanonicalCall {
  /** Canonical (Pi) name: read, write, edit, bash, grep, find, ls, webfetch, session.*, ui.*, or the tool's own name. */
  tool: string;
  input: Record<string, unknown>;
  /** The directory the call runs in when the tool names one (Codex's `workdir`); else the session's. */
  cwd?: string;
  /** Why the call is not understood (an unknown field, a shell that is not bash); empty when it is. */
  notUnderstood: string[];
}

type Input = Record<string, unknown>;
type Mapper = (input: Input) => CanonicalCall[];

/** Field the canonical input carries for fields an agent's mapping did not know, so a re-mapping sees them. */
export const UNKNOWN_FIELDS = "unknown_fields";

function str(input: Input, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

/** Only set fields that are present, so a rule on `path` never sees `undefined` as a string. */
function pick(entries: Input): Input {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

function unknownOf(input: Input, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(input)) if (!known.has(k)) out.push(k);
  const carried = input[UNKNOWN_FIELDS];
  if (Array.isArray(carried)) for (const k of carried) if (typeof k === "string") out.push(k);
  return out;
}

function notUnderstoodFields(tool: string, fields: readonly string[]): string[] {
  if (fields.length === 0) return [];
  const names = fields
    .slice(0, 5)
    .map((f) => `\`${f.slice(0, 60)}\``)
    .join(", ");
  return [
    `the ${tool} input field${fields.length > 1 ? "s" : ""} ${names} ${fields.length > 1 ? "are" : "is"} not one Airlock knows, so the call is not understood`,
  ];
}

/** A mapper for an agent tool with a known field set: unknown fields travel along and are reported. */
function fields(
  tool: string,
  known: readonly string[],
  map: (input: Input) => Omit<CanonicalCall, "notUnderstood"> & { notUnderstood?: string[] },
): Mapper {
  const set = new Set(known);
  return (input) => {
    const unknown = unknownOf(input, set);
    const c = map(input);
    const out: CanonicalCall = {
      ...c,
      input: unknown.length > 0 ? { ...c.input, [UNKNOWN_FIELDS]: unknown } : c.input,
      notUnderstood: [...(c.notUnderstood ?? []), ...notUnderstoodFields(tool, unknown)],
    };
    return [out];
  };
}

/** A shell word list as bash text, each word quoted so the text parses back to the same words. */
function quoteArgv(argv: readonly string[]): string {
  return argv
    .map((w) => (/^[A-Za-z0-9_./=:,+@%-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}

/** The bash a Codex argv names for its own outer shell (found on PATH or at its usual places). */
const WRAPPER_BASH = new Set(["bash", "/bin/bash", "/usr/bin/bash"]);

/**
 * The script of the agent's own outer shell: Codex's `shell` sends `["bash","-lc",CMD]` (older ones
 * `["bash","-c",CMD]`) and runs CMD in a (login) bash, exactly as `exec_command` runs its `cmd`. The login
 * start-up files are the user's own (/etc/profile, ~/.bash_profile | ~/.bash_login | ~/.profile), run with
 * the agent's environment before CMD and never writable by an allowed call (protected writes), so CMD is
 * what the call decides. Only this exact shape: other options, operands after CMD ($0, $1 the script can
 * read), another shell or a `bash -l` inside a script are judged as their words (docs/policy.md).
 */
function wrappedScript(argv: readonly string[]): string | undefined {
  if (argv.length !== 3 || !WRAPPER_BASH.has(argv[0] as string)) return undefined;
  return argv[1] === "-lc" || argv[1] === "-c" ? argv[2] : undefined;
}

/** A shell command as a string (Claude Code, Pi) or an argv array (Codex's `shell`). */
function commandText(c: unknown): string | undefined {
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) return wrappedScript(c) ?? quoteArgv(c);
  return undefined;
}

const BASH_SHELLS = /^(\/usr)?(\/local)?(\/bin\/)?bash$/;

/** Codex's escalation request: run outside its sandbox. */
function escalated(input: Input): boolean | undefined {
  if (input.with_escalated_permissions === true) return true;
  const s = input.sandbox_permissions;
  return s === undefined || s === "use_default" ? undefined : true;
}

/** A tool's working directory with `link/..` in it: the agent's chdir() resolves it through the link (round 12). */
function climbingWorkdir(wd: string | undefined): string[] {
  return wd !== undefined && climbsAfterName(wd)
    ? [
        "the working directory climbs with `..` after a directory name, which the agent's chdir() resolves through links",
      ]
    : [];
}

function shellCall(
  command: unknown,
  workdir: unknown,
  extra: { shell?: unknown; escalated?: boolean | undefined; background?: unknown },
): Omit<CanonicalCall, "notUnderstood"> & { notUnderstood: string[] } {
  const notUnderstood: string[] = [];
  if (extra.shell !== undefined && !(typeof extra.shell === "string" && BASH_SHELLS.test(extra.shell)))
    notUnderstood.push(
      `the command runs under \`${String(extra.shell).slice(0, 60)}\`, not bash, whose syntax Airlock judges`,
    );
  if (workdir !== undefined && typeof workdir !== "string")
    notUnderstood.push("the working directory is not a string");
  const wd = typeof workdir === "string" && workdir !== "" ? workdir : undefined;
  if (wd?.startsWith("~"))
    notUnderstood.push("the working directory starts with `~`, which the tool does not expand");
  notUnderstood.push(...climbingWorkdir(wd));
  if (extra.escalated === true)
    notUnderstood.push(
      "the call asks to run outside the agent's sandbox (escalated permissions), which a person must see",
    );
  return {
    tool: "bash",
    input: pick({
      command: commandText(command),
      workdir: wd,
      escalated: extra.escalated,
      background: extra.background === true ? true : undefined,
    }),
    ...(wd !== undefined ? { cwd: wd } : {}),
    notUnderstood,
  };
}

/**
 * The files a Codex apply_patch envelope touches, with what it does to each, read as Codex's parser reads
 * it (codex-patch.ts); none when Codex would refuse the patch (the call is then an edit of an unknown path).
 */
export function patchTargets(patch: string): PatchTarget[] {
  return codexPatchTargets(patch) ?? [];
}

/** A patch can touch several files: one canonical call per file, and every one must be allowed. */
const applyPatch: Mapper = (input) => {
  const unknown = notUnderstoodFields(
    "apply_patch",
    unknownOf(input, new Set(["command", "patch", "input", "workdir"])),
  );
  unknown.push(...climbingWorkdir(typeof input.workdir === "string" ? input.workdir : undefined));
  const patch =
    [input.command, input.patch, input.input].find((v): v is string => typeof v === "string") ?? "";
  const targets = patchTargets(patch);
  const workdir = typeof input.workdir === "string" && input.workdir !== "" ? input.workdir : undefined;
  const at = workdir === undefined ? {} : { cwd: workdir };
  // A patch whose files cannot be read is an edit of an unknown path (dynamic, never auto-allowed).
  if (targets.length === 0)
    return [{ tool: "edit", input: pick({ workdir }), notUnderstood: unknown, ...at }];
  return targets.map((t) => ({
    tool: t.op === "update" ? "edit" : "write",
    input: pick({ path: t.path, workdir }),
    notUnderstood: unknown,
    ...at,
  }));
};

/** Bookkeeping tools with no effect outside the agent's session: low risk, they never page the phone. */
const session =
  (tool: string): Mapper =>
  () => [{ tool, input: {}, notUnderstood: [] }];

/** A Windows drive or UNC path (`C:\x`, `C:/x`, `\\host\x`): one relative name here, another file on Windows. */
const WINDOWS_PATH = /^([A-Za-z]:[\\/]|\\\\)/;

/**
 * Why the path fields of a canonical file tool do not say which file it opens: `path` and `file_path`
 * both given and different (the policy judges `path`, a client may open `file_path`: red team, round 8),
 * or a Windows-style path, which Airlock (on Linux and macOS) does not resolve as Windows would.
 */
function pathFieldsNotUnderstood(i: Input): string[] {
  const out: string[] = [];
  if (i.path !== undefined && i.file_path !== undefined && i.path !== i.file_path)
    out.push(
      "the input names two different paths (`path` and `file_path`): which one the tool opens is not known, so the call is not understood",
    );
  for (const k of ["path", "file_path"])
    if (typeof i[k] === "string" && WINDOWS_PATH.test(i[k] as string))
      out.push(`\`${k}\` is a Windows-style path, which Airlock does not resolve as Windows would`);
  return out;
}

/** A canonical tool, as Pi, Airlock's MCP server and direct callers send it: its own known fields. */
const canonical = (tool: string, known: readonly string[]): Mapper =>
  fields(tool, [...known, UNKNOWN_FIELDS], (i) => {
    if (tool !== "bash") {
      const wd = typeof i.workdir === "string" && i.workdir !== "" ? { cwd: i.workdir } : {};
      return {
        tool: "",
        input: i,
        ...wd,
        notUnderstood: [...pathFieldsNotUnderstood(i), ...climbingWorkdir(wd.cwd)],
      };
    }
    const { [UNKNOWN_FIELDS]: _carried, ...rest } = i;
    const c = shellCall(i.command, i.workdir, { escalated: i.escalated === true ? true : undefined });
    return { ...c, tool: "", input: { ...rest, ...c.input } };
  });

/**
 * A file-name search as the searches it stands for, one per brace alternative, each from the directory its
 * pattern names: absolute, `~` and climbing patterns list their own (red team rounds 10, 15 and 17).
 */
function eachSearch(c: CanonicalCall): CanonicalCall[] {
  return globSearches(str(c.input, "pattern"), str(c.input, "path")).map((s) => ({
    ...c,
    input: { ...c.input, ...s },
  }));
}

/** The canonical file-name search, what Gemini's glob and Pi's find map to. */
const fileSearch: Mapper = (input) =>
  canonical("find", ["pattern", "path", "limit"])(input).flatMap(eachSearch);

/** Claude Code's Glob and OpenCode's glob: the canonical search under their own field names. */
const globTool =
  (tool: string): Mapper =>
  (input) =>
    fields(tool, ["pattern", "path"], (i) => ({
      tool: "find",
      input: pick({ pattern: str(i, "pattern"), path: str(i, "path") }),
    }))(input).flatMap(eachSearch);

const PI_GREP = ["pattern", "path", "glob", "type", "ignoreCase", "literal", "context", "limit"];
const CLAUDE_GREP = [
  "pattern",
  "path",
  "glob",
  "type",
  "output_mode",
  "-i",
  "-n",
  "-A",
  "-B",
  "-C",
  "-r",
  "context",
  "head_limit",
  "offset",
  "multiline",
];
const CODEX_SHELL = [
  "command",
  "workdir",
  "timeout",
  "timeout_ms",
  "with_escalated_permissions",
  "sandbox_permissions",
  "justification",
];

/**
 * Agent tool name → canonical calls. Canonical names map to themselves (`canonical` keeps the name).
 * Names absent here are unknown tools: capability `tool`, and a grant covers only their exact input.
 */
const TABLE: Readonly<Record<string, Mapper>> = {
  // Pi and Airlock's own MCP server already speak the canonical names.
  read: canonical("read", ["path", "file_path", "offset", "limit"]),
  write: canonical("write", ["path", "file_path", "content"]),
  edit: canonical("edit", [
    "path",
    "file_path",
    "oldText",
    "newText",
    "edits",
    "old_string",
    "new_string",
    "replace_all",
  ]),
  bash: canonical("bash", ["command", "timeout", "workdir", "escalated", "background", "description"]),
  // Claude Code's Grep and LS fields too (how matches are printed, entries hidden: never which files are
  // read), so `airlock policy explain --tool grep` judges its input as the hook judges `Grep` (round 19).
  grep: canonical("grep", [...new Set([...PI_GREP, ...CLAUDE_GREP])]),
  find: fileSearch,
  ls: canonical("ls", ["path", "limit", "ignore"]),
  webfetch: canonical("webfetch", ["url", "prompt", "query", "allowed_domains", "blocked_domains"]),
  // The same tools under the names other agents give them (OpenCode's `glob` and `list`, Copilot's `view`),
  // when such a call reaches Airlock without its agent's adapter (`airlock policy explain`, a direct
  // caller): a file-name search, a listing and a read, judged as Glob, LS and Read are (red team, round 8).
  glob: globTool("glob"),
  list: fields("list", ["path", "ignore"], (i) => ({ tool: "ls", input: pick({ path: str(i, "path") }) })),
  view: fields("view", ["path", "view_range"], (i) => ({
    tool: "read",
    input: pick({ path: str(i, "path") }),
  })),
  // Claude Code
  Bash: fields(
    "Bash",
    ["command", "description", "timeout", "run_in_background", "dangerouslyDisableSandbox"],
    (i) =>
      shellCall(i.command, undefined, {
        escalated: i.dangerouslyDisableSandbox === true ? true : undefined,
        background: i.run_in_background,
      }),
  ),
  Read: fields("Read", ["file_path", "offset", "limit", "pages"], (i) => ({
    tool: "read",
    input: pick({ path: str(i, "file_path"), offset: i.offset, limit: i.limit }),
  })),
  Write: fields("Write", ["file_path", "content"], (i) => ({
    tool: "write",
    input: pick({ path: str(i, "file_path"), content: i.content }),
  })),
  // The replacements travel along: a package.json edit is judged by what it leaves (package-hooks.ts).
  Edit: fields("Edit", ["file_path", "old_string", "new_string", "replace_all"], (i) => ({
    tool: "edit",
    input: pick({
      path: str(i, "file_path"),
      old_string: i.old_string,
      new_string: i.new_string,
      replace_all: i.replace_all,
    }),
  })),
  MultiEdit: fields("MultiEdit", ["file_path", "edits"], (i) => ({
    tool: "edit",
    input: pick({ path: str(i, "file_path"), edits: i.edits }),
  })),
  NotebookEdit: fields(
    "NotebookEdit",
    ["notebook_path", "new_source", "cell_id", "cell_type", "edit_mode"],
    (i) => ({
      tool: "edit",
      input: pick({ path: str(i, "notebook_path") }),
    }),
  ),
  // Grep walks the tree (ripgrep): its path and the filters that decide which files are read.
  Grep: fields("Grep", CLAUDE_GREP, (i) => ({
    tool: "grep",
    input: pick({
      pattern: str(i, "pattern"),
      path: str(i, "path"),
      glob: str(i, "glob"),
      type: str(i, "type"),
    }),
  })),
  Glob: globTool("Glob"),
  LS: fields("LS", ["path", "ignore"], (i) => ({ tool: "ls", input: pick({ path: str(i, "path") }) })),
  WebFetch: fields("WebFetch", ["url", "prompt"], (i) => ({
    tool: "webfetch",
    input: pick({ url: str(i, "url") }),
  })),
  // A search goes to the search provider, not to a URL the model chose: http with a dynamic host.
  WebSearch: fields("WebSearch", ["query", "allowed_domains", "blocked_domains"], (i) => ({
    tool: "webfetch",
    input: pick({ query: str(i, "query"), allowed_domains: i.allowed_domains }),
  })),
  TodoWrite: session("session.todo_write"),
  // The output of a background shell the agent started: its command was judged when it started.
  BashOutput: session("session.shell_output"),
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
  shell: fields("shell", CODEX_SHELL, (i) => shellCall(i.command, i.workdir, { escalated: escalated(i) })),
  shell_command: fields("shell_command", [...CODEX_SHELL, "login"], (i) =>
    shellCall(i.command, i.workdir, { escalated: escalated(i) }),
  ),
  exec_command: fields(
    "exec_command",
    [
      "cmd",
      "workdir",
      "shell",
      "login",
      "tty",
      "yield_time_ms",
      "max_output_tokens",
      "timeout",
      "timeout_ms",
      "with_escalated_permissions",
      "sandbox_permissions",
      "justification",
    ],
    (i) => shellCall(i.cmd, i.workdir, { shell: i.shell, escalated: escalated(i) }),
  ),
  // The Responses API's local shell: an action with argv, its directory and environment.
  local_shell: (i) => {
    const DIRS = ["working_directory", "workdir"];
    const a = (typeof i.action === "object" && i.action !== null ? i.action : i) as Input;
    const known = new Set([
      "type",
      "command",
      "working_directory",
      "workdir",
      "timeout_ms",
      "timeout",
      "env",
      "user",
    ]);
    const unknown = [
      // The flattened form names its directory as the action does (`working_directory`, `workdir`, used
      // below); beside an `action`, a top-level one would be dropped, so it stays unknown there.
      ...unknownOf(i, new Set(["action", "command", "timeout_ms", "timeout", ...(a === i ? DIRS : [])])),
      ...(a === i ? [] : unknownOf(a, known)),
    ];
    const c = shellCall(a.command, a.working_directory ?? a.workdir, {});
    if (a.working_directory !== undefined && a.workdir !== undefined && a.working_directory !== a.workdir)
      c.notUnderstood.push("the call names two working directories, and which one runs is not known");
    const env = a.env;
    if (env !== undefined && !(typeof env === "object" && env !== null && Object.keys(env).length === 0))
      c.notUnderstood.push(
        "the command runs with an environment the tool sets, which Airlock does not judge",
      );
    if (a.user !== undefined && a.user !== null) c.notUnderstood.push("the command runs as another user");
    c.notUnderstood.push(...notUnderstoodFields("local_shell", unknown));
    return [c];
  },
  apply_patch: applyPatch,
  update_plan: session("session.update_plan"),
  view_image: fields("view_image", ["path"], (i) => ({
    tool: "read",
    input: pick({ path: str(i, "path") }),
  })),
  // Codex's experimental file tools (codex-rs/core/src/tools/handlers): read_file reads a slice of one file,
  // list_dir lists a directory's entries to `depth` without following links (as LS does), grep_files runs
  // `rg --files-with-matches PATTERN [--glob INCLUDE] PATH` (as Grep does).
  read_file: fields("read_file", ["file_path", "offset", "limit", "mode", "indentation"], (i) => ({
    tool: "read",
    input: pick({ path: str(i, "file_path") }),
  })),
  list_dir: fields("list_dir", ["dir_path", "offset", "limit", "depth"], (i) => ({
    tool: "ls",
    input: pick({ path: str(i, "dir_path") }),
  })),
  grep_files: fields("grep_files", ["pattern", "include", "path", "limit"], (i) => ({
    tool: "grep",
    input: pick({ pattern: str(i, "pattern"), path: str(i, "path"), glob: str(i, "include") }),
  })),
};

export function isKnownTool(name: string): boolean {
  return Object.hasOwn(TABLE, name);
}

/** The canonical calls an agent's tool call stands for (one, or one per file of a patch). */
export function canonicalCalls(name: string, input: Input): CanonicalCall[] {
  const mapper = Object.hasOwn(TABLE, name) ? TABLE[name] : undefined;
  // mcp__server__tool and any other tool keep their own name (capability "tool").
  if (!mapper) return [{ tool: name, input, notUnderstood: [] }];
  return mapper(input).map((c) => (c.tool === "" ? { ...c, tool: name } : c));
}

/** The canonical name of an agent tool name when it maps to exactly one tool (`Bash` → `bash`), else itself. */
export function canonicalToolName(name: string): string {
  return canonicalCalls(name, {})[0]?.tool ?? name;
}
