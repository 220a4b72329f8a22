// The audit entries the hub writes: immediate answers, resolutions, abandoned calls, call_id conflicts,
// refused confirmations. Each goes through the outbox in the transaction of the change it records.
import { PERMISSIVE_RULE, type PolicyMode } from "../../policy/index.ts";
import type { PromptDecision, Resolution } from "../../protocol/capability.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import type { AuditEntry } from "../audit/audit-log.ts";
import type { CallRow } from "./call-store.ts";
import type { ConfirmationCheck } from "./confirmations.ts";
import type { Decider } from "./hub-context.ts";
import { type PromptRow, parseAgent } from "./prompt-store.ts";

/** A call answered without a person (policy, grant, session grant, emergency). */
export function immediateAudit(
  userId: string,
  call: CallRow,
  answer: Pick<DecisionResponse, "decision" | "reason" | "source">,
  now: number,
  mode: PolicyMode,
): AuditEntry {
  // Seed 004: a permissive mode's unprompted allow is logged as its own decision.
  const decision =
    answer.decision === "allow" && call.rule === PERMISSIVE_RULE ? "allow_permissive" : answer.decision;
  return {
    userId,
    deviceId: call.device_id,
    actor: answer.source,
    event: "policy.decision",
    target: call.call_id,
    agentId: call.agent_id,
    decision,
    details: {
      call_ids: [call.call_id],
      agent_id: call.agent_id,
      capability: call.capability,
      decision,
      source: answer.source,
      rule: call.rule,
      policy_mode: mode,
      risk: call.risk,
      scope_hashes: [call.scope_hash],
    },
    at: now,
  };
}

/**
 * A prompt resolved by a person or by its deadline: the capability-prompt spec's policy.decision event.
 * `calls` are the calls this resolution answered (never one that was already answered otherwise).
 */
export function resolutionAudit(
  userId: string,
  prompt: PromptRow,
  calls: CallRow[],
  resolution: Resolution,
  by: Decider,
  now: number,
  mode: PolicyMode,
  grantPatterns: string[] = [],
): AuditEntry {
  const agent = parseAgent(prompt.agent);
  return {
    userId,
    deviceId: by.deviceId,
    actor: by.actor,
    event: "policy.decision",
    target: prompt.id,
    agentId: agent.id,
    decision: resolution,
    details: {
      prompt_id: prompt.id,
      call_ids: calls.map((c) => c.call_id),
      agent_id: agent.id,
      agent_version: agent.version ?? null,
      capability: prompt.capability,
      decision: resolution,
      policy_mode: mode,
      risk: prompt.risk,
      scope_hashes: [...new Set(calls.map((c) => c.scope_hash))],
      decided_by: by.actor,
      device_id: by.deviceId,
      ...(grantPatterns.length ? { grant_patterns: grantPatterns } : {}),
    },
    at: now,
  };
}

/**
 * Calls denied because whoever asked stopped waiting (withdrew, or vanished past its hold): one entry per
 * prompt (a call without a prompt is its own), each with the fields of the spec's policy.decision event,
 * so no row carries calls of another prompt under its id.
 */
export function abandonedAudits(
  userId: string,
  calls: readonly CallRow[],
  why: string,
  now: number,
  mode: PolicyMode,
): AuditEntry[] {
  const groups = new Map<string, CallRow[]>();
  for (const call of calls) {
    const key = call.prompt_id ?? `call:${call.call_id}`;
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as CallRow;
    return {
      userId,
      deviceId: first.device_id,
      actor: "abandoned",
      event: "policy.decision",
      target: first.prompt_id ?? first.call_id,
      agentId: first.agent_id,
      decision: "deny",
      details: {
        prompt_id: first.prompt_id,
        call_ids: group.map((c) => c.call_id),
        agent_id: first.agent_id,
        capability: first.capability,
        decision: "deny",
        source: "abandoned",
        reason: why,
        policy_mode: mode,
        risk: first.risk,
        scope_hashes: [...new Set(group.map((c) => c.scope_hash))],
      },
      at: now,
    };
  });
}

/** A known call_id sent again with other content: refused, never answered from the first call. */
export function conflictAudit(
  userId: string,
  callId: string,
  replay: DecisionRequest,
  deviceId: string | null,
  now: number,
): AuditEntry {
  return {
    userId,
    deviceId,
    actor: deviceId ? `device:${deviceId}` : "api",
    event: "decision.call_conflict",
    target: callId,
    agentId: replay.agent.id,
    decision: "refused",
    details: {
      call_id: callId,
      replay: { device_id: deviceId, session_id: replay.session_id, tool: replay.tool.slice(0, 200) },
    },
    at: now,
  };
}

export function confirmationRefused(
  userId: string,
  prompt: PromptRow,
  decision: PromptDecision,
  reason: ConfirmationCheck,
  by: Decider,
  now: number,
): AuditEntry {
  return {
    userId,
    deviceId: by.deviceId,
    actor: by.actor,
    event: "approval.confirmation_refused",
    target: prompt.id,
    agentId: parseAgent(prompt.agent).id,
    decision,
    details: { reason, risk: prompt.risk, capability: prompt.capability },
    at: now,
  };
}
