// Asking a person over the edge's REST decision API (the no-daemon path, and the daemon's fallback for resumed calls).
import type { DecisionRecord } from "../policy/index.ts";
import type { DecisionRequest, DecisionResponse } from "../protocol/index.ts";
import type { Approver } from "./decide.ts";
import { type EdgeClient, EdgeError } from "./edge-client.ts";
import { type AgentToolCall, type CompanionDecision, denied } from "./tool-call.ts";

/** Fields that carry file contents: the edge needs the scope, never the bytes (non-negotiable 4). */
const CONTENT_FIELDS = ["content", "old_string", "new_string", "edits", "new_source"];

export function toDecisionRequest(call: AgentToolCall, record: DecisionRecord): DecisionRequest {
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
    local: { action: record.action, rule: record.rule, capability: record.capability, risk: record.risk },
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

const POLL_MS = 500;

/**
 * Waits for a call the edge already knows (submitted by a daemon that went away): polls GET /v1/decisions/{id}
 * until decided or the deadline passes. Returns null when the edge never saw the call.
 */
export async function awaitKnownDecision(
  edge: EdgeClient,
  callId: string,
  deadline: number,
): Promise<CompanionDecision | null> {
  for (;;) {
    const answer = await edge.decision(callId);
    if (answer === null) return null;
    if (answer.state === "decided") return fromDecisionResponse(answer.response);
    if (Date.now() + POLL_MS > deadline) {
      return denied("Airlock denied this call: no one answered the approval prompt in time", "timeout");
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
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

  async ask(call: AgentToolCall, record: DecisionRecord, timeoutMs: number): Promise<CompanionDecision> {
    const request = toDecisionRequest(call, record);
    const deadline = Date.now() + timeoutMs + 10_000;
    try {
      const first = await this.#edge.decide(request, { wait: false, waitMs: timeoutMs });
      if (first.state === "decided") return fromDecisionResponse(first.response);
    } catch (error) {
      return unreachableDecision(error, this.#edge.server);
    }
    let lostSince: number | null = null;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        return denied("Airlock denied this call: no one answered the approval prompt in time", "timeout");
      try {
        const answer = await this.#edge.decide(request, { wait: true, waitMs: remaining });
        if (answer.state === "decided") return fromDecisionResponse(answer.response);
        lostSince = null;
      } catch (error) {
        if (!(error instanceof EdgeError && error.kind === "unreachable"))
          return unreachableDecision(error, this.#edge.server);
        lostSince ??= Date.now();
        if (Date.now() - lostSince >= this.#graceMs || Date.now() >= deadline)
          return unreachableDecision(error, this.#edge.server);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
