// Notifications: what Airlock told the person (a job or the notify tool reporting, something waiting for them),
// newest first, each linking to its job or proposal; older ones a page at a time.
import { useState } from "preact/hooks";
import { z } from "zod";
import { visibleText } from "../../../src/policy/shown-call.ts";
import { NotificationView } from "../../../src/protocol/runtime.ts";
import { api, errorMessage } from "../api.ts";
import { navigate } from "../route.ts";
import { Show, useResource } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

const Page = z.object({ notifications: z.array(NotificationView), next_cursor: z.string().nullable() });
type Page = z.infer<typeof Page>;

function Row({ n }: { n: NotificationView }) {
  const target = n.job_id
    ? `/jobs/${encodeURIComponent(n.job_id)}`
    : n.proposal_id
      ? `/proposals/${encodeURIComponent(n.proposal_id)}`
      : null;
  const created = new Date(n.created_at).toLocaleString();
  return (
    <li class="notification-item" data-kind={n.kind}>
      <div class="device-line">
        <strong>{visibleText(n.title)}</strong>
        <span class={`tag ${n.kind === "intervention" ? "tag-attention" : ""}`}>
          {n.kind === "intervention" ? "Needs you" : "Report"}
        </span>
      </div>
      <p class="notification-body">{visibleText(n.body)}</p>
      <div class="muted small">
        {created}
        {target ? (
          <>
            {" · "}
            <a
              href={target}
              onClick={(event) => {
                event.preventDefault();
                navigate(target);
              }}
            >
              {n.job_id ? "Open the job" : "Open the proposal"}
            </a>
          </>
        ) : null}
      </div>
    </li>
  );
}

export function NotificationsView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/notifications?limit=50", Page);
  const [older, setOlder] = useState<Page | null>(null);
  const [error, setError] = useState("");
  const more = async (cursor: string) => {
    setError("");
    try {
      const page = await api(`/v1/notifications?limit=50&cursor=${encodeURIComponent(cursor)}`, Page);
      setOlder((o) => ({
        notifications: [...(o?.notifications ?? []), ...page.notifications],
        next_cursor: page.next_cursor,
      }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <main class="view">
      <h1 class="section-title">Notifications</h1>
      <Show resource={resource} reload={reload} feature="Notifications are">
        {(first) => {
          const list = [...first.notifications, ...(older?.notifications ?? [])];
          const cursor = older ? older.next_cursor : first.next_cursor;
          return list.length ? (
            <>
              <ul class="devices">
                {list.map((n) => (
                  <Row key={n.id} n={n} />
                ))}
              </ul>
              {cursor ? (
                <button type="button" class="small-button" onClick={() => void more(cursor)}>
                  Older notifications
                </button>
              ) : null}
              {error ? (
                <p class="field-error" role="alert">
                  {error}
                </p>
              ) : null}
            </>
          ) : (
            <p class="muted empty">
              No notifications yet. Jobs and the notify tool report here; prompts wait in Approvals.
            </p>
          );
        }}
      </Show>
    </main>
  );
}
