// Grants: every grant the person saved, of every kind (agent calls, proposal cards, sessions), each with what
// it covers, who saved it, when, from which card and when it was last used; searchable; each revocable.
import { useEffect, useState } from "preact/hooks";
import { Deleted } from "../../../src/protocol/dashboard.ts";
import { GrantList } from "../../../src/protocol/grants.ts";
import type { Device } from "../../../src/protocol/pairing.ts";
import { api } from "../api.ts";
import { loadDevices } from "../devices-cache.ts";
import { ConfirmBox } from "./confirm-box.tsx";
import { ErrorNote } from "./error-note.tsx";
import { Show, useResource } from "./resource.tsx";
import { useRevoke } from "./use-revoke.ts";
import type { ViewProps } from "./view-props.ts";

type Kind = "agent" | "proposal" | "session";

/** One grant as the view shows it, whatever its kind. */
interface Item {
  id: string;
  kind: Kind;
  effect: "allow" | "deny";
  /** The scope as the card showed it (a command, a path, `POST host/path`). */
  scope: string;
  covers: string;
  /** Words to search besides the scope and what it covers. */
  words: string[];
  created_at: string;
  created_by: string | null;
  prompt_id: string | null;
  last_used_at: string | null;
}

function items(data: GrantList): Item[] {
  return [
    ...data.grants.map((g) => ({
      ...g,
      kind: "agent" as const,
      scope: g.scope_pattern ?? `any ${g.capability}`,
      words: [g.agent_id, g.capability],
    })),
    ...data.conveyor_grants.map((g) => ({
      ...g,
      kind: "proposal" as const,
      scope: `${g.tool} ${g.scope}`,
      words: [g.tool, g.risk_class ?? "", g.identity ?? "", "proposal"],
    })),
    ...data.session_grants.map((g) => ({
      ...g,
      kind: "session" as const,
      effect: "allow" as const,
      scope: g.scope_pattern ?? `any ${g.capability}`,
      words: [g.agent_id, g.capability, g.session_id],
    })),
  ];
}

export function grantMatches(item: Item, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [item.scope, item.covers, item.effect, ...item.words].some((v) => v.toLowerCase().includes(needle));
}

const LABEL: Record<Kind, Record<"allow" | "deny", string>> = {
  agent: { allow: "Always allow", deny: "Always deny" },
  proposal: { allow: "Always allow", deny: "Always deny" },
  session: { allow: "Allowed for session", deny: "Denied for session" },
};

const when = (iso: string) => new Date(iso).toLocaleString();

function GrantItem(props: {
  item: Item;
  devices: Device[];
  confirming: boolean;
  onAsk(): void;
  onCancel(): void;
  onRevoke(): void;
}) {
  const { item } = props;
  const by =
    props.devices.find((d) => d.id === item.created_by)?.name ??
    (item.created_by ? "a removed device" : "the API");
  const data =
    item.kind === "session"
      ? { "data-session-grant-id": item.id }
      : item.kind === "proposal"
        ? { "data-grant-id": item.id, "data-proposal-grant": "" }
        : { "data-grant-id": item.id };
  return (
    <li class={`grant effect-${item.effect}`} {...data}>
      <div class="device-line">
        <span class={`outcome ${item.effect === "allow" ? "allowed" : "denied"}`}>
          {LABEL[item.kind][item.effect]}
        </span>
        <button type="button" class="small-button" onClick={props.onAsk}>
          Revoke <span class="sr-only">{item.scope}</span>
        </button>
      </div>
      <div>
        <code class="command">{item.scope}</code>
      </div>
      <p class="small grant-covers">{item.covers}</p>
      <div class="muted small">
        Saved {when(item.created_at)} by {by}
        {item.prompt_id ? ` · card ${item.prompt_id}` : ""} · last used{" "}
        {item.last_used_at ? when(item.last_used_at) : "never"}
      </div>
      {props.confirming ? (
        <ConfirmBox
          legend="Confirm revoking this grant"
          act="Revoke grant"
          onAct={props.onRevoke}
          onCancel={props.onCancel}
        >
          Revoke this grant? The next matching call or proposal asks again.
        </ConfirmBox>
      ) : null}
    </li>
  );
}

/** Each kind's section: its title, what it says when empty, and when a search matches none of it. */
const SECTIONS: { kind: Kind; title: string; empty: string; none: string }[] = [
  {
    kind: "agent",
    title: "Saved",
    empty: 'No saved grants. "Allow always" and "Deny always" create them.',
    none: "No grant matches",
  },
  {
    kind: "proposal",
    title: "For proposals",
    empty:
      'No proposal grants. "Allow always" on a proposal card saves exactly its tool, endpoint, risk class and identity.',
    none: "No proposal grant matches",
  },
  { kind: "session", title: "For a session", empty: "No session grants.", none: "No session grant matches" },
];

export function GrantsView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/grants", GrantList);
  const [devices, setDevices] = useState<Device[]>([]);
  const [search, setSearch] = useState("");
  const { confirming, setConfirming, error, revoke } = useRevoke();
  useEffect(() => {
    loadDevices().then(setDevices, () => setDevices([]));
  }, []);

  const revokeGrant = (item: Item) =>
    revoke(() => api(`/v1/grants/${encodeURIComponent(item.id)}`, Deleted, { method: "DELETE" }), reload);

  return (
    <main class="view">
      <h1 class="section-title">Grants</h1>
      <p class="muted small">
        Saved answers: an allow or deny that applies without asking. Revoking one makes the next matching call
        ask again.
      </p>
      <label class="search">
        <span class="sr-only">Search grants</span>
        <input
          type="search"
          value={search}
          placeholder="Search agent, tool, pattern"
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </label>
      <Show resource={resource} reload={reload} feature="Grants">
        {(data) => {
          const all = items(data);
          return (
            <>
              {SECTIONS.map(({ kind, title, empty, none }) => {
                const ofKind = all.filter((i) => i.kind === kind);
                const shown = ofKind.filter((i) => grantMatches(i, search));
                return (
                  <section key={kind} aria-labelledby={`grants-${kind}`}>
                    <h2 id={`grants-${kind}`} class="section-title">
                      {title}
                    </h2>
                    {!ofKind.length ? (
                      <p class="muted empty">{empty}</p>
                    ) : !shown.length ? (
                      <p class="muted empty">
                        {none} “{search}”.
                      </p>
                    ) : (
                      <ul class="grants">
                        {shown.map((item) => (
                          <GrantItem
                            key={item.id}
                            item={item}
                            devices={devices}
                            confirming={confirming === item.id}
                            onAsk={() => setConfirming(item.id)}
                            onCancel={() => setConfirming(null)}
                            onRevoke={() => void revokeGrant(item)}
                          />
                        ))}
                      </ul>
                    )}
                  </section>
                );
              })}
            </>
          );
        }}
      </Show>
      <ErrorNote message={error} />
    </main>
  );
}
