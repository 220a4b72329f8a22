// `airlock hook copilot`: GitHub Copilot CLI's hook contract (camelCase events in $COPILOT_HOME/hooks/*.json). The
// input names no event, so its shape does: preToolUse carries toolName and toolArgs, userPromptSubmitted a prompt,
// sessionStart its source. An Airlock allow prints nothing (Copilot's own --allow-tool/--deny-tool check stands); a
// deny prints {"permissionDecision":"deny","permissionDecisionReason"}, which Copilot hands the model.
import { z } from "zod";
import type { Env } from "../../config.ts";
import { clientCompanion, type HookCompanion } from "../../hook-companion.ts";
import { callIdOf, parseJsonObject, runGuardedHook } from "../../hook-runtime.ts";
import type { CompanionDecision } from "../../tool-call.ts";
import { type HookResult, NOTHING } from "../hook-output.ts";
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

const json = (value: unknown): HookResult => ({
  stdout: `${JSON.stringify(value)}\n`,
  stderr: "",
  exitCode: 0,
});

/** Copilot's deny for every event: exit 2 would block too, but the model would see only the exit code. */
export function copilotDeny(_event: string | undefined, reason: string): HookResult {
  return json({ permissionDecision: "deny", permissionDecisionReason: reason });
}

function argsOf(input: CopilotHookInput): Record<string, unknown> | undefined {
  if (typeof input.toolArgs === "string") return parseJsonObject(input.toolArgs);
  return input.toolArgs ?? {};
}

/** Copilot's `allow` skips its own check, so Airlock pre-approves only what a person answered, or under mode: sole. */
const preApproves = (d: CompanionDecision) => d.sole !== undefined || d.source === "user";

async function preToolUse(
  input: CopilotHookInput,
  toolName: string,
  companion: HookCompanion,
): Promise<HookResult> {
  const args = argsOf(input);
  if (!args) return copilotDeny(undefined, "Airlock denied this call: toolArgs is not a JSON object");
  const calls = mapCopilotTool(toolName, args);
  const base = callIdOf("copilot", undefined);
  let approved = true;
  for (const [i, mapped] of calls.entries()) {
    const d = await companion.decide(
      {
        callId: calls.length > 1 ? `${base}#${i}` : base,
        sessionId: input.sessionId,
        agent: AGENT,
        tool: mapped.tool,
        input: mapped.input,
        cwd: input.cwd,
        hasUI: false,
      },
      "approver",
    );
    if (d.decision !== "allow") return copilotDeny(undefined, d.reason);
    approved &&= preApproves(d);
  }
  const only = calls[0];
  if (approved && calls.length === 1 && only?.tool === "bash") {
    const served = await companion.servingInput(only.input, input.cwd);
    if (typeof served?.command === "string")
      return json({
        permissionDecision: "allow",
        permissionDecisionReason: "Airlock: served from a precognition future if it still validates",
        modifiedArgs: { ...args, command: served.command },
      });
  }
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

/** Never throws and never leaves a meant deny unsaid: every failure path denies with its reason. */
export function runCopilotHook(
  stdin: string,
  env: Env,
  companion: HookCompanion = clientCompanion(env),
): Promise<HookResult> {
  return runGuardedHook(
    {
      schema: CopilotHookInput,
      handle: handler(companion),
      notAnObject: (reason) => copilotDeny(undefined, reason),
      deny: copilotDeny,
    },
    stdin,
    env,
  );
}
