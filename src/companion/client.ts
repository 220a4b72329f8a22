// How hooks and adapters get a decision: through the daemon when it runs, else directly (policy, then the edge).
import { enqueueAudit } from "./audit-queue.ts";
import { daemonDisabled, type Env, edgeTimeoutMs, promptTimeoutMs, socketPath } from "./config.ts";
import { loadCredentials } from "./credentials.ts";
import { DaemonLost, DaemonUnavailable, sendControl } from "./daemon/control-client.ts";
import { decideToolCall } from "./decide.ts";
import { awaitKnownDecision, EdgeApprover, unreachableDecision } from "./edge-approver.ts";
import { EdgeClient } from "./edge-client.ts";
import { readEmergencyCache } from "./emergency-cache.ts";
import { matchGrant, readGrantCache } from "./grants.ts";
import { loadLocalPolicy } from "./local-policy.ts";
import { AgentToolCall, type CompanionDecision, denied } from "./tool-call.ts";

export type { AgentToolCall, CompanionDecision } from "./tool-call.ts";

export interface RequestOptions {
  env?: Env;
  /** `return`: an `ask` comes back as `ask` (the agent prompts locally) instead of waiting for the phone. */
  askMode?: "approver" | "return";
  /** Skip the daemon even if it runs. */
  direct?: boolean;
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
  const env = options.env ?? process.env;
  const creds = loadCredentials(env);
  const grants = readGrantCache(env);
  const edge = creds.ok ? EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env)) : undefined;
  return decideToolCall(call, {
    policy: (cwd) => loadLocalPolicy(cwd, env),
    emergency: () => readEmergencyCache(env),
    grants: (c, record) => matchGrant(grants, c.agent.id, record),
    ...(edge
      ? { approver: new EdgeApprover(edge) }
      : { unpairedReason: `this machine is not paired (${creds.ok ? "" : creds.reason})` }),
    audit: (event) => {
      try {
        enqueueAudit([event], env);
      } catch {
        // Audit is best effort on the direct path; the decision itself stands.
      }
    },
    promptTimeoutMs: promptTimeoutMs(env),
    askMode: options.askMode ?? "approver",
  });
}

/** The daemon went away while deciding: it journaled the call, so wait for it to return, else ask the edge. */
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
  const creds = loadCredentials(env);
  if (creds.ok) {
    const edge = EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env));
    try {
      const known = await awaitKnownDecision(edge, call.callId, deadline);
      if (known) return known;
    } catch (error) {
      return unreachableDecision(error, edge.server);
    }
  }
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
        { type: "decide", call: parsed.data, askMode: options.askMode },
        budgetMs(env),
      );
      if (res.type === "decision") return res.decision;
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
  if (daemonDisabled(env)) return false;
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
    const creds = loadCredentials(env);
    if (!creds.ok) return false;
    return EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env))
      .endSession(sessionId)
      .then(() => true)
      .catch(() => false);
  }
}
