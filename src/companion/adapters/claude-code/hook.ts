// `airlock hook claude-code`: one Claude Code hook event on stdin → Airlock's decision in Claude Code's JSON on stdout.
import { z } from "zod";
import { claudeAskMode, type Env } from "../../cli/config.ts";
import type { CompanionDecision } from "../../control/tool-call.ts";
import { agentHookRunner } from "../../hooks/agent-hook.ts";
import type { HookCompanion } from "../../hooks/companion.ts";
import {
  blockingError,
  denyOutput,
  type HookResult,
  NOTHING,
  permissionRequestOutput,
  preToolUseOutput,
  promptContextOutput,
} from "../../hooks/output.ts";
import { callIdOf } from "../../hooks/runtime.ts";
import { sessionEventOutput } from "../../hooks/session-events.ts";
import { claudeAskReason } from "./ask-reason.ts";
import { mapClaudeTool } from "./tools.ts";

export type { HookResult } from "../../hooks/output.ts";

/** The fields Airlock reads; Claude Code sends more (transcript_path, permission_mode, …), which pass through. */
export const ClaudeHookInput = z.looseObject({
  session_id: z.string().min(1),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  tool_name: z.string().min(1).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: z.string().optional(),
  prompt: z.string().optional(),
  /** default, acceptEdits, plan, bypassPermissions, …: in bypassPermissions Claude Code itself runs every call. */
  permission_mode: z.string().optional(),
  /** PermissionRequest: the rules Claude Code would offer the person (see ask-reason.ts). */
  permission_suggestions: z.unknown().optional(),
});
export type ClaudeHookInput = z.infer<typeof ClaudeHookInput>;

const AGENT = { id: "claude-code", name: "Claude Code" };

/** `AIRLOCK_CLAUDE_ASK=local`: an `ask` goes to Claude Code's own dialog instead of the phone. */
const askModeOf = (env: Env) => (claudeAskMode(env) === "local" ? "return" : "approver");

function decideFor(
  input: ClaudeHookInput,
  env: Env,
  companion: HookCompanion,
  claudeAsks?: string,
): Promise<CompanionDecision> {
  const mapped = mapClaudeTool(input.tool_name ?? "", input.tool_input ?? {});
  return companion.decide(
    {
      callId: callIdOf("cc", input.tool_use_id),
      sessionId: input.session_id,
      agent: AGENT,
      tool: mapped.tool,
      input: mapped.input,
      cwd: input.cwd,
      // Claude Code keeps its shell's cwd after a `cd`; the project stays the one it started in.
      ...(env.CLAUDE_PROJECT_DIR ? { workspace: env.CLAUDE_PROJECT_DIR } : {}),
      hasUI: true,
      ...(claudeAsks ? { agentAsks: claudeAsks } : {}),
    },
    askModeOf(env),
  );
}

/**
 * An Airlock allow pre-approves (skipping Claude Code's own check) only when a person just answered it on the
 * phone, or under `mode: sole`. A policy or grant allow says nothing, so Claude Code's own check still runs.
 */
function preApproves(d: CompanionDecision): boolean {
  return d.sole !== undefined || d.source === "user";
}

async function preToolUse(input: ClaudeHookInput, env: Env, companion: HookCompanion): Promise<HookResult> {
  if (!input.tool_name)
    return denyOutput("PreToolUse", "Airlock denied this call: the hook input has no tool_name");
  const d = await decideFor(input, env, companion);
  if (d.decision !== "allow") return preToolUseOutput(d.decision, d.reason);
  // A served call must be pre-approved (Claude Code applies updatedInput only with an allow), so precognition
  // serves only where the call runs without Claude Code's own check anyway: a pre-approving allow, or a session
  // in bypassPermissions, where Claude Code itself runs every call.
  const approved = preApproves(d);
  if (!approved && input.permission_mode !== "bypassPermissions") return NOTHING;
  const served =
    input.tool_name === "Bash" ? await companion.servingInput(input.tool_input ?? {}, input.cwd) : undefined;
  if (served)
    return preToolUseOutput(
      "allow",
      `${d.reason}; served from a precognition future if it still validates`,
      served,
    );
  return approved ? preToolUseOutput("allow", d.reason) : NOTHING;
}

function handler(companion: HookCompanion) {
  return async (input: ClaudeHookInput, env: Env): Promise<HookResult> => {
    switch (input.hook_event_name) {
      case "PreToolUse":
        return preToolUse(input, env, companion);
      case "PermissionRequest": {
        if (!input.tool_name)
          return denyOutput("PermissionRequest", "Airlock denied this call: the hook input has no tool_name");
        // Claude Code's own check asks: a person decides on the phone unless Airlock denies (mode: sole aside).
        const d = await decideFor(input, env, companion, claudeAskReason(input.permission_suggestions));
        // `ask` in local mode: print nothing and let Claude Code show its own dialog.
        if (d.decision === "ask") return NOTHING;
        return permissionRequestOutput(d.decision, d.reason);
      }
      case "UserPromptSubmit":
        return promptContextOutput(
          input.prompt ? await companion.promptText(input.prompt, input.session_id, input.cwd) : "",
        );
      default:
        return sessionEventOutput(companion, input);
    }
  };
}

export const runClaudeCodeHook = agentHookRunner({
  schema: ClaudeHookInput,
  handler,
  notAnObject: blockingError,
  deny: denyOutput,
});
