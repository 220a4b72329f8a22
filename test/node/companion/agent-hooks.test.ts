// The Gemini CLI, OpenCode and Copilot CLI hook contracts against a companion port that answers as told: the shape of
// each answer, fail-closed on bad input, and precognition's rewrite only where the agent allows it.
import { describe, expect, it } from "vitest";
import { runCopilotHook } from "../../../src/companion/adapters/copilot/hook.ts";
import { runGeminiHook } from "../../../src/companion/adapters/gemini/hook.ts";
import { runOpenCodeHook } from "../../../src/companion/adapters/opencode/hook.ts";
import type { CompanionDecision } from "../../../src/companion/control/tool-call.ts";
import { recordingCompanion } from "./support/recording-companion.ts";

const SERVED = "airlock futures serve k -- 'npm test'";

const companion = (decision: CompanionDecision) =>
  recordingCompanion(decision, async (input) =>
    input.command === "npm test" ? { ...input, command: SERVED } : undefined,
  );

const allowPolicy: CompanionDecision = { decision: "allow", reason: "rule", source: "policy" };
const allowPerson: CompanionDecision = { decision: "allow", reason: "approved", source: "user" };
const deny: CompanionDecision = {
  decision: "deny",
  reason: "Airlock denied this call: no",
  source: "policy",
};
const env = { AIRLOCK_PROMPT_TIMEOUT_MS: "3000" };

describe("Gemini CLI BeforeTool", () => {
  const event = (tool_input: Record<string, unknown>) =>
    JSON.stringify({
      session_id: "s",
      cwd: "/p",
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input,
    });

  it("a deny is Gemini's decision JSON, with the reason the model reads", async () => {
    const c = companion(deny);
    const r = await runGeminiHook(event({ command: "rm -rf x" }), env, c);
    expect(JSON.parse(r.stdout)).toEqual({ decision: "deny", reason: "Airlock denied this call: no" });
    expect(c.calls[0]).toMatchObject({
      tool: "bash",
      input: { command: "rm -rf x" },
      agent: { id: "gemini" },
    });
  });

  it("an allow says nothing (Gemini's own check already let the call through)", async () => {
    const r = await runGeminiHook(event({ command: "ls" }), env, companion(allowPolicy));
    expect(r).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("an allowed, warmed command is served through tool_input", async () => {
    const r = await runGeminiHook(event({ command: "npm test" }), env, companion(allowPolicy));
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: SERVED } },
    });
  });

  it("bad input denies: malformed event, not JSON", async () => {
    const bad = await runGeminiHook(
      JSON.stringify({ hook_event_name: "BeforeTool", cwd: "/p" }),
      env,
      companion(allowPolicy),
    );
    expect(JSON.parse(bad.stdout).decision).toBe("deny");
    const garbage = await runGeminiHook("nope", env, companion(allowPolicy));
    expect(garbage.exitCode).toBe(2);
  });
});

describe("OpenCode plugin hook", () => {
  const event = (tool: string, args: Record<string, unknown>) =>
    JSON.stringify({
      hook_event_name: "tool.execute.before",
      session_id: "s",
      call_id: "c1",
      cwd: "/p",
      tool,
      args,
    });

  it("answers allow or deny in the plugin's JSON, with a call id namespaced by the session", async () => {
    const c = companion(deny);
    expect(JSON.parse((await runOpenCodeHook(event("bash", { command: "rm x" }), env, c)).stdout)).toEqual({
      decision: "deny",
      reason: "Airlock denied this call: no",
    });
    expect(c.calls[0]?.callId).toBe("opencode:s-c1");
    const ok = await runOpenCodeHook(event("read", { filePath: "/p/a" }), env, companion(allowPolicy));
    expect(JSON.parse(ok.stdout)).toEqual({ decision: "allow" });
  });

  it("serves a warmed command only when a person approved it (OpenCode's own check would see the rewrite)", async () => {
    const byPolicy = await runOpenCodeHook(
      event("bash", { command: "npm test" }),
      env,
      companion(allowPolicy),
    );
    expect(JSON.parse(byPolicy.stdout)).toEqual({ decision: "allow" });
    const byPerson = await runOpenCodeHook(
      event("bash", { command: "npm test" }),
      env,
      companion(allowPerson),
    );
    expect(JSON.parse(byPerson.stdout)).toEqual({ decision: "allow", args: { command: SERVED } });
  });

  it("a patch is judged per file, and one denied file denies the call", async () => {
    const c = companion(deny);
    const patchText = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch";
    const r = await runOpenCodeHook(event("apply_patch", { patchText }), env, c);
    expect(JSON.parse(r.stdout).decision).toBe("deny");
    expect(c.calls[0]).toMatchObject({ tool: "write", input: { path: "a.txt" } });
  });

  it("an event the plugin never sends denies", async () => {
    const r = await runOpenCodeHook(
      JSON.stringify({ hook_event_name: "x", session_id: "s", cwd: "/p" }),
      env,
      companion(allowPolicy),
    );
    expect(JSON.parse(r.stdout).decision).toBe("deny");
  });
});

describe("Copilot CLI preToolUse", () => {
  const event = (toolArgs: unknown) =>
    JSON.stringify({ sessionId: "s", timestamp: 1, cwd: "/p", toolName: "bash", toolArgs });

  it("a deny is permissionDecision deny with the reason; an allow says nothing", async () => {
    const r = await runCopilotHook(event({ command: "rm x", description: "d" }), env, companion(deny));
    expect(JSON.parse(r.stdout)).toEqual({
      permissionDecision: "deny",
      permissionDecisionReason: "Airlock denied this call: no",
    });
    const ok = await runCopilotHook(event({ command: "ls", description: "d" }), env, companion(allowPolicy));
    expect(ok.stdout).toBe("");
  });

  it("reads toolArgs given as a JSON string (older releases)", async () => {
    const c = companion(allowPolicy);
    await runCopilotHook(event(JSON.stringify({ command: "ls", description: "d" })), env, c);
    expect(c.calls[0]?.input).toEqual({ command: "ls" });
  });

  it("serves a warmed command with modifiedArgs only when a person approved it", async () => {
    const byPolicy = await runCopilotHook(
      event({ command: "npm test", description: "d" }),
      env,
      companion(allowPolicy),
    );
    expect(byPolicy.stdout).toBe("");
    const byPerson = await runCopilotHook(
      event({ command: "npm test", description: "d" }),
      env,
      companion(allowPerson),
    );
    expect(JSON.parse(byPerson.stdout)).toMatchObject({
      permissionDecision: "allow",
      modifiedArgs: { command: SERVED, description: "d" },
    });
  });

  it("bad input denies", async () => {
    const r = await runCopilotHook("[]", env, companion(allowPolicy));
    expect(JSON.parse(r.stdout).permissionDecision).toBe("deny");
    const noArgs = await runCopilotHook(event("not json"), env, companion(allowPolicy));
    expect(JSON.parse(noArgs.stdout).permissionDecision).toBe("deny");
  });
});
