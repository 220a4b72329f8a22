// Suggestions from history: for a call the person approved again and again, the rule that would have allowed
// it (YAML), the account policy's diff, what else the rule would allow, and one tap to add it (audited by the
// edge). Mounted on the Approvals view; a card disappears once its rule is in the policy.
import { useEffect, useState } from "preact/hooks";
import type { PolicySuggestion } from "../../../src/protocol/policy-insights.ts";
import { api, errorMessage, isNotEnabled } from "../api.ts";

export function PolicySuggestions() {
  const [list, setList] = useState<PolicySuggestion[]>([]);
  const [added, setAdded] = useState<string | null>(null);
  const [error, setError] = useState("");
  const load = async () => {
    try {
      setList((await api("/v1/policy/suggestions", (v) => v.PolicySuggestionList)).suggestions);
    } catch (failure) {
      // An older edge without suggestions: show nothing rather than an error.
      if (!isNotEnabled(failure)) setError(errorMessage(failure));
    }
  };
  useEffect(() => {
    void load();
  }, []);
  const accept = async (s: PolicySuggestion) => {
    setError("");
    try {
      const saved = await api("/v1/policy/suggestions/accept", (v) => v.SuggestionAccepted, {
        method: "POST",
        body: { id: s.id },
      });
      setAdded(saved.name);
      await load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  if (list.length === 0 && added === null && error === "") return null;
  return (
    <section aria-labelledby="suggestions-heading" class="suggestions">
      <h2 id="suggestions-heading" class="section-title">
        Suggested rules
      </h2>
      {added ? (
        <p class="muted" role="status">
          Added “{added}” to the account policy.
        </p>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {list.map((s) => (
        <SuggestionCard key={s.id} suggestion={s} accept={() => accept(s)} />
      ))}
    </section>
  );
}

function SuggestionCard({ suggestion: s, accept }: { suggestion: PolicySuggestion; accept: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <article class="panel suggestion" data-suggestion-id={s.id} aria-label={`Suggested rule: ${s.name}`}>
      <p>
        You approved <code>{s.call}</code> {s.approvals} times
        {s.cwd ? (
          <>
            {" "}
            in <code>{s.cwd}</code>
          </>
        ) : null}
        . This rule would have allowed it:
      </p>
      <pre class="suggestion-yaml">{s.yaml}</pre>
      <details>
        <summary>Account policy diff</summary>
        <pre class="suggestion-diff">{s.diff}</pre>
      </details>
      <details>
        <summary>Explain: what else it allows</summary>
        <ul class="suggestion-explain">
          {s.explain.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
      <button
        type="button"
        class="primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          accept();
        }}
      >
        Add to account policy
      </button>
    </article>
  );
}
