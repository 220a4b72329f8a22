// Resolving prompts: a person's answer (checked against the deadline, the confirmation token and the
// grant choices the card offered) or the deadline itself. Settling is one SQLite transaction: the prompt,
// every waiting call's answer, the grants it creates and their audit/D1 writes in the outbox.
import {
  type GrantRule,
  isExpired,
  type NewGrantRule,
  offeredPatterns,
  redactText,
  rulesForAnswer,
} from "../../policy/index.ts";
import type { PromptDecision, Resolution } from "../../protocol/capability.ts";
import type { DecisionResponse } from "../../protocol/decisions.ts";
import type { GrantRuleView } from "../../protocol/grants.ts";
import type { ResolvedPrompt } from "../../protocol/prompts.ts";
import type { CallRow } from "./call-store.ts";
import { confirmationRefused, resolutionAudit } from "./decision-audit.ts";
import { grantCreatedAudit } from "./grant-audit.ts";
import type { Decider, HubContext } from "./hub-context.ts";
import { SAFETY_DELAY_MS } from "./outbox.ts";
import { type PromptRow, parseAgent } from "./prompt-store.ts";
import { offerOf, scopesFingerprint, unitsOfCalls } from "./prompt-view.ts";
import { proposalOfPrompt } from "./proposal-prompts.ts";
import { failure, type HubResult } from "./result.ts";
import { DUE_SLACK_MS } from "./schedule.ts";

/** Rules sent with a decision (the protocol's bound); a companion that learns fewer just asks the edge. */
const MAX_RULES_SENT = 100;
const TIMEOUT: Decider = { actor: "timeout", deviceId: null };

function ruleView(r: NewGrantRule | GrantRule): GrantRuleView {
  return {
    capability: r.capability as GrantRuleView["capability"],
    match: r.match === "prefix" ? "prefix" : "exact",
    pattern: r.pattern,
    scope_hash: r.scopeHash,
    version_range: r.versionRange,
    effect: r.effect,
  };
}

function reasonOf(prompt: PromptRow, resolution: Resolution, note?: string): string {
  if (resolution === "deny_timeout")
    return `Nobody answered within ${Math.round(prompt.timeout_ms / 1000)} s (deny_timeout).`;
  const said = note ? ` Their message: ${note}` : "";
  return `${resolution.startsWith("allow") ? "Allowed" : "Denied"} by a person (${resolution}).${said}`;
}

/** A resolved prompt answers 409 with a code the dashboard can show (expired, withdrawn, answered). */
function alreadyResolved(prompt: PromptRow) {
  if (prompt.resolution === "deny_timeout")
    return failure(
      409,
      "prompt_expired",
      `Prompt ${prompt.id} expired: nobody answered in time, so it was denied.`,
    );
  if (prompt.resolution === "abandoned")
    return failure(409, "prompt_withdrawn", `Prompt ${prompt.id} is withdrawn: the agent stopped waiting.`);
  return failure(409, "conflict", `Prompt ${prompt.id} is already resolved (${prompt.resolution}).`);
}

export interface AnswerOptions {
  confirmationToken?: string | undefined;
  /** A wider grant pattern the card offered (session/always answers only). */
  pattern?: string | undefined;
  /** With a deny: the person's message for the agent (it reaches the agent in the reason). */
  message?: string | undefined;
}

/** An answer that passed every check: what settling it needs. */
export interface VettedAnswer {
  prompt: PromptRow;
  /** The waiting calls as the person saw them: settling refuses if they changed. */
  fingerprint: string;
  pattern: string | undefined;
  note: string | undefined;
}

export class Resolver {
  private readonly ctx: HubContext;

  constructor(ctx: HubContext) {
    this.ctx = ctx;
  }

  async confirm(
    promptId: string,
    now = Date.now(),
  ): Promise<HubResult<{ token: string; expiresAt: number }>> {
    const prompt = this.ctx.prompts.get(promptId);
    if (!prompt) return failure(404, "not_found", `No prompt ${promptId}.`);
    if (prompt.status !== "open") return alreadyResolved(prompt);
    if (isExpired(prompt.expires_at, now)) return this.expireNow(prompt, now);
    const fingerprint = scopesFingerprint(this.ctx.calls.pendingOfPrompt(promptId));
    return { ok: true, value: await this.ctx.confirmations.issue(promptId, fingerprint, now) };
  }

  async resolve(
    promptId: string,
    decision: PromptDecision,
    by: Decider,
    options: AnswerOptions = {},
    now = Date.now(),
  ): Promise<HubResult<ResolvedPrompt>> {
    const vetted = await this.vet(promptId, decision, by, options, now);
    if (!vetted.ok) return vetted;
    return this.commit(vetted.value, decision, by, now);
  }

  /**
   * Every check a person's answer must pass (open, in time, offered, confirmed when high risk), without settling:
   * an answer held for its undo window (held-decisions.ts) is checked when it arrives and settled later.
   */
  async vet(
    promptId: string,
    decision: PromptDecision,
    by: Decider,
    options: AnswerOptions,
    now: number,
  ): Promise<HubResult<VettedAnswer>> {
    const { ctx } = this;
    const prompt = ctx.prompts.get(promptId);
    if (!prompt) return failure(404, "not_found", `No prompt ${promptId}.`);
    if (prompt.status !== "open") return alreadyResolved(prompt);
    // An answer after the deadline is refused, even if the alarm has not run yet: the caller was told deny.
    if (isExpired(prompt.expires_at, now)) return this.expireNow(prompt, now);
    if (decision === "allow_session" && prompt.kind === "proposal")
      return failure(400, "bad_request", "A proposal has no session: approve it once or always.");
    const calls = ctx.calls.pendingOfPrompt(promptId);
    const { pattern } = options;
    // High risk never offers "always" or a wider pattern (src/policy/grant-offer.ts); proposals have their own.
    const agentCall = prompt.kind === "calls";
    if (agentCall && decision === "allow_always" && !offerOf(prompt, calls).always && prompt.risk === "high")
      return failure(
        400,
        "validation_failed",
        'This prompt does not offer "always": high-risk calls are approved each time.',
      );
    if (pattern !== undefined) {
      if (decision === "allow_once" || decision === "deny_once")
        return failure(
          400,
          "validation_failed",
          "A grant pattern goes with a session or always answer only.",
        );
      const offered = agentCall ? offerOf(prompt, calls).wider : offeredPatterns(unitsOfCalls(calls));
      if (!offered.includes(pattern))
        return failure(400, "validation_failed", "That pattern is not one this prompt offers.", { offered });
    }
    const fingerprint = scopesFingerprint(calls);
    if (decision.startsWith("allow") && prompt.risk === "high") {
      const check = await ctx.confirmations.consume(options.confirmationToken, promptId, fingerprint, now);
      if (check !== "ok") {
        ctx.ports.transaction(() =>
          ctx.audit([confirmationRefused(ctx.ports.userId(), prompt, decision, check, by, now)], now),
        );
        await ctx.flush();
        return failure(
          403,
          "confirmation_required",
          check === "scopes_changed"
            ? "The batch changed since you confirmed; review it and confirm again."
            : "High-risk approvals need a fresh confirmation token: confirm first, then approve.",
          { reason: check },
        );
      }
    }
    const note =
      !decision.startsWith("allow") && options.message?.trim()
        ? redactText(options.message.trim())
        : undefined;
    return { ok: true, value: { prompt, fingerprint, pattern, note } };
  }

  /** Settles a vetted answer; refused if the waiting calls changed since it was vetted. */
  async commit(
    vetted: VettedAnswer,
    decision: PromptDecision,
    by: Decider,
    now: number,
  ): Promise<HubResult<ResolvedPrompt>> {
    const { prompt, pattern, fingerprint, note } = vetted;
    const settled = await this.settle(prompt, decision, by, now, { pattern, fingerprint, note });
    if (settled === "changed")
      return failure(409, "conflict", "The prompt changed while you answered; review it and answer again.");
    return { ok: true, value: settled };
  }

  private async expireNow(prompt: PromptRow, now: number) {
    await this.settle(prompt, "deny_timeout", TIMEOUT, now);
    return alreadyResolved({ ...prompt, resolution: "deny_timeout" });
  }

  /** Settles every prompt past its deadline as deny_timeout. */
  async expireDue(now: number): Promise<void> {
    for (const prompt of this.ctx.prompts.expired(now + DUE_SLACK_MS))
      await this.settle(prompt, "deny_timeout", TIMEOUT, now);
  }

  /**
   * One transaction: the prompt's resolution, each waiting call's answer, the grants the answer creates,
   * and the audit and D1 writes (outbox). `fingerprint`: refuse if the waiting calls changed meanwhile.
   */
  async settle(
    prompt: PromptRow,
    resolution: Resolution,
    by: Decider,
    now: number,
    options: { pattern?: string | undefined; fingerprint?: string; note?: string | undefined } = {},
  ): Promise<ResolvedPrompt | "changed"> {
    const { ctx } = this;
    const proposal = prompt.kind === "proposal" ? proposalOfPrompt(ctx.ports.sql, prompt.id) : undefined;
    if (proposal) return this.settleProposal(prompt, proposal.id, resolution, by, now);
    const mark = ctx.outbox.mark();
    const answered: { call: CallRow; response: DecisionResponse }[] = [];
    const outcome = ctx.ports.transaction((): "changed" | "lost" | "settled" => {
      const pending = ctx.calls.pendingOfPrompt(prompt.id);
      if (options.fingerprint !== undefined && scopesFingerprint(pending) !== options.fingerprint)
        return "changed";
      if (!ctx.prompts.resolve(prompt.id, resolution, now, by.actor, by.deviceId)) return "lost";
      const grants = this.recordGrants(prompt, pending, resolution, by, now, options.pattern);
      const base = {
        decision: resolution.startsWith("allow") ? ("allow" as const) : ("deny" as const),
        reason: reasonOf(prompt, resolution, options.note),
        source: resolution === "deny_timeout" ? ("timeout" as const) : ("user" as const),
        prompt_id: prompt.id,
        resolution,
        ...(grants ? { grants } : {}),
      };
      for (const call of pending) {
        const response: DecisionResponse = {
          call_id: call.call_id,
          ...base,
          ...(call.rule ? { rule: call.rule } : {}),
        };
        if (ctx.calls.decide(call.call_id, response, now)) answered.push({ call, response });
      }
      const patterns = grants?.rules.map((r) => r.pattern ?? "") ?? [];
      const calls = answered.map((a) => a.call);
      ctx.audit(
        [resolutionAudit(ctx.ports.userId(), prompt, calls, resolution, by, now, ctx.policyMode(), patterns)],
        now,
      );
      return "settled";
    });
    if (outcome === "changed") return "changed";
    const view = ctx.resolvedCard(ctx.prompts.get(prompt.id) ?? prompt);
    if (outcome === "settled") {
      ctx.deliver(answered);
      ctx.ports.toDashboards({ type: "prompt_resolved", data: view });
      // The answer's audit and grants go to D1 now, not after a companion's backlog of audit rows.
      await ctx.flushOwn(mark);
    }
    return view;
  }

  /** A proposal's prompt: no calls to answer, no agent grants; the conveyor takes the decision. */
  private async settleProposal(
    prompt: PromptRow,
    proposalId: string,
    resolution: Resolution,
    by: Decider,
    now: number,
  ): Promise<ResolvedPrompt> {
    const { ctx } = this;
    if (ctx.prompts.resolve(prompt.id, resolution, now, by.actor, by.deviceId)) {
      await ctx.ports.proposals?.onResolved(proposalId, resolution, by, prompt.id);
      ctx.ports.toDashboards({
        type: "prompt_resolved",
        data: ctx.resolvedCard(ctx.prompts.get(prompt.id) ?? prompt),
      });
      // The conveyor wrote what must be in D1 now; an approval's audit waits in the outbox for its run's
      // end (one batch with the result), and the alarm is the backstop if that never comes.
      await ctx.schedule.armBy(now + SAFETY_DELAY_MS);
    }
    return ctx.resolvedCard(ctx.prompts.get(prompt.id) ?? prompt);
  }

  /** Inside the settle transaction: session or saved grants for the units the person saw. */
  private recordGrants(
    prompt: PromptRow,
    calls: CallRow[],
    resolution: Resolution,
    by: Decider,
    now: number,
    pattern: string | undefined,
  ): DecisionResponse["grants"] {
    if (resolution !== "allow_session" && resolution !== "allow_always" && resolution !== "deny_always")
      return undefined;
    const agent = parseAgent(prompt.agent);
    const effect = resolution === "deny_always" ? "deny" : "allow";
    const scope = resolution === "allow_session" ? "session" : "always";
    const rules = rulesForAnswer(unitsOfCalls(calls), effect, scope, agent, pattern);
    if (rules.length === 0) return undefined;
    const userId = this.ctx.ports.userId();
    if (resolution === "allow_session") {
      for (const sessionId of new Set(calls.map((c) => c.session_id))) {
        const ids = this.ctx.sessions.add(sessionId, rules, now, {
          promptId: prompt.id,
          deviceId: by.deviceId,
        });
        const created = rules
          .filter((r) => r.match !== "legacy")
          .map((r, i) =>
            grantCreatedAudit(
              {
                id: ids[i] ?? "",
                userId,
                agentId: r.agentId,
                capability: r.capability,
                match: r.match,
                scopePattern: r.pattern,
                effect: r.effect,
                promptId: prompt.id,
                sessionId,
              },
              "session",
              by,
              now,
            ),
          );
        this.ctx.audit(created, now);
      }
      return { scope: "session", rules: rules.slice(0, MAX_RULES_SENT).map(ruleView) };
    }
    const { rows, outbox } = this.ctx.grants.add(rules, {
      createdAt: now,
      createdByDevice: by.deviceId,
      promptId: prompt.id,
    });
    this.ctx.outbox.add(outbox, now);
    this.ctx.audit(
      rows.map((g) => grantCreatedAudit(g, "agent", by, now)),
      now,
    );
    return { scope: "always", rules: rules.slice(0, MAX_RULES_SENT).map(ruleView) };
  }
}
