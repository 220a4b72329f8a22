// Connected apps: the MCP clients the person gave access to (remote MCP, docs/mcp.md), with their scopes and
// when; revoking one stops its tokens at once.
import { z } from "zod";
import { McpClientGrantList } from "../../../src/protocol/mcp.ts";
import { api } from "../api.ts";
import { ConfirmBox } from "./confirm-box.tsx";
import { ErrorNote } from "./error-note.tsx";
import { Show, useResource } from "./resource.tsx";
import { useRevoke } from "./use-revoke.ts";
import type { ViewProps } from "./view-props.ts";

const Revoked = z.object({ revoked: z.literal(true) });
const when = (iso: string) => new Date(iso).toLocaleString();

export function AppsView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/mcp/clients", McpClientGrantList);
  const { confirming, setConfirming, error, revoke } = useRevoke();
  const revokeApp = (id: string) =>
    revoke(
      () => api(`/v1/mcp/clients/${encodeURIComponent(id)}/revoke`, Revoked, { method: "POST" }),
      reload,
    );

  return (
    <main class="view">
      <h1 class="section-title">Connected apps</h1>
      <p class="muted small">
        MCP clients (Claude Desktop, ChatGPT, …) you let use Airlock's tools. Their calls go through your
        policy like any agent's.
      </p>
      <ErrorNote message={error} />
      <Show resource={resource} reload={reload} feature="Remote MCP">
        {(data) =>
          data.clients.length === 0 ? (
            <p class="muted empty">
              No connected apps. Add Airlock's /mcp address to an MCP client to connect one.
            </p>
          ) : (
            <ul class="grants">
              {data.clients.map((app) => (
                <li key={app.id} class="grant" data-mcp-grant-id={app.id}>
                  <div class="device-line">
                    <strong>{app.client_name}</strong>
                    <button type="button" class="small-button" onClick={() => setConfirming(app.id)}>
                      Revoke <span class="sr-only">{app.client_name}</span>
                    </button>
                  </div>
                  <div class="small">
                    {app.scopes.map((s) => (
                      <code key={s} class="command">
                        {s}
                      </code>
                    ))}
                  </div>
                  <div class="muted small">
                    Connected {when(app.created_at)}
                    {app.redirect_uri ? ` · returns to ${app.redirect_uri}` : ""}
                  </div>
                  {confirming === app.id ? (
                    <ConfirmBox
                      legend="Confirm revoking this app"
                      act="Revoke app"
                      onAct={() => void revokeApp(app.id)}
                      onCancel={() => setConfirming(null)}
                    >
                      Revoke {app.client_name}? Its next call is refused.
                    </ConfirmBox>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </main>
  );
}
