// What an agent hook asks of the companion. In a hook process it is the client (daemon socket, else a direct
// decision); inside the daemon, which now runs hooks for the fast hook entry, it is the daemon itself.

import type { Env } from "../cli/config.ts";
import { type CompanionDecision, endSession, forwardPromptText, requestDecision } from "../control/client.ts";
import type { AgentToolCall } from "../control/tool-call.ts";
import { lookupFuture, warmFutures } from "../futures/client.ts";
import { type PrecogHooks, precogHooks } from "../futures/hook-serving.ts";
import { airlockPrefix } from "../futures/rewrite.ts";

export interface HookCompanion extends PrecogHooks {
  decide(call: AgentToolCall, askMode: "approver" | "return"): Promise<CompanionDecision>;
  endSession(sessionId: string): Promise<void>;
}

export function clientCompanion(env: Env): HookCompanion {
  return {
    decide: (call, askMode) => requestDecision(call, { env, askMode }),
    endSession: async (sessionId) => {
      await endSession(sessionId, { env });
    },
    ...precogHooks(env, {
      forward: async (prompt, sessionId, cwd) => {
        await forwardPromptText(prompt, sessionId, cwd, { env });
      },
      warm: (cwd, source, text) => warmFutures(cwd, source, text, env),
      lookup: (cwd, command) => lookupFuture(cwd, command, env),
      prefix: () => airlockPrefix(env),
    }),
  };
}

/**
 * The companion of the in-process decision: a hook the daemon could not answer (refused, lost mid-answer, not
 * running) decides here with the local policy and the edge, and never asks the daemon again. Precognition lives in
 * the daemon, so without it nothing is warmed, forwarded or served.
 */
export function inProcessCompanion(env: Env): HookCompanion {
  return {
    decide: (call, askMode) => requestDecision(call, { env, askMode, direct: true }),
    endSession: async (sessionId) => {
      await endSession(sessionId, { env, direct: true });
    },
    promptText: async () => "",
    sessionStarted: async () => {},
    servingInput: async () => undefined,
  };
}
