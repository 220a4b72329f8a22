// Activity: every decision and side effect from the audit log, including what policy answered without asking.
// Filters by agent, device, tool, decision, risk and time; a detail panel with the redacted input and who decided;
// NDJSON export of the same filter.
import { useEffect, useMemo, useState } from "preact/hooks";
import { z } from "zod";
import { AuditEvent } from "../../../src/protocol/audit.ts";
import type { Device } from "../../../src/protocol/pairing.ts";
import { activitySentence } from "../activity-words.ts";
import { api, errorMessage } from "../api.ts";
import { loadDevices } from "../devices-cache.ts";
import { shortText } from "../labels.ts";
import { ErrorNote } from "./error-note.tsx";
import type { ViewProps } from "./view-props.ts";

const AuditPage = z.object({ events: z.array(AuditEvent), next_cursor: z.string().nullable() });

interface Filters {
  agent: string;
  device: string;
  tool: string;
  decision: string;
  risk: string;
  since: string;
}
const none: Filters = { agent: "", device: "", tool: "", decision: "", risk: "", since: "" };
const sinceOptions: [string, string][] = [
  ["", "Any time"],
  ["1h", "Last hour"],
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
];
const sinceMs: Record<string, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 };

/** The query the server filters on (agent, decision, time); device, tool and risk are narrowed on the page. */
export function auditQuery(filters: Filters, now: number, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (filters.agent) query.set("agent", filters.agent);
  if (filters.decision) query.set("decision", filters.decision);
  const window = sinceMs[filters.since];
  if (window) query.set("from", new Date(now - window).toISOString());
  return query.toString();
}

function detail(event: AuditEvent, key: string): string {
  const value = event.details[key];
  return typeof value === "string" ? value : "";
}

export function matches(event: AuditEvent, filters: Filters): boolean {
  if (filters.device && event.device_id !== filters.device) return false;
  if (filters.tool && !detail(event, "tool").toLowerCase().includes(filters.tool.toLowerCase())) return false;
  if (filters.risk && detail(event, "risk") !== filters.risk) return false;
  return true;
}

/** The recorded details with device ids ("dev_…", "device:dev_…") shown as the devices' names. */
export function withDeviceNames(details: unknown, nameOf: (id: string) => string | undefined): unknown {
  if (typeof details === "string") {
    const id = details.startsWith("device:") ? details.slice(7) : details;
    const name = nameOf(id);
    return name ?? details;
  }
  if (Array.isArray(details)) return details.map((d) => withDeviceNames(d, nameOf));
  if (details && typeof details === "object") {
    return Object.fromEntries(Object.entries(details).map(([k, v]) => [k, withDeviceNames(v, nameOf)]));
  }
  return details;
}

export function ActivityView(_: ViewProps) {
  const [filters, setFilters] = useState<Filters>(none);
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [devices, setDevices] = useState<Device[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const query = useMemo(() => auditQuery(filters, Date.now()), [filters]);

  useEffect(() => {
    loadDevices().then(setDevices, () => setDevices([]));
  }, []);
  useEffect(() => {
    setEvents(null);
    setError("");
    api(`/v1/audit?limit=100&${query}`, AuditPage).then(
      (page) => {
        setEvents(page.events);
        setCursor(page.next_cursor);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [query]);

  const more = async () => {
    if (!cursor) return;
    try {
      const page = await api(`/v1/audit?limit=100&${query}&cursor=${encodeURIComponent(cursor)}`, AuditPage);
      setEvents((list) => [...(list ?? []), ...page.events]);
      setCursor(page.next_cursor);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const nameOf = (id: string | null) =>
    devices.find((d) => d.id === id)?.name ?? (id ? "a removed device" : "—");
  const set = (key: keyof Filters) => (e: Event) =>
    setFilters({ ...filters, [key]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const shown = (events ?? []).filter((e) => matches(e, filters));

  return (
    <main class="view">
      <h1 class="section-title">Activity</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter activity">
        <label>
          Agent
          <input value={filters.agent} onChange={set("agent")} placeholder="agent id" autoComplete="off" />
        </label>
        <label>
          Tool
          <input value={filters.tool} onInput={set("tool")} placeholder="e.g. Bash" autoComplete="off" />
        </label>
        <label>
          Device
          <select value={filters.device} onChange={set("device")}>
            <option value="">Any device</option>
            {devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Decision
          <select value={filters.decision} onChange={set("decision")}>
            <option value="">Any decision</option>
            {[
              "allow",
              "deny",
              "ask",
              "allow_once",
              "allow_session",
              "allow_always",
              "deny_once",
              "deny_always",
              "deny_timeout",
            ].map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label>
          Risk
          <select value={filters.risk} onChange={set("risk")}>
            <option value="">Any risk</option>
            <option value="low">low</option>
            <option value="medium">medium</option>
            <option value="high">high</option>
          </select>
        </label>
        <label>
          Time
          <select value={filters.since} onChange={set("since")}>
            {sinceOptions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p>
        <a
          class="small-button"
          href={`/v1/audit?format=ndjson&limit=1000&${query}`}
          download="airlock-audit.ndjson"
        >
          Export NDJSON
        </a>
      </p>
      <ErrorNote message={error} />
      {events === null && !error ? (
        <p class="muted" role="status">
          Loading…
        </p>
      ) : null}
      {events && !shown.length ? <p class="muted empty">Nothing recorded for this filter.</p> : null}
      <ol class="activity">
        {shown.map((event) => (
          <li key={event.id} class="activity-item">
            <button
              type="button"
              class="activity-row"
              aria-expanded={open === event.id}
              onClick={() => setOpen(open === event.id ? null : event.id)}
            >
              <span
                class={`outcome ${event.decision?.startsWith("allow") ? "allowed" : event.decision ? "denied" : ""}`}
              >
                {event.decision ?? event.event}
              </span>
              <span class="activity-what">
                {shortText(activitySentence(event, nameOf), 140)}
                {event.details.ungated === true ? (
                  <span
                    class="tag"
                    title="Permissions were off for this session: the local policy was not applied"
                  >
                    ungated
                  </span>
                ) : null}
              </span>
              <time class="muted small" dateTime={event.at}>
                {new Date(event.at).toLocaleString()}
              </time>
            </button>
            {open === event.id ? (
              <dl class="details">
                <dt>Event</dt>
                <dd>
                  <code>{event.event}</code>
                </dd>
                <dt>Who decided</dt>
                <dd>{event.actor.startsWith("device:") ? nameOf(event.device_id) : event.actor}</dd>
                <dt>Target</dt>
                <dd>
                  <code>{event.target ?? "—"}</code>
                </dd>
                <dt>Recorded (redacted)</dt>
                <dd>
                  <pre class="json">
                    {JSON.stringify(
                      withDeviceNames(event.details, (id) => devices.find((d) => d.id === id)?.name),
                      null,
                      2,
                    )}
                  </pre>
                </dd>
              </dl>
            ) : null}
          </li>
        ))}
      </ol>
      {cursor ? (
        <button type="button" class="decision neutral" onClick={() => void more()}>
          Load more
        </button>
      ) : null}
    </main>
  );
}
