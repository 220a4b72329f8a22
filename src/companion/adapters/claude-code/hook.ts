// `airlock hook claude-code`: one Claude Code hook event on stdin → Airlock's decision in Claude Code's JSON on stdout.
import { z } from "zod";
import { type CompanionDecision, endSession, forwardPromptText, requestDecision } from "../../client.ts";
import { claudeAskMode, type Env } from "../../config.ts";
import { callIdOf, runGuardedHook } from "../../hook-runtime.ts";
import { mapClaudeTool } from "./tools.ts";

/** The fields Airlock reads; Claude Code sends more (transcript_path, permission_mode, …), which pass through. */
export const ClaudeHookInput = z.looseObject({
  session_id: z.string().min(1),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  tool_name: z.string().min(1).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: z.string().optional(),
  prompt: z.string().optional(),
});
export type ClaudeHookInput = z.infer<typeof ClaudeHookInput>;

export interface HookResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const AGENT = { id: "claude-code", name: "Claude Code" };

function preToolUse(decision: "allow" | "deny" | "ask", reason: string): HookResult {
  const out = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

function permissionRequest(decision: "allow" | "deny", reason: string): HookResult {
  const out = {
    hookSpecificOutput: {
      hookEventName: "PermissionRequest",
      decision: decision === "allow" ? { behavior: "allow" } : { behavior: "deny", message: reason },
    },
  };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

/** Exit 2 is Claude Code's blocking error: stderr goes to the model, the call does not run. */
function blockingError(reason: string): HookResult {
  return { stdout: "", stderr: `${reason}\n`, exitCode: 2 };
}

/** The deny for an event whose kind is known; an unknown event gets the blocking exit code. */
function failClosed(event: string | undefined, reason: string): HookResult {
  if (event === "PreToolUse") return preToolUse("deny", reason);
  if (event === "PermissionRequest") return permissionRequest("deny", reason);
  return blockingError(reason);
}

async function decideFor(input: ClaudeHookInput, env: Env): Promise<CompanionDecision> {
  const mapped = mapClaudeTool(input.tool_name ?? "", input.tool_input ?? {});
  return requestDecision(
    {
      callId: callIdOf("cc", input.tool_use_id),
      sessionId: input.session_id,
      agent: AGENT,
      tool: mapped.tool,
      input: mapped.input,
      cwd: input.cwd,
      hasUI: true,
    },
    { env, askMode: claudeAskMode(env) === "local" ? "return" : "approver" },
  );
}

async function handle(input: ClaudeHookInput, env: Env): Promise<HookResult> {
  switch (input.hook_event_name) {
    case "PreToolUse": {
      if (!input.tool_name)
        return failClosed("PreToolUse", "Airlock denied this call: the hook input has no tool_name");
      const d = await decideFor(input, env);
      return preToolUse(d.decision, d.reason);
    }
    case "PermissionRequest": {
      if (!input.tool_name)
        return failClosed("PermissionRequest", "Airlock denied this call: the hook input has no tool_name");
      const d = await decideFor(input, env);
      // `ask` in local mode: print nothing and let Claude Code show its own dialog.
      if (d.decision === "ask") return { stdout: "", stderr: "", exitCode: 0 };
      return permissionRequest(d.decision, d.reason);
    }
    case "UserPromptSubmit":
      if (input.prompt) await forwardPromptText(input.prompt, input.session_id, input.cwd, { env });
      return { stdout: "", stderr: "", exitCode: 0 };
    case "SessionEnd":
      // The session's allow-for-session grants end with it (daemon cache and the edge).
      await endSession(input.session_id, { env });
      return { stdout: "", stderr: "", exitCode: 0 };
    default:
      // Events Airlock does not gate (SessionStart, PostToolUse, …): no opinion.
      return { stdout: "", stderr: "", exitCode: 0 };
  }
}

/** Never throws and never leaves a meant deny unsaid: every failure path denies with its reason. */
export function runClaudeCodeHook(stdin: string, env: Env): Promise<HookResult> {
  return runGuardedHook(
    { schema: ClaudeHookInput, handle, notAnObject: blockingError, deny: failClosed },
    stdin,
    env,
  );
}
