// Red team round 17 (over-ask): the agents' own bookkeeping (Claude Code's TodoWrite, Task and ExitPlanMode,
// Gemini's write_todos) asked through the real hook under every profile, autonomous included. They touch no
// file, process or network, and a sub-agent's calls each reach the hook, so every starter profile allows them;
// stopping a background task ends a process and still asks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILES, starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

let box: Sandbox;

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "3000" });
}, 180_000);
afterAll(() => box.cleanup());

const claude = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "sess-1",
    transcript_path: "/tmp/t.jsonl",
    cwd: box.project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
    tool_use_id: `toolu_${tool_name}`,
  });

const gemini = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({ session_id: "s", cwd: box.project, hook_event_name: "BeforeTool", tool_name, tool_input });

const TODOS = { todos: [{ content: "write the test", status: "pending", activeForm: "Writing the test" }] };

describe.each(PROFILES)("the agent's bookkeeping under %s, through the real hook", (profile) => {
  beforeAll(() => {
    box.writePolicy(starterPolicy(profile));
  });

  it.each([
    ["TodoWrite", TODOS],
    ["Task", { description: "look around", prompt: "list the tests", subagent_type: "Explore" }],
    ["ExitPlanMode", { plan: "1. write the test" }],
  ])("Claude Code's %s is allowed (the hook says nothing)", async (tool, input) => {
    const r = await runAirlock(["hook", "claude-code"], box.env, claude(tool, input));
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("Gemini's write_todos is allowed", async () => {
    const r = await runAirlock(["hook", "gemini"], box.env, gemini("write_todos", { todos: [] }));
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
  });

  it("stopping a background task still asks (denied here: nobody is paired to answer)", async () => {
    const r = await runAirlock(["hook", "claude-code"], box.env, claude("TaskStop", { task_id: "b1" }));
    expect(r.stdout).toContain('"permissionDecision":"deny"');
  });
});
