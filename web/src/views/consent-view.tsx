// The OAuth consent page of remote MCP (/oauth/authorize): which app asks, where its access goes, what it may
// do; the person approves (with the scopes left ticked) or denies, and the browser goes back to the app.
// Everything shown came from the app's own registration: rendered as text, never as markup.
import { useEffect, useState } from "preact/hooks";
import { ConsentRedirect, ConsentView as ConsentShape, type McpScope } from "../../../src/protocol/mcp.ts";
import { api, errorMessage } from "../api.ts";
import "../consent.css";
import { ErrorNote } from "./error-note.tsx";

type State =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; view: ConsentShape }
  | { status: "leaving"; approved: boolean };

export function ConsentView({ search }: { search: string }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    api(`/v1/mcp/consent${search}`, ConsentShape).then(
      (view) => {
        setTicked(new Set(view.scopes.filter((s) => s.requested).map((s) => s.name)));
        setState({ status: "ready", view });
      },
      (error: unknown) => setState({ status: "failed", message: errorMessage(error) }),
    );
  }, [search]);

  if (state.status === "loading") return <p class="muted view">Reading the request…</p>;
  if (state.status === "failed") {
    return (
      <main class="view consent">
        <h1 class="section-title">This request can't be used</h1>
        <p class="card-status error" role="alert">
          {state.message}
        </p>
        <p class="muted">Start the connection again from the app.</p>
      </main>
    );
  }
  if (state.status === "leaving") {
    return (
      <main class="view consent">
        <p class="muted" role="status">
          {state.approved ? "Access given. Returning to the app…" : "Denied. Returning to the app…"}
        </p>
      </main>
    );
  }

  const { view } = state;
  const answer = async (decision: "approve" | "deny") => {
    setBusy(true);
    setProblem("");
    try {
      const scopes = [...ticked] as McpScope[];
      const { redirect_to } = await api("/v1/mcp/consent", ConsentRedirect, {
        method: "POST",
        body: { handle: view.handle, decision, scopes },
      });
      setState({ status: "leaving", approved: decision === "approve" });
      location.assign(redirect_to);
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };
  const toggle = (name: string) => {
    const next = new Set(ticked);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setTicked(next);
  };

  return (
    <main class="view consent">
      <h1 class="section-title">Connect an app</h1>
      <article class="card risk-medium" aria-labelledby="consent-client">
        <p class="consent-lead">
          <strong id="consent-client" class="consent-client">
            {view.client.name}
          </strong>{" "}
          wants to use Airlock's tools as you.
        </p>
        <p class="muted consent-origin">
          {view.client.domain
            ? `Published by ${view.client.domain}.`
            : "This app registered itself: its name is not verified."}
        </p>
        <dl class="consent-facts">
          <dt>Access goes to</dt>
          <dd>
            <code class="consent-redirect">{view.redirect_uri}</code>
          </dd>
        </dl>
        {view.redirect_is_loopback ? (
          <p class="banner" role="note">
            This sends access to an app on your computer ({view.redirect_host}). Continue only if you just
            started connecting from it.
          </p>
        ) : null}
        <fieldset class="consent-scopes">
          <legend>It may</legend>
          {view.scopes.map((scope) => (
            <label key={scope.name} class="consent-scope">
              <input
                type="checkbox"
                name="scope"
                value={scope.name}
                checked={ticked.has(scope.name)}
                onChange={() => toggle(scope.name)}
              />
              <span>
                <code>{scope.name}</code> {scope.description}
              </span>
            </label>
          ))}
        </fieldset>
        <p class="muted">
          Every call still goes through your policy, and you can revoke this app at any time from the API or
          this phone.
        </p>
      </article>
      <div class="consent-actions">
        <button type="button" class="decision deny" disabled={busy} onClick={() => answer("deny")}>
          Deny
        </button>
        <button
          type="button"
          class="decision allow primary"
          disabled={busy || ticked.size === 0}
          onClick={() => answer("approve")}
        >
          Allow
        </button>
      </div>
      <ErrorNote message={problem} />
    </main>
  );
}
