// Honest numbers: how often the policy asks (asks per 100 calls over the last 7 days), split by why each call
// went to a person, so the person sees what bothers them. Mounted on the Policy view.
import { useEffect, useState } from "preact/hooks";
import { type AskReasonName, PolicyStats } from "../../../src/protocol/policy-insights.ts";
import { api, errorMessage, isNotEnabled } from "../api.ts";

const WORDS: Record<AskReasonName, string> = {
  not_understood: "Not understood",
  no_rule: "No rule",
  high: "HIGH risk",
  causal_change: "Causal change",
  rule: "A rule asks",
};

export function PolicyStatsPanel() {
  const [stats, setStats] = useState<PolicyStats | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api("/v1/policy/stats", PolicyStats)
      .then(setStats)
      .catch((failure) => {
        if (!isNotEnabled(failure)) setError(errorMessage(failure));
      });
  }, []);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (stats === null) return null;
  const most = Math.max(1, ...stats.by_reason.map((r) => r.per_100));
  return (
    <div class="panel policy-stats">
      <p class="stats-total">
        <strong>{stats.asks_per_100}</strong> asks per 100 calls over the last {stats.days} days
        <span class="muted">
          {" "}
          ({stats.asks} of {stats.calls} calls)
        </span>
      </p>
      <table class="stats-table">
        <tbody>
          {stats.by_reason.map((r) => (
            <tr key={r.reason} data-reason={r.reason}>
              <th scope="row">{WORDS[r.reason]}</th>
              <td class="stats-bar">
                <span style={{ width: `${(r.per_100 / most) * 100}%` }} />
              </td>
              <td class="stats-number">{r.per_100}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
