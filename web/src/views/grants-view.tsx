// Grants: every saved allow and deny (from "Allow always" / "Deny always"), searchable, each revocable.
import { useState } from "preact/hooks";
import { z } from "zod";
import { SessionGrantList } from "../../../src/protocol/dashboard.ts";
import { api, errorMessage } from "../api.ts";
import type { ViewProps } from "../app.tsx";
import { Show, useResource } from "./resource.tsx";

/** A saved grant as GET /v1/grants lists it (newer servers add `match`: exact, prefix or legacy). */
export const Grant = z.object({
  id: z.string(),
  agent_id: z.string(),
  capability: z.string(),
  match: z.string().optional(),
  scope_pattern: z.string().nullable(),
  version_range: z.string().nullable().optional(),
  effect: z.enum(["allow", "deny"]),
  created_at: z.string().optional(),
  created_by: z.string().nullable().optional(),
  prompt_id: z.string().nullable().optional(),
});
export type Grant = z.infer<typeof Grant>;
const GrantList = z.object({ grants: z.array(Grant) });
const Deleted = z.object({ deleted: z.boolean() });

export function grantMatches(grant: Grant, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [grant.agent_id, grant.capability, grant.scope_pattern ?? "", grant.effect].some((v) =>
    v.toLowerCase().includes(needle),
  );
}

type SessionGrant = z.infer<typeof SessionGrantList>["grants"][number];

/** Grants from "Allow for session": each ends with its agent session, or after a day unused. */
function SessionGrants({ search, onError }: { search: string; onError(message: string): void }) {
  const [resource, reload] = useResource("/v1/grants/session", SessionGrantList);
  if (resource.state !== "ready") return null;
  const needle = search.trim().toLowerCase();
  const shown = resource.data.grants.filter(
    (g) =>
      !needle ||
      [g.agent_id, g.capability, g.scope_pattern ?? "", g.session_id].some((v) =>
        v.toLowerCase().includes(needle),
      ),
  );
  const revoke = async (grant: SessionGrant) => {
    try {
      await api(`/v1/grants/session/${encodeURIComponent(grant.id)}`, Deleted, { method: "DELETE" });
      reload();
    } catch (failure) {
      onError(errorMessage(failure));
    }
  };
  return (
    <section aria-labelledby="session-grants-heading">
      <h2 id="session-grants-heading" class="section-title">
        For a session
      </h2>
      {shown.length ? (
        <ul class="grants">
          {shown.map((grant) => (
            <li key={grant.id} class="grant effect-allow" data-session-grant-id={grant.id}>
              <div class="device-line">
                <span class="outcome allowed">Allowed for session</span>
                <button type="button" class="small-button" onClick={() => void revoke(grant)}>
                  Revoke <span class="sr-only">{grant.scope_pattern ?? grant.capability}</span>
                </button>
              </div>
              <code class="command">{grant.scope_pattern ?? `any ${grant.capability}`}</code>
              <div class="muted small">
                {grant.capability} · {grant.agent_id} · session {grant.session_id} · last used{" "}
                {new Date(grant.last_used_at).toLocaleTimeString()}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted empty">No session grants{needle ? ` match “${search}”` : ""}.</p>
      )}
    </section>
  );
}

export function GrantsView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/grants", GrantList);
  const [search, setSearch] = useState("");
  const [error, setError] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);

  const revoke = async (grant: Grant) => {
    try {
      await api(`/v1/grants/${encodeURIComponent(grant.id)}`, Deleted, { method: "DELETE" });
      setConfirming(null);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

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
          placeholder="Search agent, capability, pattern"
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </label>
      <h2 class="section-title">Saved</h2>
      <Show resource={resource} reload={reload} feature="Grants">
        {(data) => {
          const shown = data.grants.filter((g) => grantMatches(g, search));
          if (!data.grants.length)
            return <p class="muted empty">No saved grants. "Allow always" and "Deny always" create them.</p>;
          if (!shown.length) return <p class="muted empty">No grant matches “{search}”.</p>;
          return (
            <ul class="grants">
              {shown.map((grant) => (
                <li key={grant.id} class={`grant effect-${grant.effect}`} data-grant-id={grant.id}>
                  <div class="device-line">
                    <span class={`outcome ${grant.effect === "allow" ? "allowed" : "denied"}`}>
                      {grant.effect === "allow" ? "Always allow" : "Always deny"}
                    </span>
                    <button type="button" class="small-button" onClick={() => setConfirming(grant.id)}>
                      Revoke <span class="sr-only">{grant.scope_pattern ?? grant.capability}</span>
                    </button>
                  </div>
                  <div>
                    <code class="command">{grant.scope_pattern ?? `any ${grant.capability}`}</code>
                  </div>
                  <div class="muted small">
                    {grant.capability} · {grant.agent_id}
                    {grant.version_range ? ` ${grant.version_range}` : ""}
                    {grant.match === "prefix" ? " · pattern" : grant.match === "exact" ? " · exact" : ""}
                    {grant.created_at ? ` · since ${new Date(grant.created_at).toLocaleDateString()}` : ""}
                  </div>
                  {confirming === grant.id ? (
                    <fieldset class="confirm">
                      <legend class="sr-only">Confirm revoking this grant</legend>
                      <p class="confirm-question">Revoke this grant? Matching calls will ask again.</p>
                      <div class="decisions two">
                        <button type="button" class="decision deny" onClick={() => void revoke(grant)}>
                          Revoke grant
                        </button>
                        <button type="button" class="decision neutral" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </div>
                    </fieldset>
                  ) : null}
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
      <SessionGrants search={search} onError={setError} />
      {error ? (
        <p class="card-status error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
