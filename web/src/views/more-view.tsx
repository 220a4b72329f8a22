// "More": the views that do not fit the tab bar, one large row each.
import { navigate, pathOf, type Route } from "../route.ts";
import type { ViewProps } from "./view-props.ts";

const entries: { route: Route; label: string; hint: string }[] = [
  { route: "grants", label: "Grants", hint: "Saved allows and denies" },
  { route: "devices", label: "Devices", hint: "Phones and companions, pairing, passkey, notifications" },
  { route: "proposals", label: "Proposals", hint: "Side effects waiting or done" },
  { route: "jobs", label: "Jobs", hint: "Hosted agent runs" },
  { route: "schedules", label: "Schedules", hint: "When jobs run by themselves" },
  { route: "chat", label: "Chat", hint: "Talk to a hosted agent" },
  { route: "precog", label: "Precognition", hint: "Warmed results served to agents" },
  { route: "apps", label: "Connected apps", hint: "MCP clients using Airlock's tools" },
  { route: "connections", label: "Connections", hint: "Google and GitHub, as you or as the assistant" },
  { route: "notifications", label: "Notifications", hint: "What jobs and the notify tool reported" },
];

export function MoreView(_: ViewProps) {
  return (
    <main class="view">
      <h1 class="section-title">More</h1>
      <ul class="menu">
        {entries.map((entry) => (
          <li key={entry.route}>
            <a
              href={pathOf[entry.route]}
              class="menu-row"
              onClick={(event) => {
                event.preventDefault();
                navigate(entry.route);
              }}
            >
              <strong>{entry.label}</strong>
              <span class="muted small">{entry.hint}</span>
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
