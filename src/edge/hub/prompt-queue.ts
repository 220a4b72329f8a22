// The prompt queue: a call that needs a person opens a prompt (announced to dashboards at once) or joins
// the open prompt with its key while that prompt's batch window lasts. A call stays pending while someone
// holds it; a withdrawn call, or one whose holder vanished past its hold, is denied as abandoned.
import {
  canJoin,
  MAX_CALLS_PER_PROMPT,
  MAX_OPEN_PROMPTS,
  promptDeadlines,
  promptTimeoutMs,
  reconnectGraceUntil,
  waitLeaseUntil,
} from "../../policy/index.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import { newId } from "../auth/crypto.ts";
import type { CallRow, Holder } from "./call-store.ts";
import { abandonedAudits, immediateAudit } from "./decision-audit.ts";
import type { HubContext } from "./hub-context.ts";
import type { PromptRow } from "./prompt-store.ts";

export type DecideOutcome =
  | { kind: "decided"; response: DecisionResponse }
  | { kind: "pending"; promptId: string; expiresAt: number }
  | { kind: "conflict"; callId: string };

/**
 * Until when a holder holds a call: a socket while it is open (null); a REST caller for one lease from its
 * last request about the call.
 */
export function holdUntil(holder: Holder, now: number): number | null {
  return holder === "socket" ? null : waitLeaseUntil(now);
}

export class PromptQueue {
  private readonly ctx: HubContext;

  constructor(ctx: HubContext) {
    this.ctx = ctx;
  }

  /** The card of a prompt, open (the calls still waiting) or resolved. */
  view(prompt: PromptRow) {
    return prompt.status === "open" ? this.ctx.promptCard(prompt) : this.ctx.resolvedCard(prompt);
  }

  pendingViews() {
    return this.ctx.prompts.open().map((p) => this.ctx.promptCard(p));
  }

  resolvedViews(limit: number) {
    return this.ctx.prompts.resolved(limit).map((p) => this.ctx.resolvedCard(p));
  }

  /** Puts a call that needs a person in front of one (new prompt, or the joinable one with its key). */
  enqueue(
    request: DecisionRequest,
    call: CallRow,
    justification: string,
    holder: Holder,
    now: number,
  ): DecideOutcome {
    const { ctx } = this;
    const key = [request.agent.id, call.capability, call.risk, call.scope_group].join("\u0000");
    const newest = ctx.prompts.newestOpen(key);
    const prompt =
      newest &&
      canJoin({ joinUntil: newest.join_until, expiresAt: newest.expires_at }, now) &&
      ctx.calls.countOfPrompt(newest.id) < MAX_CALLS_PER_PROMPT
        ? newest
        : undefined;
    if (!prompt && ctx.prompts.openCount() >= MAX_OPEN_PROMPTS) {
      const answer = {
        decision: "deny" as const,
        reason: `Too many prompts (${MAX_OPEN_PROMPTS}) are waiting for a person; answer or let them expire first.`,
        source: "policy" as const,
      };
      ctx.ports.transaction(() => {
        ctx.calls.insert({ ...call, status: "decided", ...answer, decided_at: now });
        ctx.audit([immediateAudit(ctx.ports.userId(), call, answer, now, ctx.policyMode())], now);
      });
      return { kind: "decided", response: { call_id: call.call_id, ...answer } };
    }
    const created = !prompt;
    const open = prompt ?? this.newPrompt(request, call, key, justification, now);
    ctx.ports.transaction(() => {
      if (created) ctx.prompts.insert(open);
      ctx.calls.insert({ ...call, prompt_id: open.id, holder, held_until: holdUntil(holder, now) });
    });
    // The first card goes out at once; calls that join in the batch window update it live.
    const view = ctx.promptCard(open);
    ctx.ports.toDashboards({ type: created ? "capability_prompt" : "prompt_updated", data: view });
    return { kind: "pending", promptId: open.id, expiresAt: open.expires_at };
  }

  private newPrompt(
    request: DecisionRequest,
    call: CallRow,
    key: string,
    justification: string,
    now: number,
  ): PromptRow {
    const timeoutMs = promptTimeoutMs(this.ctx.settings.promptTimeoutMs(this.ctx.ports.defaultTimeoutMs));
    const deadlines = promptDeadlines(now, timeoutMs);
    return {
      id: newId("prm"),
      kind: "calls",
      prompt_key: key,
      status: "open",
      agent: JSON.stringify(request.agent),
      capability: call.capability,
      risk: call.risk,
      method: request.tool.slice(0, 200),
      scope_group: call.scope_group,
      justification,
      created_at: now,
      opens_at: now,
      announced: 1,
      expires_at: deadlines.expiresAt,
      timeout_ms: timeoutMs,
      join_until: deadlines.joinUntil,
      resolution: null,
      resolved_at: null,
      decided_by_actor: null,
      decided_by_device: null,
    };
  }

  /** A known pending call asked again (a retry, or a resume): its holder holds it anew. */
  rehold(call: CallRow, holder: Holder, now: number): void {
    this.ctx.calls.hold(call.call_id, holder, holdUntil(holder, now));
  }

  /** A companion resumed after reconnecting: its socket holds these calls again. */
  resume(deviceId: string, callIds: readonly string[]): void {
    for (const id of callIds) {
      const call = this.ctx.calls.get(id);
      if (call?.status === "pending" && call.device_id === deviceId) this.ctx.calls.hold(id, "socket", null);
    }
  }

  /** A device's last socket closed: its socket-held calls have a grace period to be resumed. */
  release(deviceId: string, now: number): void {
    this.ctx.calls.releaseSocketHolds(deviceId, reconnectGraceUntil(now));
  }

  /** After a restart no socket is open: calls held by a gone socket start their grace period now. */
  releaseOrphans(now: number): void {
    for (const deviceId of this.ctx.calls.devicesHoldingBySocket())
      if (!this.ctx.ports.deviceConnected(deviceId)) this.release(deviceId, now);
  }

  /** The caller's device stops waiting for these calls (only its own pending calls count). */
  withdraw(deviceId: string | null, callIds: readonly string[], now: number): number {
    const calls = callIds
      .map((id) => this.ctx.calls.get(id))
      .filter((c): c is CallRow => c?.status === "pending" && c.device_id === deviceId);
    this.abandon(calls, "the agent's side withdrew the call (it stopped waiting)", now);
    return calls.length;
  }

  abandonLapsed(now: number): void {
    const lapsed = this.ctx.calls.lapsedHolds(now);
    if (lapsed.length) this.abandon(lapsed, "nobody was waiting for the answer any more", now);
  }

  /** Denies the calls as abandoned; a prompt left with no waiting call ends as `abandoned`. */
  abandon(calls: readonly CallRow[], why: string, now: number): void {
    if (calls.length === 0) return;
    const { ctx } = this;
    const answered: { call: CallRow; response: DecisionResponse }[] = [];
    const emptied: string[] = [];
    ctx.ports.transaction(() => {
      for (const call of calls) {
        const response: DecisionResponse = {
          call_id: call.call_id,
          decision: "deny",
          reason: `Airlock denied this call: ${why}.`,
          source: "abandoned",
          ...(call.prompt_id ? { prompt_id: call.prompt_id } : {}),
        };
        if (ctx.calls.decide(call.call_id, response, now)) answered.push({ call, response });
      }
      for (const promptId of new Set(answered.map((a) => a.call.prompt_id))) {
        if (promptId && ctx.calls.pendingOfPrompt(promptId).length === 0) {
          if (ctx.prompts.resolve(promptId, "abandoned", now, "abandoned", null)) emptied.push(promptId);
        }
      }
      if (answered.length)
        ctx.audit(
          abandonedAudits(
            ctx.ports.userId(),
            answered.map((a) => a.call),
            why,
            now,
            ctx.policyMode(),
          ),
          now,
        );
    });
    ctx.deliver(answered);
    for (const promptId of new Set(answered.map((a) => a.call.prompt_id))) {
      const prompt = promptId ? ctx.prompts.get(promptId) : undefined;
      if (!prompt) continue;
      if (emptied.includes(prompt.id))
        ctx.ports.toDashboards({ type: "prompt_resolved", data: ctx.resolvedCard(prompt) });
      else if (prompt.status === "open")
        ctx.ports.toDashboards({ type: "prompt_updated", data: ctx.promptCard(prompt) });
    }
  }
}
