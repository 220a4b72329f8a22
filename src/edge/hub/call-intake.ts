// A call arrives (POST /v1/decisions or a socket tool_request): its call_id is checked against what it
// was bound to, the one decision core judges it (account policy, emergency, grants), and it is answered
// at once or put in front of a person. An immediate answer and its audit commit in one transaction.

import { answerOf } from "../../policy/answer.ts";
import { askReasonOf } from "../../policy/ask-reason.ts";
import { withCausalChange } from "../../policy/causal-change.ts";
import {
  type CompiledPolicy,
  callFingerprint,
  clip,
  redactText,
  shownCall,
  soleMarked,
  storedUnit,
  verdictOf,
  withAgentAsk,
} from "../../policy/index.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import { type CallRow, type Holder, responseOf } from "./call-store.ts";
import { conflictAudit, immediateAudit } from "./decision-audit.ts";
import { causalChangesAtEdge, judgeAtEdge } from "./edge-policy.ts";
import { grantUsedAudit } from "./grant-audit.ts";
import type { HubContext } from "./hub-context.ts";
import type { DecideOutcome, PromptQueue } from "./prompt-queue.ts";
import { WriteBatch } from "./write-batch.ts";

const MAX_CWD_CHARS = 1_000;
const MAX_DESCRIPTION_CHARS = 300;

/** The agent's own words for a call (Claude Code's Bash `description`), redacted and bounded; untrusted text. */
function agentDescription(input: Record<string, unknown>): string | null {
  const text = input.description;
  if (typeof text !== "string" || !text.trim()) return null;
  return clip(redactText(text.trim()), MAX_DESCRIPTION_CHARS);
}

function shownColumns(request: DecisionRequest): Pick<CallRow, "shown_text" | "shown_chars"> {
  const shown = shownCall(request.tool, request.input);
  return { shown_text: shown.text, shown_chars: shown.chars };
}

export class CallIntake {
  private readonly ctx: HubContext;
  private readonly queue: PromptQueue;
  private readonly policy: () => CompiledPolicy;
  private readonly batch: WriteBatch;

  constructor(ctx: HubContext, queue: PromptQueue, policy: () => CompiledPolicy) {
    this.ctx = ctx;
    this.queue = queue;
    this.policy = policy;
    this.batch = new WriteBatch(ctx.ports.transaction);
  }

  async decide(
    request: DecisionRequest,
    requester: string | null,
    holder: Holder,
    now = Date.now(),
  ): Promise<DecideOutcome> {
    const { ctx } = this;
    await ctx.grants.load();
    const fingerprint = callFingerprint({
      sessionId: request.session_id,
      agent: request.agent,
      deviceId: requester,
      tool: request.tool,
      input: request.input,
      cwd: request.cwd,
    });
    // From here to the write everything is synchronous: no other call can interleave.
    const existing = ctx.calls.get(request.call_id);
    if (existing) return this.known(existing, request, requester, fingerprint, holder, now);
    const unwritten = this.batch.pending(request.call_id);
    if (unwritten) {
      if (unwritten.fingerprint === fingerprint) return { kind: "decided", response: unwritten.response };
      return this.refuseReplay(request.call_id, request, requester, now);
    }

    const judged = judgeAtEdge(this.policy(), request);
    const verdict = withAgentAsk(
      verdictOf({
        record: judged.record,
        emergency: ctx.settings.emergency(),
        agent: request.agent,
        units: judged.units,
        grants: ctx.grants.all(),
        sessionGrants: ctx.sessions.rules(request.session_id, request.agent.id, now),
        mode: this.policy().mode,
      }),
      request.agent.name,
      request.agent_asks,
    );
    const { record } = verdict;
    const call: CallRow = {
      call_id: request.call_id,
      session_id: request.session_id,
      agent_id: request.agent.id,
      agent_version: request.agent.version ?? null,
      device_id: requester,
      prompt_id: null,
      tool: clip(request.tool, 200),
      capability: record.capability,
      risk: record.risk,
      scope_kind: record.scope.kind,
      // A stored prompt never keeps a huge command: the summary is clipped, its hash stays exact.
      scope_summary: clip(record.scope.summary),
      scope_group: clip(record.scope.group),
      scope_hash: record.scopeHash,
      status: "pending",
      decision: null,
      reason: null,
      source: null,
      rule: record.rule === null ? null : clip(record.rule, 500),
      created_at: now,
      decided_at: null,
      cwd: request.cwd ? clip(redactText(request.cwd), MAX_CWD_CHARS) : null,
      description: agentDescription(request.input),
      fingerprint,
      units: JSON.stringify(judged.units.map(storedUnit)),
      holder: null,
      held_until: null,
      resolution: null,
      grants: null,
      shown_text: null,
      shown_chars: null,
      ask_reason: null,
    };
    if (verdict.action === "ask") {
      // Only a call that goes in front of a person needs its shown text (redacting up to 16 KiB): an
      // immediate answer never reaches a card, so the hot path skips it.
      Object.assign(call, shownColumns(request));
      // A command whose saved grant was pinned to content that changed: the card says what changed.
      const changes = causalChangesAtEdge(this.policy(), request, ctx.grants.all());
      const asked = withCausalChange({ record, units: [], facts: [] }, changes).record;
      call.ask_reason = askReasonOf(asked);
      const shown = asked.justification;
      const justification = request.sole ? soleMarked(shown) : shown;
      const outcome = this.queue.enqueue(request, call, justification, holder, now);
      ctx.flushSoon();
      return outcome;
    }
    const answer = answerOf(verdict);
    const response: DecisionResponse = {
      call_id: call.call_id,
      ...answer,
      ...(call.rule ? { rule: call.rule } : {}),
    };
    await this.batch.write(call.call_id, { fingerprint, response }, () => {
      // A decided call keeps its binding and answer; its grant units matter only while a person is asked.
      ctx.calls.insert({ ...call, units: null, status: "decided", ...answer, decided_at: now });
      const entries = [immediateAudit(ctx.ports.userId(), call, answer, now, ctx.policyMode())];
      const used = verdict.grant;
      if ((verdict.source === "grant" || verdict.source === "session_grant") && used) {
        const kind = verdict.source === "grant" ? "agent" : "session";
        if (kind === "agent") ctx.grants.touch(used.id, now);
        else ctx.sessions.touch(used.id, now);
        const g = { id: used.id, userId: ctx.ports.userId(), agentId: used.agentId, effect: used.effect };
        entries.push(grantUsedAudit(g, kind, call.call_id, now));
      }
      ctx.audit(entries, now);
    });
    // The answer goes out now; the audit reaches D1 right behind it (or by the alarm).
    ctx.flushSoon();
    return { kind: "decided", response };
  }

  private refuseReplay(
    callId: string,
    request: DecisionRequest,
    requester: string | null,
    now: number,
  ): DecideOutcome {
    const { ctx } = this;
    ctx.ports.transaction(() =>
      ctx.audit([conflictAudit(ctx.ports.userId(), callId, request, requester, now)], now),
    );
    ctx.flushSoon();
    return { kind: "conflict", callId };
  }

  /** A call_id seen before: the same call gets its answer (or keeps waiting); other content is a conflict. */
  private known(
    existing: CallRow,
    request: DecisionRequest,
    requester: string | null,
    fingerprint: string,
    holder: Holder,
    now: number,
  ): DecideOutcome {
    const { ctx } = this;
    if (existing.fingerprint !== fingerprint)
      return this.refuseReplay(existing.call_id, request, requester, now);
    const response = responseOf(existing);
    if (response) return { kind: "decided", response };
    this.queue.rehold(existing, holder, now);
    const prompt = existing.prompt_id ? ctx.prompts.get(existing.prompt_id) : undefined;
    return { kind: "pending", promptId: existing.prompt_id ?? "", expiresAt: prompt?.expires_at ?? now };
  }
}
