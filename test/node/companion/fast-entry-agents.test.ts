// The fast hook entry for Gemini CLI, OpenCode and Copilot CLI with no daemon running (and none started): it decides
// the event itself through the agent's full hook, in the agent's own shape, so the call is gated either way.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

let box: Sandbox;

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox();
  box.writePolicy(
    'default_action: deny\nrules:\n  - name: reads\n    condition: tool == "read"\n    action: allow\n',
  );
}, 180_000);
afterAll(() => box?.cleanup());

describe("fast entry without a daemon", { timeout: 60_000 }, () => {
  const cases: [string, (cwd: string) => object, (out: string) => void][] = [
    [
      "gemini",
      (cwd) => ({
        session_id: "s",
        cwd,
        hook_event_name: "BeforeTool",
        tool_name: "run_shell_command",
        tool_input: { command: "rm -rf x" },
      }),
      (out) =>
        expect(JSON.parse(out)).toMatchObject({
          decision: "deny",
          reason: expect.stringContaining("rm -rf x"),
        }),
    ],
    [
      "opencode",
      (cwd) => ({
        hook_event_name: "tool.execute.before",
        session_id: "s",
        call_id: "c",
        cwd,
        tool: "bash",
        args: { command: "rm -rf x" },
      }),
      (out) =>
        expect(JSON.parse(out)).toMatchObject({
          decision: "deny",
          reason: expect.stringContaining("rm -rf x"),
        }),
    ],
    [
      "copilot",
      (cwd) => ({
        sessionId: "s",
        timestamp: 1,
        cwd,
        toolName: "bash",
        toolArgs: { command: "rm -rf x", description: "d" },
      }),
      (out) =>
        expect(JSON.parse(out)).toMatchObject({
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("rm -rf x"),
        }),
    ],
  ];
  for (const [agent, event, check] of cases)
    it(`${agent}: a denied call is denied in ${agent}'s shape by the hook process itself`, async () => {
      const r = await runAirlock(["hook", agent], box.env, JSON.stringify(event(box.project)));
      expect(r.code).toBe(0);
      check(r.stdout);
    });

  it("an allowed read passes (Gemini prints nothing: its own check already approved the call)", async () => {
    const r = await runAirlock(
      ["hook", "gemini"],
      box.env,
      JSON.stringify({
        session_id: "s",
        cwd: box.project,
        hook_event_name: "BeforeTool",
        tool_name: "read_file",
        tool_input: { file_path: join(box.project, "a.ts") },
      }),
    );
    expect(r).toMatchObject({ code: 0, stdout: "" });
  });
});
