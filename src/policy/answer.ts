// Verdict → answer: the decision, the words and the source a call that needs no person is answered with, on both
// sides (the companion's hook output and the edge's decision response), so an agent reads the same reason wherever
// its call was decided.
import type { DecisionRecord } from "./types.ts";
import { hiddenToolReason, type Verdict, type VerdictSource } from "./verdict.ts";

export interface Answer {
  decision: "allow" | "deny";
  reason: string;
  source: VerdictSource;
}

export interface AnswerOptions {
  /** The call was judged as an ungated session's (permissions off): a default that decided is that setting. */
  ungated?: boolean;
}

/** What decided, in words: the named rule and its layer, else the default that applied. */
export function ruleText(record: DecisionRecord, options: AnswerOptions = {}): string {
  if (record.rule) return `rule "${record.rule}" (${record.layer} layer)`;
  if (options.ungated && record.layer === "default") return "its session's setting (permissions are off)";
  return record.layer === "default" ? "the built-in default" : `the ${record.layer} layer's default`;
}

/** The answer to a verdict that needs no person. */
export function answerOf(verdict: Exclude<Verdict, { action: "ask" }>, options: AnswerOptions = {}): Answer {
  const { record, source } = verdict;
  if (source === "grant" || source === "session_grant") {
    const verb = verdict.action === "allow" ? "allowed" : "denied";
    const what =
      source === "session_grant"
        ? "an allow-for-session grant"
        : `a saved grant (${verdict.grant?.id ?? "?"})`;
    return { decision: verdict.action, reason: `Airlock ${verb} this call by ${what}`, source };
  }
  // A hidden tool looks absent (pi.hitl): no rule named, no "denied by policy" to argue with.
  if (record.action === "hidden") return { decision: "deny", reason: hiddenToolReason(record.tool), source };
  // An emergency control's reason says which control, and that it is one.
  if (source === "emergency")
    return {
      decision: "deny",
      reason: `Airlock denied this call: ${record.reasons[0] ?? "emergency control"}`,
      source,
    };
  if (verdict.action === "deny") {
    const why = record.message ?? record.reasons[0] ?? "denied";
    return {
      decision: "deny",
      reason: `Airlock denied this call by ${ruleText(record, options)}: ${why}`,
      source,
    };
  }
  return { decision: "allow", reason: `Airlock allowed this call by ${ruleText(record, options)}`, source };
}
