// One subject (a tool call, or one simple command of a bash call) through the precedence
// tiers: account decides when it matches; otherwise the merged local list's first match,
// overridden by the project's own first match when that is stricter (a project block is never
// short-circuited by a global allow).
import type { CelContext } from "./cel.ts";
import { type Candidate, type CompiledPolicy, candidates, type RuleSet } from "./compiled.ts";
import type { FlatRule } from "./rule-tree.ts";
import { type Action, actionRank, type LayerName } from "./types.ts";

export interface Verdict {
  action: Action;
  layer: LayerName;
  rule: string | null;
  message?: string;
  reason: string;
  /** The matched rule's condition text, for the things a rule must name to allow them. */
  mentions?: string;
}

interface Match {
  rule: FlatRule;
  /** Set when the condition threw: the rule then only counts if it restricts. */
  error?: string;
}

function matches({ rule, conditions }: Candidate, ctx: CelContext): Match | null {
  try {
    for (const c of conditions) if (!c.evaluate(ctx)) return null;
    return { rule };
  } catch (error) {
    // An erroring condition may only make the answer stricter: it never grants.
    if (rule.action === "allow") return null;
    return {
      rule,
      error: error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error),
    };
  }
}

export function firstMatch(set: RuleSet, ctx: CelContext, firstWord: string): Match | null {
  for (const candidate of candidates(set, ctx.tool, firstWord)) {
    const m = matches(candidate, ctx);
    if (m) return m;
  }
  return null;
}

function fromMatch(m: Match): Verdict {
  const v: Verdict = {
    action: m.rule.action,
    layer: m.rule.layer,
    rule: m.rule.name,
    reason: m.error
      ? `rule "${m.rule.name}" (${m.rule.path}) applied because its condition failed: ${m.error}`
      : `rule "${m.rule.name}" (${m.rule.path}) matched`,
  };
  if (m.rule.message !== undefined) v.message = m.rule.message;
  if (!m.error) v.mentions = m.rule.mentions;
  return v;
}

export function evaluateSubject(policy: CompiledPolicy, ctx: CelContext, firstWord: string): Verdict {
  if (policy.account) {
    const m = firstMatch(policy.account, ctx, firstWord);
    if (m) return fromMatch(m);
  }
  const local = firstMatch(policy.local, ctx, firstWord);
  const verdict: Verdict = local
    ? fromMatch(local)
    : {
        action: policy.defaultAction,
        layer: "default",
        rule: null,
        reason: `no rule matched; ${policy.defaultFrom}`,
      };
  if (policy.project) {
    const own = firstMatch(policy.project, ctx, firstWord);
    const stricter =
      own && own.rule.action !== "allow" && actionRank(own.rule.action) > actionRank(verdict.action);
    // At equal strength a named project rule explains the answer better than a bare default.
    const clearer = own && verdict.rule === null && own.rule.action === verdict.action;
    if (own && (stricter || clearer)) {
      const v = fromMatch(own);
      v.reason = `${v.reason}; the project's own rule is stricter than ${verdict.rule ? `"${verdict.rule}"` : "the default"}`;
      return v;
    }
  }
  return verdict;
}

/** The stricter verdict; at equal strength the first, unless only the second names a rule. */
export function strictest(a: Verdict, b: Verdict): Verdict {
  const diff = actionRank(b.action) - actionRank(a.action);
  if (diff !== 0) return diff > 0 ? b : a;
  return a.rule === null && b.rule !== null ? b : a;
}
