// Table tests: Gemini CLI, OpenCode and Copilot CLI tool calls in Airlock's canonical vocabulary, and the guard that
// every field is known: any other field makes the call not understood when src/policy judges it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentToolTable } from "../../../src/companion/adapters/agent-tools.ts";
import { COPILOT_TOOLS, mapCopilotTool } from "../../../src/companion/adapters/copilot/tools.ts";
import { GEMINI_TOOLS, mapGeminiTool } from "../../../src/companion/adapters/gemini/tools.ts";
import { mapOpenCodeTool, OPENCODE_TOOLS } from "../../../src/companion/adapters/opencode/tools.ts";
import { canonicalCalls } from "../../../src/policy/tool-names.ts";

type Case = [string, Record<string, unknown>, string, Record<string, unknown>];

const GEMINI: Case[] = [
  ["run_shell_command", { command: "git status", description: "d" }, "bash", { command: "git status" }],
  ["run_shell_command", { command: "ls", dir_path: "sub" }, "bash", { command: "ls", workdir: "sub" }],
  [
    "run_shell_command",
    { command: "sleep 9", is_background: true },
    "bash",
    { command: "sleep 9", background: true },
  ],
  [
    "read_file",
    { file_path: "/p/a.ts", start_line: 3, end_line: 5 },
    "read",
    { path: "/p/a.ts", offset: 3, limit: 3 },
  ],
  ["write_file", { file_path: "/p/a.ts", content: "x" }, "write", { path: "/p/a.ts", content: "x" }],
  [
    "replace",
    { file_path: "/p/a.ts", old_string: "a", new_string: "b", instruction: "i" },
    "edit",
    { path: "/p/a.ts", old_string: "a", new_string: "b" },
  ],
  ["list_directory", { dir_path: "/p" }, "ls", { path: "/p" }],
  ["glob", { pattern: "**/*.ts", dir_path: "src" }, "find", { pattern: "**/*.ts", path: "src" }],
  [
    "grep_search",
    { pattern: "TODO", dir_path: "src", include_pattern: "*.ts" },
    "grep",
    { pattern: "TODO", path: "src", glob: "*.ts" },
  ],
  [
    "web_fetch",
    { prompt: "summarize https://example.com" },
    "webfetch",
    { prompt: "summarize https://example.com" },
  ],
  ["google_web_search", { query: "zod" }, "webfetch", { query: "zod" }],
  ["write_todos", { todos: [] }, "session.todo_write", {}],
  ["mcp_github_create_issue", { title: "t" }, "mcp_github_create_issue", { title: "t" }],
];

const OPENCODE: Case[] = [
  ["bash", { command: "npm test", description: "d", timeout: 5 }, "bash", { command: "npm test" }],
  ["bash", { command: "ls", workdir: "/p/sub" }, "bash", { command: "ls", workdir: "/p/sub" }],
  ["read", { filePath: "/p/a.ts", offset: 2, limit: 1 }, "read", { path: "/p/a.ts", offset: 2, limit: 1 }],
  ["write", { filePath: "/p/a.ts", content: "x" }, "write", { path: "/p/a.ts", content: "x" }],
  [
    "edit",
    { filePath: "/p/a.ts", oldString: "a", newString: "b", replaceAll: true },
    "edit",
    { path: "/p/a.ts", old_string: "a", new_string: "b", replace_all: true },
  ],
  ["glob", { pattern: "*.ts", path: "/p" }, "find", { pattern: "*.ts", path: "/p" }],
  ["grep", { pattern: "x", path: "/p", include: "*.ts" }, "grep", { pattern: "x", path: "/p", glob: "*.ts" }],
  ["list", { path: "/p" }, "ls", { path: "/p" }],
  [
    "webfetch",
    { url: "https://example.com", format: "markdown" },
    "webfetch",
    { url: "https://example.com" },
  ],
  ["todowrite", { todos: [] }, "session.todo_write", {}],
  ["task", { description: "d", prompt: "p", subagent_type: "general" }, "session.subagent", {}],
];

const COPILOT: Case[] = [
  ["bash", { command: "git status", description: "d" }, "bash", { command: "git status" }],
  [
    "bash",
    { command: "npm start", description: "d", mode: "async" },
    "bash",
    { command: "npm start", background: true },
  ],
  ["view", { path: "/p/a.ts", view_range: [1, 5] }, "read", { path: "/p/a.ts" }],
  ["create", { path: "/p/a.ts", file_text: "x" }, "write", { path: "/p/a.ts", content: "x" }],
  ["edit", { path: "/p/a.ts", old_str: "a", new_str: "b" }, "edit", { path: "/p/a.ts" }],
  ["glob", { pattern: "*.ts", paths: "/p" }, "find", { pattern: "*.ts", path: "/p" }],
  ["web_fetch", { url: "https://example.com" }, "webfetch", { url: "https://example.com" }],
  ["read_bash", { shellId: "0", delay: 1 }, "session.shell_output", {}],
  ["write_bash", { shellId: "0", input: "y\n" }, "write_bash", { shellId: "0", input: "y\n" }],
];

describe.each([
  ["Gemini CLI", GEMINI, mapGeminiTool],
  ["OpenCode", OPENCODE, mapOpenCodeTool],
  ["Copilot CLI", COPILOT, mapCopilotTool],
] as const)("%s tools → canonical tools", (_agent, cases, map) => {
  it.each(cases)("%s %j → %s", (name, input, tool, expected) => {
    expect(map(name, input)).toEqual([{ tool, input: expected }]);
  });
});

describe("calls that touch several files are judged per file", () => {
  it("an OpenCode apply_patch is one call per file it names", () => {
    const patchText =
      "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n@@\n-y\n+z\n*** End Patch";
    expect(mapOpenCodeTool("apply_patch", { patchText })).toEqual([
      { tool: "write", input: { path: "a.txt" } },
      { tool: "edit", input: { path: "b.txt" } },
    ]);
  });

  it("a Copilot grep over several paths is one call per path", () => {
    expect(mapCopilotTool("grep", { pattern: "x", paths: ["src", "/etc"] }).map((c) => c.input.path)).toEqual(
      ["src", "/etc"],
    );
  });
});

describe("asking to leave Gemini's tool sandbox is never understood", () => {
  it("additional_permissions on a shell call is judged as escalated", () => {
    const [call] = mapGeminiTool("run_shell_command", {
      command: "ls",
      additional_permissions: { network: true },
    });
    expect(call?.input.escalated).toBe(true);
    expect(canonicalCalls(call?.tool ?? "", call?.input ?? {})[0]?.notUnderstood.join(" ")).toMatch(
      /sandbox/,
    );
  });
});

/** Tools that map to something the judge reads fields of (session bookkeeping has no effect to judge). */
function judgedTools(table: AgentToolTable): string[] {
  return Object.keys(table).filter((name) => {
    const tool = table[name]?.map({})[0]?.tool ?? "";
    return !tool.startsWith("session.") && !tool.startsWith("ui.");
  });
}

describe("an unknown field makes the call not understood (never allowed unasked)", () => {
  it.each([
    ["Gemini CLI", GEMINI_TOOLS, mapGeminiTool],
    ["OpenCode", OPENCODE_TOOLS, mapOpenCodeTool],
    ["Copilot CLI", COPILOT_TOOLS, mapCopilotTool],
  ] as const)("%s", (_agent, table, map) => {
    const tools = judgedTools(table);
    fc.assert(
      fc.property(
        fc.constantFrom(...tools),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.jsonValue(),
        (name, field, value) => {
          fc.pre(!table[name]?.fields.includes(field) && field !== "__proto__");
          const calls = map(name, { [field]: value });
          for (const c of calls) {
            const judged = canonicalCalls(c.tool, c.input);
            expect(judged.flatMap((j) => j.notUnderstood).join(" ")).toContain("not one Airlock knows");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
