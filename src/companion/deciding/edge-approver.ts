// Asking a person over the edge's REST decision API (the no-daemon path, and the daemon's fallback for resumed calls).
import { callFingerprint, derivedCallId } from "../../policy/call-binding.ts";
import { COMPANION_DEADLINE_MARGIN_MS, companionWaitDeadline, LONG_POLL_MS } from "../../policy/deadlines.ts";
import type { DecisionRecord } from "../../policy/index.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/index.ts";
import { type AgentToolCall, type CompanionDecision, denied } from "../control/tool-call.ts";
import { type DecisionAnswer, type EdgeClient, EdgeError } from "../edge/client.ts";
import type { Approver } from "./decide.ts";

/**
 * Fields of a canonical call that carry file contents: the edge needs the scope, never the bytes (non-negotiable 4).
 * Pi's and Airlock's MCP canonical `edit` may also spell a replacement oldText/newText (tool-names.ts).
 */
const CONTENT_FIELDS = ["content", "old_string", "new_string", "oldText", "newText", "edits", "new_source"];

export function toDecisionRequest(
  call: AgentToolCall,
  record: DecisionRecord,
  facts: readonly string[] = [],
): DecisionRequest {
  const input: Record<string, unknown> = { ...call.input };
  for (const field of CONTENT_FIELDS) {
    const value = input[field];
    if (value !== undefined) input[field] = `<redacted: ${JSON.stringify(value).length} bytes>`;
  }
  return {
    call_id: call.callId,
    session_id: call.sessionId,
    agent: call.agent,
    tool: call.tool,
    input,
    cwd: call.cwd,
    local: {
      action: record.action,
      rule: record.rule,
      capability: record.capability,
      risk: record.risk,
      ...(facts.length > 0 ? { facts: facts.slice(0, 8).map((f) => f.slice(0, 500)) } : {}),
    },
    ...(call.agentAsks ? { agent_asks: call.agentAsks } : {}),
    ...(call.sole ? { sole: true as const } : {}),
    ...(call.causal && call.causal.length > 0 ? { causal: call.causal } : {}),
  };
}

export function fromDecisionResponse(response: DecisionResponse): CompanionDecision {
  const out: CompanionDecision = {
    decision: response.decision,
    reason: response.reason,
    source: response.source,
  };
  if (response.prompt_id) out.promptId = response.prompt_id;
  if (response.rule) out.rule = response.rule;
  return out;
}

/** The deny a person reads when no approval could be obtained, naming the cause. */
export function unreachableDecision(error: unknown, server: string): CompanionDecision {
  if (error instanceof EdgeError && error.kind === "unauthenticated") {
    return denied(`Airlock denied this call: it needs approval, but ${error.message}`, "unavailable");
  }
  // An unreachable edge's message already names the server; anything else gets it named here, once.
  const message = error instanceof Error ? error.message : String(error);
  const why =
    error instanceof EdgeError && error.kind === "unreachable"
      ? message
      : `the Airlock edge at ${server} failed (${message})`;
  return denied(`Airlock denied this call: it needs a person's approval, but ${why}`, "unavailable");
}

/** The edge refused the call_id because it was used for a different call (providers reuse ids such as `call_0`). */
export function isCallConflict(error: unknown): boolean {
  return error instanceof EdgeError && error.status === 409 && error.code === "call_conflict";
}

/** The fingerprint the companion binds a call_id to: the full call (file contents included), as the agent sent it. */
export function localFingerprint(call: AgentToolCall): string {
  return callFingerprint({
    sessionId: call.sessionId,
    agent: call.agent,
    deviceId: null,
    tool: call.tool,
    input: call.input,
    cwd: call.cwd,
  });
}

/**
 * POST /v1/decisions and wait for the person, bounded by the prompt timeout plus a margin for the network. The call
 * is first registered without waiting, so an edge that is down is reported at once; once the edge knows the call, a
 * wait lost to an edge restart is retried with the same call id (the edge answers it with the same prompt) for up
 * to `graceMs` of unreachability, instead of denying while the prompt can still be answered.
 */
export class EdgeApprover implements Approver {
  readonly #edge: EdgeClient;
  readonly #graceMs: number;
  constructor(edge: EdgeClient, graceMs = 10_000) {
    this.#edge = edge;
    this.#graceMs = graceMs;
  }

  /**
   * Long-polls POST /v1/decisions with the same call until it is decided: each POST waits up to the edge's
   * long poll and asking again keeps the call held; once this side stops asking, the edge abandons it.
   */
  async ask(
    call: AgentToolCall,
    record: DecisionRecord,
    timeoutMs: number,
    facts: readonly string[] = [],
  ): Promise<CompanionDecision> {
    let request = toDecisionRequest(call, record, facts);
    const deadline = companionWaitDeadline(Date.now(), timeoutMs);
    // Give up and deny: withdraw the call first, so no later answer is recorded as an allow.
    const giveUp = async (decision: CompanionDecision) => {
      await this.#edge.withdraw(request.call_id, 1_000).catch(() => undefined);
      return decision;
    };
    try {
      let first: DecisionAnswer;
      try {
        first = await this.#edge.decide(request, { wait: false, waitMs: timeoutMs });
      } catch (error) {
        // A reused id with other content is decided on its own, under an id derived from its content.
        if (!isCallConflict(error)) throw error;
        request = { ...request, call_id: derivedCallId(call.callId, localFingerprint(call)) };
        first = await this.#edge.decide(request, { wait: false, waitMs: timeoutMs });
      }
      if (first.state === "decided") return fromDecisionResponse(first.response);
    } catch (error) {
      if (isCallConflict(error))
        return denied("Airlock denied this call: its call id was already used for a different call", "error");
      return unreachableDecision(error, this.#edge.server);
    }
    // Long-poll the same call: each POST waits up to the edge's long poll, and asking again keeps it held.
    let lostSince: number | null = null;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        return giveUp(
          denied("Airlock denied this call: no one answered the approval prompt in time", "timeout"),
        );
      try {
        const waitMs = Math.min(remaining, LONG_POLL_MS + COMPANION_DEADLINE_MARGIN_MS);
        const answer = await this.#edge.decide(request, { wait: true, waitMs });
        if (answer.state === "decided") return fromDecisionResponse(answer.response);
        lostSince = null;
      } catch (error) {
        if (!(error instanceof EdgeError && error.kind === "unreachable"))
          return giveUp(unreachableDecision(error, this.#edge.server));
        lostSince ??= Date.now();
        if (Date.now() - lostSince >= this.#graceMs || Date.now() >= deadline)
          return giveUp(unreachableDecision(error, this.#edge.server));
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
