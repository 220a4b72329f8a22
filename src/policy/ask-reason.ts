// Why a call went to a person, in the four kinds a person can act on (docs/policy.md "Honest numbers"):
// the engine did not understand it, no rule covers it, it is high risk, or what it runs changed since a
// causal grant was saved. A rule that says `ask` is a fifth kind: the person's own choice.
import { CAUSAL_CHANGE_MARK } from "./causal-change.ts";
import type { DecisionRecord } from "./types.ts";

export const ASK_REASONS = ["not_understood", "no_rule", "high", "causal_change", "rule"] as const;
export type AskReason = (typeof ASK_REASONS)[number];

/** The one reason an ask is counted under: the first that applies, in the order above's priority. */
export function askReasonOf(
  record: Pick<DecisionRecord, "reasons" | "risk" | "rule" | "justification">,
): AskReason {
  const text = [record.justification, ...record.reasons];
  if (text.some((r) => r.startsWith(CAUSAL_CHANGE_MARK))) return "causal_change";
  if (text.some((r) => /\bnot understood\b/.test(r))) return "not_understood";
  if (record.risk === "high") return "high";
  return record.rule === null ? "no_rule" : "rule";
}
