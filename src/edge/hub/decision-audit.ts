// The audit entries the approval engine writes: immediate answers, resolutions, refused confirmations.
import type { PromptDecision, Resolution } from "../../protocol/capability.ts";
import type { DecisionResponse } from "../../protocol/decisions.ts";
import type { AuditEntry } from "../audit/audit-log.ts";
import type { Decider } from "./approvals.ts";
import type { ConfirmationCheck } from "./confirmations.ts";
import { type CallRow, type PromptRow, parseAgent } from "./prompt-store.ts";

/** A call answered without a person (policy, grant, session grant, emergency). */
export function immediateAudit(
  userId: string,
  call: CallRow,
  answer: Pick<DecisionResponse, "decision" | "reason" | "source">,
  now: number,
): AuditEntry {
  return {
    userId,
    deviceId: call.device_id,
    actor: answer.source,
    event: "policy.decision",
    target: call.call_id,
    agentId: call.agent_id,
    decision: answer.decision,
    details: {
      call_ids: [call.call_id],
      agent_id: call.agent_id,
      capability: call.capability,
      decision: answer.decision,
      source: answer.source,
      rule: call.rule,
      policy_mode: "prompt",
      risk: call.risk,
      scope_hashes: [call.scope_hash],
    },
    at: now,
  };
}

/** A prompt resolved by a person or by its deadline: the capability-prompt spec's policy.decision event. */
export function resolutionAudit(
  userId: string,
  prompt: PromptRow,
  calls: CallRow[],
  resolution: Resolution,
  by: Decider,
  now: number,
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
      policy_mode: "prompt",
      risk: prompt.risk,
      scope_hashes: [...new Set(calls.map((c) => c.scope_hash))],
      decided_by: by.actor,
      device_id: by.deviceId,
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
