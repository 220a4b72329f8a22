// Red team round 17 (over-ask): the agents' own bookkeeping (Claude Code's TodoWrite, Task and ExitPlanMode,
// Gemini's write_todos) asked through the real hook under every profile, autonomous included. They touch no
// file, process or network, and a sub-agent's calls each reach the hook, so every starter profile allows them;
// stopping a background task ends a process and still asks. Round 18: a background shell's output (Claude Code's
// BashOutput, Copilot's read_bash and list_bash), Copilot's report_intent (its status line, before nearly every
// step) and update_todo; Gemini's read_many_files is judged as a walk of each entry (a secret below still asks).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

const copilot = (toolName: string, toolArgs: Record<string, unknown>) =>
  JSON.stringify({ sessionId: "c", timestamp: 1, cwd: box.project, toolName, toolArgs });

const TODOS = { todos: [{ content: "write the test", status: "pending", activeForm: "Writing the test" }] };

describe.each(PROFILES)("the agent's bookkeeping under %s, through the real hook", (profile) => {
  beforeAll(() => {
    box.writePolicy(starterPolicy(profile));
  });

  it.each([
    ["TodoWrite", TODOS],
    ["Task", { description: "look around", prompt: "list the tests", subagent_type: "Explore" }],
    ["ExitPlanMode", { plan: "1. write the test" }],
    ["BashOutput", { bash_id: "b1" }],
  ])("Claude Code's %s is allowed (the hook says nothing)", async (tool, input) => {
    const r = await runAirlock(["hook", "claude-code"], box.env, claude(tool, input));
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("Gemini's write_todos is allowed", async () => {
    const r = await runAirlock(["hook", "gemini"], box.env, gemini("write_todos", { todos: [] }));
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
  });

  it.each([
    ["read_bash", { shellId: "main", delay: 5 }],
    ["list_bash", {}],
    ["report_intent", { intent: "Exploring codebase" }],
    ["update_todo", { todos: "- [ ] run tests" }],
  ])("Copilot's %s is allowed", async (tool, input) => {
    const r = await runAirlock(["hook", "copilot"], box.env, copilot(tool, input));
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("Copilot's stop_bash still asks (it ends a process)", async () => {
    const r = await runAirlock(["hook", "copilot"], box.env, copilot("stop_bash", { shellId: "main" }));
    expect(r.stdout).toContain("deny");
  });

  it("Gemini's read_many_files of workspace files is allowed, and of a directory holding a secret asks", async () => {
    mkdirSync(join(box.project, "src18"), { recursive: true });
    writeFileSync(join(box.project, "src18", "a.ts"), "export const a = 1;\n");
    mkdirSync(join(box.project, "cfg18"), { recursive: true });
    writeFileSync(join(box.project, "cfg18", ".env"), "API_KEY=x\n");
    const ok = await runAirlock(
      ["hook", "gemini"],
      box.env,
      gemini("read_many_files", { paths: ["src18/a.ts"] }),
    );
    expect(ok.stdout).toBe("");
    for (const paths of [["src18/a.ts", "cfg18"], ["cfg18/**/*"], ["**/.env"]]) {
      const r = await runAirlock(["hook", "gemini"], box.env, gemini("read_many_files", { paths }));
      expect(r.stdout, JSON.stringify(paths)).toContain("deny");
    }
    const wide = gemini("read_many_files", { paths: ["src18"], useDefaultExcludes: false });
    expect((await runAirlock(["hook", "gemini"], box.env, wide)).stdout).toContain("deny");
  });

  it("stopping a background task still asks (denied here: nobody is paired to answer)", async () => {
    const r = await runAirlock(["hook", "claude-code"], box.env, claude("TaskStop", { task_id: "b1" }));
    expect(r.stdout).toContain('"permissionDecision":"deny"');
  });
});
