// Claude Code's shell keeps its cwd after a `cd`; the project stays the directory the session started in,
// which Claude Code names in CLAUDE_PROJECT_DIR. The hook must hand it to the decision as the workspace
// (issue 20: a cwd outside it is never allowed, and the workspace's repository is the one judged).
import { describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../../src/companion/adapters/claude-code/hook.ts";
import { recordingCompanion } from "./support/recording-companion.ts";

const recording = () => recordingCompanion({ decision: "ask", reason: "test", source: "policy" });

const event = (cwd: string) =>
  JSON.stringify({
    session_id: "s1",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat README.md" },
    tool_use_id: "t1",
  });

describe("the Claude Code hook and CLAUDE_PROJECT_DIR", () => {
  it("passes the project directory through as the call's workspace, beside the shell's cwd", async () => {
    const c = recording();
    await runClaudeCodeHook(event("/work/proj/sub"), { CLAUDE_PROJECT_DIR: "/work/proj" }, c);
    expect(c.calls).toHaveLength(1);
    expect(c.calls[0]?.cwd).toBe("/work/proj/sub");
    expect(c.calls[0]?.workspace).toBe("/work/proj");
  });

  it("sets no workspace when Claude Code names none (the cwd is the workspace)", async () => {
    const c = recording();
    await runClaudeCodeHook(event("/work/proj"), {}, c);
    expect(c.calls).toHaveLength(1);
    expect(c.calls[0]?.workspace).toBeUndefined();
  });
});
