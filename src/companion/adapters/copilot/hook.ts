// `airlock hook copilot`: GitHub Copilot CLI's hook contract (camelCase events in $COPILOT_HOME/hooks/*.json). The
// input names no event, so its shape does: preToolUse carries toolName and toolArgs, userPromptSubmitted a prompt,
// sessionStart its source. An Airlock allow prints nothing (Copilot's own --allow-tool/--deny-tool check stands); a
// deny prints {"permissionDecision":"deny","permissionDecisionReason"}, which Copilot hands the model.
import { z } from "zod";
import { agentHookRunner } from "../../hooks/agent-hook.ts";
import type { HookCompanion } from "../../hooks/companion.ts";
import { copilotDeny, type HookResult, NOTHING } from "../../hooks/output.ts";
import { callIdOf, parseJsonObject } from "../../hooks/runtime.ts";
import { decideMapped, jsonOutput, personApproved, servedCommand } from "../mapped-calls.ts";
import { mapCopilotTool } from "./tools.ts";

export const CopilotHookInput = z.looseObject({
  sessionId: z.string().min(1),
  cwd: z.string().min(1),
  timestamp: z.union([z.number(), z.string()]).optional(),
  toolName: z.string().min(1).optional(),
  /** An object in Copilot 1.0; a JSON string in earlier releases. */
  toolArgs: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  prompt: z.string().optional(),
  source: z.string().optional(),
  reason: z.string().optional(),
});
export type CopilotHookInput = z.infer<typeof CopilotHookInput>;

const AGENT = { id: "copilot", name: "GitHub Copilot CLI" };

export { copilotDeny };

function argsOf(input: CopilotHookInput): Record<string, unknown> | undefined {
  if (typeof input.toolArgs === "string") return parseJsonObject(input.toolArgs);
  return input.toolArgs ?? {};
}

async function preToolUse(
  input: CopilotHookInput,
  toolName: string,
  companion: HookCompanion,
): Promise<HookResult> {
  const args = argsOf(input);
  if (!args) return copilotDeny(undefined, "Airlock denied this call: toolArgs is not a JSON object");
  const calls = mapCopilotTool(toolName, args);
  const verdict = await decideMapped(companion, calls, {
    agent: AGENT,
    callId: callIdOf("copilot", undefined),
    sessionId: input.sessionId,
    cwd: input.cwd,
  });
  if (!verdict.allowed) return copilotDeny(undefined, verdict.reason);
  // Copilot's `allow` skips its own check, so only what a person answered (or mode: sole) is served.
  const served = personApproved(verdict.decisions)
    ? await servedCommand(companion, calls, input.cwd)
    : undefined;
  if (served !== undefined)
    return jsonOutput({
      permissionDecision: "allow",
      permissionDecisionReason: "Airlock: served from a precognition future if it still validates",
      modifiedArgs: { ...args, command: served },
    });
  return NOTHING;
}

function handler(companion: HookCompanion) {
  return async (input: CopilotHookInput): Promise<HookResult> => {
    if (input.toolName !== undefined) return preToolUse(input, input.toolName, companion);
    if (input.prompt !== undefined) {
      // Copilot adds nothing a prompt hook prints to the model; the prompt only warms precognition.
      await companion.promptText(input.prompt, input.sessionId, input.cwd);
      return NOTHING;
    }
    if (input.source !== undefined) {
      await companion.sessionStarted(input.cwd);
      return NOTHING;
    }
    if (input.reason !== undefined) await companion.endSession(input.sessionId);
    return NOTHING;
  };
}

export const runCopilotHook = agentHookRunner({
  schema: CopilotHookInput,
  handler,
  notAnObject: (reason) => copilotDeny(undefined, reason),
  deny: copilotDeny,
});
