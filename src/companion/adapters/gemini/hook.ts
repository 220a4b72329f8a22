// `airlock hook gemini`: Gemini CLI's hook contract. BeforeTool runs when Gemini is about to execute a call, after its
// own policy engine and confirmation let it through: an Airlock allow prints nothing (Gemini's own answer stands), a
// deny prints {"decision":"deny","reason"}, which Gemini hands the model as "Tool execution blocked: <reason>".
import { z } from "zod";
import { agentHookRunner } from "../../hooks/agent-hook.ts";
import type { HookCompanion } from "../../hooks/companion.ts";
import { blockingError, geminiDeny, type HookResult, NOTHING } from "../../hooks/output.ts";
import { callIdOf } from "../../hooks/runtime.ts";
import { sessionEventOutput } from "../../hooks/session-events.ts";
import { decideMapped, jsonOutput, servedCommand } from "../mapped-calls.ts";
import { mapGeminiTool } from "./tools.ts";

/** What Gemini sends every command hook; BeforeTool adds the tool, BeforeAgent the prompt. */
export const GeminiHookInput = z.looseObject({
  session_id: z.string().min(1),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  tool_name: z.string().min(1).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
export type GeminiHookInput = z.infer<typeof GeminiHookInput>;

const AGENT = { id: "gemini", name: "Gemini CLI" };

export { geminiDeny };

async function beforeTool(input: GeminiHookInput, companion: HookCompanion): Promise<HookResult> {
  if (!input.tool_name)
    return geminiDeny("BeforeTool", "Airlock denied this call: the hook input has no tool_name");
  const calls = mapGeminiTool(input.tool_name, input.tool_input ?? {});
  // Gemini gives a hook no call id: each call gets a fresh one, so two identical calls never share an answer.
  const verdict = await decideMapped(companion, calls, {
    agent: AGENT,
    callId: callIdOf("gemini", undefined),
    sessionId: input.session_id,
    cwd: input.cwd,
  });
  if (!verdict.allowed) return geminiDeny("BeforeTool", verdict.reason);
  // The hook runs after Gemini's own check approved this very command, so serving its warmed output in its place
  // skips nothing: Gemini merges `tool_input` into the call's arguments.
  const served = await servedCommand(companion, calls, input.cwd);
  if (served !== undefined)
    return jsonOutput({
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: served } },
    });
  return NOTHING;
}

function handler(companion: HookCompanion) {
  return async (input: GeminiHookInput): Promise<HookResult> => {
    switch (input.hook_event_name) {
      case "BeforeTool":
        return beforeTool(input, companion);
      case "BeforeAgent": {
        const context = input.prompt
          ? await companion.promptText(input.prompt, input.session_id, input.cwd)
          : "";
        return context === ""
          ? NOTHING
          : jsonOutput({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: context } });
      }
      default:
        return sessionEventOutput(companion, input);
    }
  };
}

export const runGeminiHook = agentHookRunner({
  schema: GeminiHookInput,
  handler,
  notAnObject: blockingError,
  deny: geminiDeny,
});
