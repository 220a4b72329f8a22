// Table tests: Claude Code and Codex tool calls in Airlock's canonical vocabulary.
import { describe, expect, it } from "vitest";
import { mapClaudeTool } from "../../../src/companion/adapters/claude-code/tools.ts";
import { mapCodexTool, patchTargets } from "../../../src/companion/adapters/codex/tools.ts";

describe("Claude Code tools → canonical tools", () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["Bash", { command: "git status", description: "Show status" }, "bash", { command: "git status" }],
    ["Read", { file_path: "/p/a.ts", offset: 10 }, "read", { path: "/p/a.ts", offset: 10 }],
    ["Write", { file_path: "/p/a.ts", content: "x" }, "write", { path: "/p/a.ts", content: "x" }],
    [
      "Edit",
      { file_path: "/p/a.ts", old_string: "a", new_string: "b" },
      "edit",
      { path: "/p/a.ts", old_string: "a", new_string: "b" },
    ],
    ["MultiEdit", { file_path: "/p/b.ts", edits: [] }, "edit", { path: "/p/b.ts", edits: [] }],
    ["NotebookEdit", { notebook_path: "/p/n.ipynb", new_source: "" }, "edit", { path: "/p/n.ipynb" }],
    [
      "Grep",
      { pattern: "TODO", path: "src", glob: "*.ts" },
      "grep",
      { pattern: "TODO", path: "src", glob: "*.ts" },
    ],
    ["Glob", { pattern: "**/*.ts" }, "find", { pattern: "**/*.ts" }],
    ["LS", { path: "/p" }, "ls", { path: "/p" }],
    [
      "WebFetch",
      { url: "https://example.com/x?q=1", prompt: "summarize" },
      "webfetch",
      { url: "https://example.com/x?q=1" },
    ],
    ["WebSearch", { query: "zod v4" }, "webfetch", { query: "zod v4" }],
    ["mcp__github__create_issue", { title: "t" }, "mcp__github__create_issue", { title: "t" }],
    ["TodoWrite", { todos: [] }, "session.todo_write", {}],
    ["AskUserQuestion", { questions: [] }, "ui.ask_user_question", {}],
    ["SomethingNew", { a: 1 }, "SomethingNew", { a: 1 }],
  ];
  it.each(cases)("%s", (name, input, tool, mapped) => {
    expect(mapClaudeTool(name, input)).toEqual({ tool, input: mapped });
  });

  it("never turns a missing field into a string", () => {
    expect(mapClaudeTool("Read", {})).toEqual({ tool: "read", input: {} });
    expect(mapClaudeTool("Bash", { command: 42 })).toEqual({ tool: "bash", input: {} });
  });
});

describe("Codex tools → canonical tools", () => {
  it("maps Bash and shell spellings to bash", () => {
    expect(mapCodexTool("Bash", { command: "ls -la" })).toEqual([
      { tool: "bash", input: { command: "ls -la" } },
    ]);
    expect(mapCodexTool("shell", { command: ["git", "status"] })).toEqual([
      { tool: "bash", input: { command: "git status" } },
    ]);
  });

  it("splits apply_patch into one call per file", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/new.ts",
      "+export {};",
      "*** Update File: src/old.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File: .env",
      "*** End Patch",
    ].join("\n");
    expect(patchTargets(patch)).toEqual([
      { op: "add", path: "src/new.ts" },
      { op: "update", path: "src/old.ts" },
      { op: "delete", path: ".env" },
    ]);
    expect(mapCodexTool("apply_patch", { command: patch })).toEqual([
      { tool: "write", input: { path: "src/new.ts" } },
      { tool: "edit", input: { path: "src/old.ts" } },
      { tool: "write", input: { path: ".env" } },
    ]);
  });

  it("judges an unreadable patch as an edit of an unknown path", () => {
    expect(mapCodexTool("apply_patch", { command: "not a patch" })).toEqual([{ tool: "edit", input: {} }]);
  });

  it("keeps MCP tool names", () => {
    expect(mapCodexTool("mcp__fs__read", { p: 1 })).toEqual([{ tool: "mcp__fs__read", input: { p: 1 } }]);
  });
});
