// A companion port for hook-contract tests: answers every call with one decision and records the calls it was asked
// about, so a test checks both the hook's answer and what the hook handed to the decision.

import type { AgentToolCall, CompanionDecision } from "../../../../src/companion/control/tool-call.ts";
import type { HookCompanion } from "../../../../src/companion/hooks/companion.ts";

export function recordingCompanion(
  decision: CompanionDecision,
  servingInput: HookCompanion["servingInput"] = async () => undefined,
): HookCompanion & { calls: AgentToolCall[] } {
  const calls: AgentToolCall[] = [];
  return {
    calls,
    decide: async (call) => {
      calls.push(call);
      return decision;
    },
    endSession: async () => {},
    promptText: async () => "",
    sessionStarted: async () => {},
    servingInput,
  };
}
