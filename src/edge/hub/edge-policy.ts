// The edge's policy step: account policy and emergency controls, combined with the companion's own verdict.
import { type CompiledPolicy, compilePolicy, decide } from "../../policy/index.ts";
import { type Action, type DecisionRecord, type EmergencyControls, stricter } from "../../policy/types.ts";
import type { DecisionRequest } from "../../protocol/decisions.ts";

/** With no account policy, everything that reaches the edge is a question for the person. */
const DEFAULT_ACCOUNT_POLICY = "version: 1\ndefault_action: ask\nrules: []\n";

export function compileAccountPolicy(text: string | undefined) {
  return compilePolicy([{ layer: "account", path: "account policy", text: text ?? DEFAULT_ACCOUNT_POLICY }]);
}

export interface EdgeVerdict {
  action: Action;
  record: DecisionRecord;
  /** True when an emergency control decided (it beats every rule and grant). */
  emergency: boolean;
}

export function edgeVerdict(
  policy: CompiledPolicy,
  request: DecisionRequest,
  emergency: EmergencyControls,
): EdgeVerdict {
  const record = decide(
    policy,
    { tool: request.tool, input: request.input, cwd: request.cwd ?? "/", agent: request.agent.id },
    { hasUI: true, emergency },
  );
  if (record.layer === "emergency") return { action: record.action, record, emergency: true };
  // An account rule that matches decides (account policy wins over local layers); otherwise the edge
  // is never looser than what the companion already concluded locally.
  const accountRuled = record.layer === "account" && record.rule !== null;
  const action =
    request.local && !accountRuled ? stricter(record.action, request.local.action) : record.action;
  const risk =
    request.local && rank(request.local.risk) > rank(record.risk) ? request.local.risk : record.risk;
  return { action, record: { ...record, risk }, emergency: false };
}

function rank(risk: string): number {
  return risk === "high" ? 2 : risk === "medium" ? 1 : 0;
}
