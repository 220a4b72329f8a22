// Wire shapes of the policy's honest numbers and suggestions (GET /v1/policy/stats, GET /v1/policy/suggestions,
// POST /v1/policy/suggestions/accept), read by the dashboard and `airlock policy stats|suggest`.
import { z } from "zod";

export const AskReasonName = z.enum(["not_understood", "no_rule", "high", "causal_change", "rule"]);
export type AskReasonName = z.infer<typeof AskReasonName>;

/** Asks per 100 calls over the window, split by why each call went to a person. */
export const PolicyStats = z.object({
  days: z.number().int().positive(),
  since: z.string(),
  /** Every call judged: answered at the edge, and decided by a companion on its own. */
  calls: z.number().int().nonnegative(),
  asks: z.number().int().nonnegative(),
  asks_per_100: z.number().nonnegative(),
  by_reason: z.array(
    z.object({
      reason: AskReasonName,
      asks: z.number().int().nonnegative(),
      per_100: z.number().nonnegative(),
    }),
  ),
});
export type PolicyStats = z.infer<typeof PolicyStats>;

/** A rule that would have allowed a call the person approved again and again. */
export const PolicySuggestion = z.object({
  /** The scope hash of the call: what `accept` names. */
  id: z.string(),
  tool: z.string(),
  /** The call as the person approved it (redacted). */
  call: z.string(),
  cwd: z.string().nullable(),
  approvals: z.number().int().positive(),
  last_approved_at: z.string(),
  name: z.string(),
  condition: z.string(),
  /** The rule as YAML, as it is added to the account policy. */
  yaml: z.string(),
  /** The account policy before → after, as `-`/`+` lines with context. */
  diff: z.string(),
  /** In words: what else the rule allows, what it does not pin. */
  explain: z.array(z.string()),
});
export type PolicySuggestion = z.infer<typeof PolicySuggestion>;

export const PolicySuggestionList = z.object({
  /** How many approvals of the same call make a suggestion. */
  threshold: z.number().int().positive(),
  suggestions: z.array(PolicySuggestion),
});
export type PolicySuggestionList = z.infer<typeof PolicySuggestionList>;

export const AcceptSuggestion = z.strictObject({ id: z.string().min(1).max(100) });
export const SuggestionAccepted = z.object({ updated_at: z.string(), name: z.string() });
