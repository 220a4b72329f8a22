// The policy's honest numbers and its suggestions, from the hub's own record of the last 7 days of calls
// (CALL_RETENTION_MS): asks per 100 calls by reason, and — for a call the person approved again and again —
// the account-policy rule that would have allowed it, checked through the real judge before it is offered.
import { ASK_REASONS, type AskReason } from "../../policy/ask-reason.ts";
import { CALL_RETENTION_MS } from "../../policy/index.ts";
import { REDACTED } from "../../policy/redact.ts";
import { lineDiff, policyWithRule, suggestRule } from "../../policy/suggest-rule.ts";
import { canonicalToolName } from "../../policy/tool-names.ts";
import type { PolicyStats, PolicySuggestion } from "../../protocol/policy-insights.ts";
import { compileAccountPolicy, judgeAtEdge } from "./edge-policy.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Approvals of the same call that make a suggestion (issue 21: default 3). */
export const SUGGEST_AFTER = 3;
const MAX_SUGGESTIONS = 20;

/** Approved answers: the person let the call run (`allow_always` already saved a grant, so it never repeats). */
const APPROVED = ["allow_once", "allow_session"];

export function policyStats(sql: SqlStorage, now: number, localCalls: number, days = 7): PolicyStats {
  const since = now - Math.min(days * DAY_MS, CALL_RETENTION_MS);
  const total =
    sql.exec<{ n: number }>(`SELECT count(*) AS n FROM calls WHERE created_at >= ?`, since).toArray()[0]?.n ??
    0;
  const counts = new Map<AskReason, number>();
  const rows = sql
    .exec<{ reason: string | null; n: number }>(
      `SELECT ask_reason AS reason, count(*) AS n FROM calls
       WHERE created_at >= ? AND prompt_id IS NOT NULL GROUP BY ask_reason`,
      since,
    )
    .toArray();
  for (const { reason, n } of rows) {
    // A call asked before reasons were recorded counts under its rule (the reason is not known).
    const known = (ASK_REASONS as readonly string[]).includes(reason ?? "") ? (reason as AskReason) : "rule";
    counts.set(known, (counts.get(known) ?? 0) + n);
  }
  const calls = total + localCalls;
  const asks = [...counts.values()].reduce((a, b) => a + b, 0);
  const per100 = (n: number) => (calls === 0 ? 0 : Math.round((n * 1000) / calls) / 10);
  return {
    days,
    since: new Date(since).toISOString(),
    calls,
    asks,
    asks_per_100: per100(asks),
    by_reason: ASK_REASONS.map((reason) => ({
      reason,
      asks: counts.get(reason) ?? 0,
      per_100: per100(counts.get(reason) ?? 0),
    })),
  };
}

type Repeated = {
  scope_hash: string;
  tool: string;
  shown_text: string | null;
  shown_chars: number | null;
  scope_summary: string;
  cwd: string | null;
  n: number;
  last: number;
};

/** The subject a rule can name: the exact command or path, never a clipped or redacted one. */
function subjectOf(row: Repeated): string | null {
  if (row.tool === "bash") {
    const text = row.shown_text;
    if (text === null || row.shown_chars !== text.length || text.includes(REDACTED)) return null;
    return text;
  }
  return row.scope_summary.startsWith("/") ? row.scope_summary : null;
}

/**
 * Calls approved at least `threshold` times in the window, understood and not high risk, each with the rule
 * that allows it, its YAML, the account policy's diff and what else it allows. A suggestion whose rule would
 * not in fact allow the call under the account policy (a deny before it) is never offered.
 */
export function policySuggestions(
  sql: SqlStorage,
  accountPolicy: string,
  now: number,
  threshold = SUGGEST_AFTER,
): PolicySuggestion[] {
  const since = now - CALL_RETENTION_MS;
  const rows = sql
    .exec<Repeated>(
      `SELECT scope_hash, tool, shown_text, shown_chars, scope_summary, cwd,
              count(*) AS n, max(decided_at) AS last
       FROM calls
       WHERE created_at >= ? AND prompt_id IS NOT NULL AND status = 'decided'
         AND resolution IN (${APPROVED.map(() => "?").join(", ")})
         AND coalesce(ask_reason, '') NOT IN ('not_understood', 'high', 'causal_change')
         AND risk != 'high'
       GROUP BY scope_hash, tool, cwd HAVING count(*) >= ?
       ORDER BY n DESC, last DESC LIMIT ?`,
      since,
      ...APPROVED,
      threshold,
      MAX_SUGGESTIONS * 2,
    )
    .toArray();
  const out: PolicySuggestion[] = [];
  for (const stored of rows) {
    // Claude Code's `Bash` is the shell: a rule names the canonical tool.
    const row = { ...stored, tool: canonicalToolName(stored.tool) };
    const subject = subjectOf(row);
    if (subject === null) continue;
    // Already allowed by the account policy (a suggestion accepted, or a rule written since): nothing to offer.
    if (allowsUnder(accountPolicy, row.tool, subject, row.cwd)) continue;
    const rule = suggestRule({ tool: row.tool, subject, cwd: row.cwd });
    if (rule === null) continue;
    const after = policyWithRule(accountPolicy, rule);
    if (after === null || !allowsUnder(after, row.tool, subject, row.cwd)) continue;
    out.push({
      id: row.scope_hash,
      tool: row.tool,
      call: subject,
      cwd: row.cwd,
      approvals: row.n,
      last_approved_at: new Date(row.last).toISOString(),
      name: rule.name,
      condition: rule.condition,
      yaml: rule.yaml,
      diff: lineDiff(accountPolicy, after),
      explain: rule.explain,
    });
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}

/** Whether the account policy `text` allows the call (judged as the edge judges a call). */
function allowsUnder(text: string, tool: string, subject: string, cwd: string | null): boolean {
  const compiled = compileAccountPolicy(text.trim() === "" ? undefined : text);
  if (!compiled.ok) return false;
  const input = tool === "bash" ? { command: subject } : { path: subject };
  const judged = judgeAtEdge(compiled.policy, {
    call_id: "suggestion",
    session_id: "suggestion",
    agent: { id: "any", name: "any" },
    tool,
    input,
    cwd: cwd ?? "/",
  });
  return judged.record.action === "allow";
}
