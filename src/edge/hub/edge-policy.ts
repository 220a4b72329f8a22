// The edge's policy step: the account policy judges the call (through the one tool-name table), combined
// with the companion's own verdict so the edge is never looser than what the companion concluded.

import { type CausalChangeNote, causalChangeNotes } from "../../policy/causal-change.ts";
import { type GrantRule, matchGrants } from "../../policy/grants.ts";
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  type EmergencyControls,
  type JudgedCall,
  judgeCall,
  verdictOf,
} from "../../policy/index.ts";
import { withReportedFacts } from "../../policy/judge-call.ts";
import { type Action, RISK_RANK, stricter } from "../../policy/types.ts";
import type { DecisionRequest } from "../../protocol/decisions.ts";

/** With no account policy, everything that reaches the edge is a question for the person. */
const DEFAULT_ACCOUNT_POLICY = "version: 1\ndefault_action: ask\nrules: []\n";

export function compileAccountPolicy(text: string | undefined) {
  return compilePolicy([{ layer: "account", path: "account policy", text: text ?? DEFAULT_ACCOUNT_POLICY }]);
}

export function judgeAtEdge(policy: CompiledPolicy, request: DecisionRequest): JudgedCall {
  const judged = judgeCall(
    policy,
    {
      tool: request.tool,
      input: request.input,
      cwd: request.cwd ?? "/",
      agent: request.agent.id,
      causal: (request.causal ?? []).map(({ dir, key, pin }) => ({ dir, key, pin })),
    },
    { hasUI: true },
  );
  const local = request.local;
  if (!local) return judged;
  // The companion looked at the disk, which the edge cannot: its facts raise the call whatever rule matched.
  const raised = withReportedFacts(judged, local.facts ?? [], true);
  const { record, units } = raised;
  // An account rule that matches decides (account policy wins over local layers); otherwise the edge is
  // never looser than the companion's local verdict.
  const accountRuled = record.layer === "account" && record.rule !== null;
  const action = accountRuled ? record.action : stricter(record.action, local.action);
  const risk = RISK_RANK[local.risk] > RISK_RANK[record.risk] ? local.risk : record.risk;
  return { record: { ...record, action, risk }, units, facts: raised.facts };
}

/**
 * What the account policy and the emergency controls alone would answer (no grants, nothing recorded):
 * the dashboard's policy explainer, through the same verdict order as a real call.
 */
export function edgeVerdict(
  policy: CompiledPolicy,
  request: DecisionRequest,
  emergency: EmergencyControls,
): { action: Action; record: DecisionRecord } {
  const judged = judgeAtEdge(policy, request);
  const verdict = verdictOf({
    record: judged.record,
    emergency,
    agent: request.agent,
    units: judged.units,
    grants: [],
    sessionGrants: [],
    mode: policy.mode,
  });
  const hidden = verdict.record.action === "hidden" && verdict.record.layer !== "emergency";
  return { action: hidden ? "hidden" : verdict.action, record: verdict.record };
}

/**
 * For an ask: each pinned command whose earlier content a saved allow grant covers, with what changed since
 * (docs/policy.md "Causal grants"). The card leads with these lines.
 */
export function causalChangesAtEdge(
  policy: CompiledPolicy,
  request: DecisionRequest,
  grants: readonly GrantRule[],
): CausalChangeNote[] {
  const pins = request.causal ?? [];
  if (!pins.some((p) => p.earlier !== undefined && p.earlier.length > 0)) return [];
  const agent = { agentId: request.agent.id, agentVersion: request.agent.version };
  return causalChangeNotes(pins, (causal) => {
    const units = judgeAtEdge(policy, { ...request, causal }).units;
    return matchGrants(grants, { ...agent, units })?.effect === "allow";
  });
}
