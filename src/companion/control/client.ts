// How hooks and adapters get a decision: through the daemon when it runs, else directly (policy, then the edge).
// The one control client: the daemon is asked once, and whatever it cannot answer is decided in this process.
import { daemonDisabled, type Env, promptTimeoutMs, socketPath } from "../cli/config.ts";
import { readSwitches } from "../futures/switches.ts";
import { DaemonLost, DaemonUnavailable, sendControl } from "./connection.ts";
import type { FutureAnswer, FutureRequest } from "./protocol.ts";
import { AgentToolCall, type CompanionDecision, denied } from "./tool-call.ts";

export type { AgentToolCall, CompanionDecision } from "./tool-call.ts";

export interface RequestOptions {
  env?: Env;
  /** `return`: an `ask` comes back as `ask` (the agent prompts locally) instead of waiting for the phone. */
  askMode?: "approver" | "return";
  /** Skip the daemon even if it runs. */
  direct?: boolean;
  /** Decide and serve in one request: the future for this same call, if it is allowed and one validates now. */
  serve?: FutureRequest;
  /** Receives the future served with an allow (never called on a miss, a deny or without a daemon). */
  onServed?: (future: FutureAnswer) => void;
}

/** How long the daemon may take to answer: a person's whole prompt timeout, and then some. */
function budgetMs(env: Env): number {
  return promptTimeoutMs(env) + 15_000;
}

/** Decides without the daemon: local policy, grant cache, then POST /v1/decisions with the stored credentials. */
export async function decideDirect(
  call: AgentToolCall,
  options: RequestOptions = {},
): Promise<CompanionDecision> {
  // Loaded on demand: the policy engine is the heavy part, and a hook talking to the daemon never needs it.
  return (await import("../deciding/direct.ts")).decideDirect(
    call,
    options.env ?? process.env,
    options.askMode ?? "approver",
  );
}

/**
 * The companion's answer for one tool call. Talks to the daemon over its socket if it is up, else decides
 * directly. Never throws: any failure is a deny whose reason says what went wrong.
 */
export async function requestDecision(
  call: AgentToolCall,
  options: RequestOptions = {},
): Promise<CompanionDecision> {
  const parsed = AgentToolCall.safeParse(call);
  if (!parsed.success) {
    return denied(
      `Airlock denied this call: the adapter sent an invalid call (${parsed.error.issues[0]?.message ?? "invalid"})`,
    );
  }
  const env = options.env ?? process.env;
  try {
    if (options.direct || daemonDisabled(env)) return await decideDirect(parsed.data, options);
    try {
      const res = await sendControl(
        socketPath(env),
        {
          type: "decide",
          call: parsed.data,
          askMode: options.askMode,
          ...(options.serve ? { serve: options.serve } : {}),
        },
        budgetMs(env),
      );
      if (res.type === "decision") {
        if (res.future?.hit && res.decision.decision === "allow") options.onServed?.(res.future);
        return res.decision;
      }
      return denied(
        `Airlock denied this call: the daemon answered ${res.type === "error" ? res.message : res.type}`,
      );
    } catch (error) {
      // Not running, refused, or lost mid-answer: decided here, and the daemon is not asked again (asking it again
      // stacked a grace on every caller's own). A daemon lost mid-answer journaled the call: asking the edge with
      // the same call (same id, same content) joins the prompt it opened or gets its answer, and a reused id with
      // other content is never answered from the first call.
      if (error instanceof DaemonUnavailable || error instanceof DaemonLost)
        return await decideDirect(parsed.data, options);
      throw error;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return denied(`Airlock denied this call because deciding it failed: ${message}`);
  }
}

/** Sends the user's prompt text to the daemon for warming; a no-op (false) when the daemon is not running. */
export async function forwardPromptText(
  text: string,
  sessionId: string,
  cwd: string,
  options: { env?: Env } = {},
): Promise<boolean> {
  const env = options.env ?? process.env;
  // The prompt is only ever used for warming: with precognition off it goes nowhere (I10).
  if (daemonDisabled(env) || !readSwitches(env).enabled) return false;
  try {
    const res = await sendControl(
      socketPath(env),
      { type: "prompt_text", text, session_id: sessionId, cwd },
      2_000,
    );
    return res.type === "ok";
  } catch {
    return false;
  }
}

/** Tells the daemon (or the edge) that an agent session ended, so its allow-for-session grants go. */
export async function endSession(
  sessionId: string,
  options: { env?: Env; direct?: boolean } = {},
): Promise<boolean> {
  const env = options.env ?? process.env;
  if (options.direct) return (await import("../deciding/direct.ts")).endSessionAtEdge(sessionId, env);
  try {
    const res = await sendControl(socketPath(env), { type: "session_end", session_id: sessionId }, 5_000);
    return res.type === "ok";
  } catch {
    return (await import("../deciding/direct.ts")).endSessionAtEdge(sessionId, env);
  }
}
