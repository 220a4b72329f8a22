// How hooks and adapters get a decision: through the daemon when it runs, else directly (policy, then the edge).
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

/** How long a daemon that vanished mid-wait gets to come back before the client asks the edge itself. */
const DAEMON_RESTART_GRACE_MS = 8_000;
const RETRY_MS = 150;

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

/** The daemon went away while deciding: it journaled the call, so wait for it to return, else ask the edge itself. */
async function recoverLostCall(
  call: AgentToolCall,
  options: RequestOptions,
  deadline: number,
): Promise<CompanionDecision> {
  const env = options.env ?? process.env;
  const graceEnd = Math.min(deadline, Date.now() + DAEMON_RESTART_GRACE_MS);
  while (Date.now() < graceEnd) {
    try {
      const res = await sendControl(
        socketPath(env),
        { type: "decide", call, askMode: options.askMode },
        deadline - Date.now(),
      );
      if (res.type === "decision") return res.decision;
    } catch (error) {
      if (!(error instanceof DaemonUnavailable) && !(error instanceof DaemonLost)) throw error;
      if (error instanceof DaemonLost && Date.now() >= deadline) break;
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  // Asking the edge again with the same call (same id, same content) joins the daemon's pending prompt
  // or gets its answer; a reused id with other content is never answered from the first call.
  return decideDirect(call, options);
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
  const deadline = Date.now() + budgetMs(env);
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
      if (error instanceof DaemonUnavailable) return await decideDirect(parsed.data, options);
      if (error instanceof DaemonLost) return await recoverLostCall(parsed.data, options, deadline);
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
export async function endSession(sessionId: string, options: { env?: Env } = {}): Promise<boolean> {
  const env = options.env ?? process.env;
  try {
    const res = await sendControl(socketPath(env), { type: "session_end", session_id: sessionId }, 5_000);
    return res.type === "ok";
  } catch {
    return (await import("../deciding/direct.ts")).endSessionAtEdge(sessionId, env);
  }
}
