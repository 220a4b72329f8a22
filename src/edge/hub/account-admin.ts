// Changes a person makes to the account in the hub: emergency controls, the account policy, deleting a
// grant. Each change and its audit entry commit in one transaction; D1 gets them through the outbox, sent
// at once ahead of any companion backlog (flushOwn).
import { emergencyAuditEvents } from "../../policy/index.ts";
import { policyWithRule } from "../../policy/suggest-rule.ts";
import type { EmergencyControls } from "../../protocol/capability.ts";
import type { GrantRuleView } from "../../protocol/grants.ts";
import type { AuditEntry } from "../audit/audit-log.ts";
import { compileAccountPolicy } from "./edge-policy.ts";
import { isConveyorGrant } from "./grant-store.ts";
import type { HubContext } from "./hub-context.ts";
import { policySuggestions } from "./policy-insights.ts";
import { failure, type HubResult } from "./result.ts";

/** Who made a change: the user, their device, and the audit actor (`device:<id>` or `api`). */
export interface Actor {
  userId: string;
  deviceId: string | null;
  actor: string;
}

function entry(by: Actor, event: string, now: number): AuditEntry {
  return { userId: by.userId, deviceId: by.deviceId, actor: by.actor, event, at: now };
}

export class AccountAdmin {
  private readonly ctx: HubContext;

  constructor(ctx: HubContext) {
    this.ctx = ctx;
  }

  async deleteGrant(id: string, by: Actor): Promise<HubResult<{ deleted: true }>> {
    const { ctx } = this;
    await ctx.grants.load();
    const mark = ctx.outbox.mark();
    const now = Date.now();
    const removed = ctx.ports.transaction(() => {
      const result = ctx.grants.remove(id);
      if (!result) return undefined;
      ctx.outbox.add(result.outbox, now);
      const g = result.removed;
      const details = {
        kind: isConveyorGrant(g) ? "proposal" : "agent",
        capability: g.capability,
        match: g.match,
        scope_pattern: g.scopePattern,
        effect: g.effect,
        ...(g.riskClass ? { risk_class: g.riskClass, identity: g.identity } : {}),
        prompt_id: g.promptId,
      };
      ctx.audit([{ ...entry(by, "grant.deleted", now), target: id, agentId: g.agentId, details }], now);
      return g;
    });
    if (!removed) return failure(404, "not_found", `No grant ${id} on this account.`);
    ctx.ports.toCompanions?.({ type: "grants_revoked", data: { ids: [id], session: [] } });
    await ctx.flushOwn(mark);
    return { ok: true, value: { deleted: true } };
  }

  /** Revokes one session grant: the next matching call asks again. */
  async deleteSessionGrant(id: string, by: Actor): Promise<HubResult<{ deleted: true }>> {
    const { ctx } = this;
    const mark = ctx.outbox.mark();
    const now = Date.now();
    const removed = ctx.ports.transaction(() => {
      const row = ctx.sessions.remove(id);
      if (!row) return undefined;
      const details = {
        kind: "session",
        capability: row.capability,
        scope_pattern: row.scope_pattern,
        session_id: row.session_id,
      };
      ctx.audit(
        [{ ...entry(by, "grant.session_revoked", now), target: id, agentId: row.agent_id, details }],
        now,
      );
      return row;
    });
    if (!removed) return failure(404, "not_found", `No session grant ${id} on this account.`);
    const rule = {
      capability: removed.capability as GrantRuleView["capability"],
      match: removed.match,
      pattern: removed.scope_pattern,
      scope_hash: removed.scope_hash,
      version_range: null,
      effect: removed.effect,
    };
    const session = [{ session_id: removed.session_id, agent_id: removed.agent_id, rule }];
    ctx.ports.toCompanions?.({ type: "grants_revoked", data: { ids: [id], session } });
    await ctx.flushOwn(mark);
    return { ok: true, value: { deleted: true } };
  }

  async setEmergency(patch: Partial<EmergencyControls>, by: Actor): Promise<EmergencyControls> {
    const { ctx } = this;
    const mark = ctx.outbox.mark();
    const before = ctx.settings.emergency();
    const after: EmergencyControls = { ...before, ...patch };
    after.blockedTools = [...new Set(after.blockedTools)].sort();
    const now = Date.now();
    ctx.ports.transaction(() => {
      ctx.settings.setEmergency(after);
      ctx.audit(
        emergencyAuditEvents(before, after, by.actor, new Date(now)).map((event) => ({
          ...entry(by, "emergency.changed", now),
          target: event.control,
          details: { ...event },
        })),
        now,
      );
    });
    await ctx.flushOwn(mark);
    return after;
  }

  /**
   * Adds a suggested rule to the account policy (one tap on the phone): the policy as the suggestion showed
   * it, saved and audited with the rule and the approvals it came from. 404 when it is no longer offered.
   */
  async acceptSuggestion(id: string, by: Actor): Promise<HubResult<{ updatedAt: number; name: string }>> {
    const { ctx } = this;
    const now = Date.now();
    const current = ctx.settings.accountPolicy()?.text ?? "";
    const suggestion = policySuggestions(ctx.ports.sql, current, now).find((s) => s.id === id);
    if (!suggestion)
      return failure(404, "not_found", "No such suggestion (it may already be in the policy).");
    const rule = {
      name: suggestion.name,
      condition: suggestion.condition,
      yaml: suggestion.yaml,
      explain: [],
    };
    const text = policyWithRule(current, rule);
    if (text === null)
      return failure(409, "conflict", "The account policy cannot take a rule (it does not parse).");
    const compiled = compileAccountPolicy(text);
    if (!compiled.ok)
      return failure(409, "conflict", "The account policy would not load with this rule.", compiled.errors);
    const mark = ctx.outbox.mark();
    ctx.ports.transaction(() => {
      ctx.settings.setAccountPolicy(text, now);
      const details = {
        rule: suggestion.name,
        condition: suggestion.condition,
        approvals: suggestion.approvals,
        call: suggestion.call,
      };
      ctx.audit([{ ...entry(by, "policy.suggestion_accepted", now), target: id, details }], now);
    });
    await ctx.flushOwn(mark);
    return { ok: true, value: { updatedAt: now, name: suggestion.name } };
  }

  async setAccountPolicy(text: string, by: Actor): Promise<HubResult<{ updatedAt: number }>> {
    const compiled = compileAccountPolicy(text);
    if (!compiled.ok)
      return failure(400, "validation_failed", "The account policy does not load.", compiled.errors);
    const { ctx } = this;
    const mark = ctx.outbox.mark();
    const now = Date.now();
    ctx.ports.transaction(() => {
      ctx.settings.setAccountPolicy(text, now);
      ctx.audit([entry(by, "policy.account_updated", now)], now);
    });
    await ctx.flushOwn(mark);
    return { ok: true, value: { updatedAt: now } };
  }
}
