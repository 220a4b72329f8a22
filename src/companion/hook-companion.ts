// What an agent hook asks of the companion. In a hook process it is the client (daemon socket, else a direct
// decision); inside the daemon, which now runs hooks for the fast hook entry, it is the daemon itself.
import { type CompanionDecision, endSession, forwardPromptText, requestDecision } from "./client.ts";
import type { Env } from "./config.ts";
import type { AgentToolCall } from "./tool-call.ts";

export interface HookCompanion {
  decide(call: AgentToolCall, askMode: "approver" | "return"): Promise<CompanionDecision>;
  /** The user's prompt, for warming read-only futures; never logged. */
  promptText(text: string, sessionId: string, cwd: string): Promise<void>;
  endSession(sessionId: string): Promise<void>;
}

export function clientCompanion(env: Env): HookCompanion {
  return {
    decide: (call, askMode) => requestDecision(call, { env, askMode }),
    promptText: async (text, sessionId, cwd) => {
      await forwardPromptText(text, sessionId, cwd, { env });
    },
    endSession: async (sessionId) => {
      await endSession(sessionId, { env });
    },
  };
}
