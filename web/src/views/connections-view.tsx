// Connections: the accounts the assistant may act through (Google, GitHub), each shown as "as you" or "as the
// assistant" with the scopes the provider granted and when it was last used; connect (asking only for the ticked
// capabilities) and revoke (with a confirm). The tokens never reach this page: the edge keeps them.
import { useState } from "preact/hooks";
import {
  ConnectionList,
  ConnectionRevoked,
  ConnectionStarted,
  type ConnectionView,
  type ConnectorIdentity,
  type ConnectorProvider,
} from "../../../src/protocol/connections.ts";
import { api, errorMessage } from "../api.ts";
import { ConfirmBox } from "./confirm-box.tsx";
import { ErrorNote } from "./error-note.tsx";
import { Show, useResource, ViewTitle } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

const PROVIDER_NAME: Record<ConnectorProvider, string> = { google: "Google", github: "GitHub" };

const CAPABILITIES: Record<ConnectorProvider, { id: string; label: string }[]> = {
  google: [
    { id: "mail.read", label: "Read mail" },
    { id: "mail.compose", label: "Draft and send mail" },
    { id: "calendar.read", label: "See the calendar" },
    { id: "calendar.write", label: "Create and change events" },
  ],
  github: [
    { id: "repo.public", label: "Public repositories" },
    { id: "repo.private", label: "Private repositories too" },
  ],
};

/** What a provider's scope lets the assistant do, in words; unknown scopes show as they are named. */
const SCOPE_WORDS: Record<string, string> = {
  openid: "Know who you are",
  email: "See the account's email address",
  "https://www.googleapis.com/auth/gmail.readonly": "Read mail",
  "https://www.googleapis.com/auth/gmail.compose": "Draft and send mail",
  "https://www.googleapis.com/auth/calendar.readonly": "See the calendar",
  "https://www.googleapis.com/auth/calendar.events": "Create and change events",
  public_repo: "Act on public repositories",
  repo: "Act on all repositories, private too",
};

export const IDENTITY_WORDS: Record<ConnectorIdentity, string> = { user: "as you", bot: "as the assistant" };

function ConnectPanel({ provider, enabled }: { provider: ConnectorProvider; enabled: boolean }) {
  const [identity, setIdentity] = useState<ConnectorIdentity>("user");
  const [chosen, setChosen] = useState<string[]>([CAPABILITIES[provider][0]?.id ?? ""]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const name = PROVIDER_NAME[provider];
  const toggle = (id: string) =>
    setChosen((list) => (list.includes(id) ? list.filter((c) => c !== id) : [...list, id]));
  const go = async () => {
    setBusy(true);
    setError("");
    try {
      const started = await api("/v1/connections/start", ConnectionStarted, {
        method: "POST",
        body: { provider, identity, capabilities: chosen },
      });
      location.assign(started.authorization_url);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <section class="panel" aria-labelledby={`connect-${provider}`} data-provider={provider}>
      <h2 id={`connect-${provider}`} class="panel-title">
        {name}
      </h2>
      {enabled ? null : (
        <p class="muted small">
          Not set up on this server (its OAuth client is missing; see docs/connectors.md).
        </p>
      )}
      <fieldset class="choice">
        <legend class="small">Act</legend>
        {(["user", "bot"] as const).map((who) => (
          <label key={who}>
            <input
              type="radio"
              name={`identity-${provider}`}
              value={who}
              checked={identity === who}
              onChange={() => setIdentity(who)}
            />
            <span>
              {who === "user"
                ? `As you (your ${name} account)`
                : `As the assistant (its own ${name} account)`}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset class="choice">
        <legend class="small">Allow only</legend>
        {CAPABILITIES[provider].map((capability) => (
          <label key={capability.id}>
            <input
              type="checkbox"
              name={`capability-${provider}`}
              value={capability.id}
              checked={chosen.includes(capability.id)}
              onChange={() => toggle(capability.id)}
            />
            <span>{capability.label}</span>
          </label>
        ))}
      </fieldset>
      <button
        type="button"
        class="decision allow"
        disabled={!enabled || busy || chosen.length === 0}
        onClick={() => void go()}
      >
        {busy ? "Opening…" : `Connect ${name}`}
      </button>
      <ErrorNote message={error} />
    </section>
  );
}

function ConnectionRow({ connection, onRevoked }: { connection: ConnectionView; onRevoked(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState("");
  const name = PROVIDER_NAME[connection.provider];
  const revoke = async () => {
    setError("");
    try {
      await api(`/v1/connections/${encodeURIComponent(connection.id)}/revoke`, ConnectionRevoked, {
        method: "POST",
      });
      onRevoked();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <li data-connection-id={connection.id} class={connection.status === "broken" ? "revoked" : ""}>
      <p class={`identity identity-${connection.identity}`}>{IDENTITY_WORDS[connection.identity]}</p>
      <div class="device-line">
        <span>
          <strong>{name}</strong> <span class="account">{connection.account}</span>
          {connection.status === "broken" ? <span class="tag">needs connecting again</span> : null}
        </span>
        <button type="button" class="small-button" onClick={() => setConfirming(true)}>
          Revoke <span class="sr-only">{`${name} ${IDENTITY_WORDS[connection.identity]}`}</span>
        </button>
      </div>
      <ul class="scopes small">
        {connection.scopes.map((scope) => (
          <li key={scope} title={scope}>
            {SCOPE_WORDS[scope] ?? scope}
          </li>
        ))}
      </ul>
      <div class="muted small">
        Last used {connection.last_used_at ? new Date(connection.last_used_at).toLocaleString() : "never"} ·
        connected {new Date(connection.created_at).toLocaleDateString()}
      </div>
      {confirming ? (
        <ConfirmBox
          legend={`Confirm revoking ${name}`}
          act="Revoke"
          onAct={() => void revoke()}
          onCancel={() => setConfirming(false)}
        >
          Revoke {name} {IDENTITY_WORDS[connection.identity]} ({connection.account})? The assistant can no
          longer act through it; {name} is told to forget the grant.
        </ConfirmBox>
      ) : null}
      <ErrorNote message={error} />
    </li>
  );
}

/** What the callback said when it sent the browser back here (?connected=… or ?error=…&message=…). */
function Outcome() {
  const params = new URLSearchParams(location.search);
  if (params.get("connected")) {
    return (
      <p class="card-status" role="status">
        Connected.
      </p>
    );
  }
  const message = params.get("message");
  return message ? (
    <p class="card-status error" role="alert">
      Not connected: {message}
    </p>
  ) : null;
}

export function ConnectionsView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/connections", ConnectionList);
  return (
    <main class="view">
      <ViewTitle id="connections-heading">Connections</ViewTitle>
      <Outcome />
      <Show resource={resource} reload={reload} feature="Connections">
        {(data) => (
          <>
            {data.connections.length ? (
              <ul class="devices panel connections" aria-label="Connected accounts">
                {data.connections.map((connection) => (
                  <ConnectionRow key={connection.id} connection={connection} onRevoked={reload} />
                ))}
              </ul>
            ) : (
              <p class="muted">Nothing connected: the assistant cannot act on mail, calendar or GitHub.</p>
            )}
            {(["google", "github"] as const).map((provider) => (
              <ConnectPanel key={provider} provider={provider} enabled={data.configured.includes(provider)} />
            ))}
          </>
        )}
      </Show>
    </main>
  );
}
