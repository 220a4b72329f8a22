// The dashboard shell: works out whether this browser is paired (401 from /v1/devices means no), then shows the
// pairing screen or the live views with the connection indicator and the tab bar. Approvals is in the first
// bundle (its validators load right after the first paint, load-validators.ts); every other view, the pairing
// screen included, loads when opened.
import type { ComponentType } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, errorMessage } from "./api.ts";
import { loadDevices } from "./devices-cache.ts";
import { lazyView } from "./lazy.tsx";
import { navigate, pathOf, type Route, routeOf, useLocation } from "./route.ts";
import { usePendingBadge } from "./title-badge.ts";
import { useHub } from "./use-hub.ts";
import { ApprovalsView } from "./views/approvals-view.tsx";
import { ConnectionBadge } from "./views/connection-badge.tsx";
import type { ViewProps } from "./views/view-props.ts";

type Session = { status: "checking" } | { status: "paired" } | { status: "unpaired"; note: string };

/**
 * Not a secret: only whether this browser was paired last time, so a returning phone opens its socket at once
 * instead of waiting for the pairing check (which still runs, and sends it to the pairing screen on a 401).
 */
const PAIRED_HINT = "airlock.paired";
const hint = {
  get: () => {
    try {
      return localStorage.getItem(PAIRED_HINT) === "1";
    } catch {
      return false;
    }
  },
  set: (paired: boolean) => {
    try {
      if (paired) localStorage.setItem(PAIRED_HINT, "1");
      else localStorage.removeItem(PAIRED_HINT);
    } catch {
      // Storage unavailable: the check simply runs first next time.
    }
  },
};

const Consent = lazyView(() => import("./views/consent-view.tsx").then((m) => m.ConsentView));
// Pairing happens once per browser: it loads with the validators rather than weigh on every returning phone.
const PairingView = lazyView(() => import("./views/pairing-view.tsx").then((m) => m.PairingView));

const views: Partial<Record<Route, ComponentType<ViewProps>>> = {
  activity: lazyView(() => import("./views/activity-view.tsx").then((m) => m.ActivityView)),
  grants: lazyView(() => import("./views/grants-view.tsx").then((m) => m.GrantsView)),
  devices: lazyView(() => import("./views/devices-view.tsx").then((m) => m.DevicesView)),
  policy: lazyView(() => import("./views/policy-view.tsx").then((m) => m.PolicyView)),
  proposals: lazyView(() => import("./views/proposals-view.tsx").then((m) => m.ProposalsView)),
  jobs: lazyView(() => import("./views/jobs-view.tsx").then((m) => m.JobsView)),
  schedules: lazyView(() => import("./views/schedules-view.tsx").then((m) => m.SchedulesView)),
  chat: lazyView(() => import("./views/chat-view.tsx").then((m) => m.ChatView)),
  precog: lazyView(() => import("./views/precog-view.tsx").then((m) => m.PrecogView)),
  apps: lazyView(() => import("./views/apps-view.tsx").then((m) => m.AppsView)),
  connections: lazyView(() => import("./views/connections-view.tsx").then((m) => m.ConnectionsView)),
  notifications: lazyView(() => import("./views/notifications-view.tsx").then((m) => m.NotificationsView)),
  more: lazyView(() => import("./views/more-view.tsx").then((m) => m.MoreView)),
};

export function App() {
  const { route, path, search } = useLocation();
  const [session, setSession] = useState<Session>(() =>
    hint.get() ? { status: "paired" } : { status: "checking" },
  );
  const [problem, setProblem] = useState("");
  const [pairCode] = useState(() => new URLSearchParams(location.search).get("code") ?? "");

  const check = useCallback(() => {
    setProblem("");
    // Not forced fresh: the approvals view may already have asked (child effects run first); one request serves both.
    loadDevices().then(
      () => {
        hint.set(true);
        setSession({ status: "paired" });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          hint.set(false);
          setSession({ status: "unpaired", note: "" });
        } else if (!hint.get()) setProblem(errorMessage(error));
      },
    );
  }, []);
  useEffect(check, [check]);

  const unpair = useCallback((note: string) => {
    hint.set(false);
    setSession({ status: "unpaired", note });
  }, []);
  const paired = useCallback(() => {
    hint.set(true);
    setSession({ status: "paired" });
    // Drop the code from the address bar: it is spent. A consent page that asked to pair first comes back.
    navigate(
      routeOf(location.pathname) === "oauth" ? location.pathname + location.search : "approvals",
      true,
    );
  }, []);

  if (session.status === "checking") {
    return (
      <main class="view">
        <p class="muted">{problem || "Connecting to Airlock…"}</p>
        {problem ? (
          <button type="button" class="decision neutral" onClick={check}>
            Try again
          </button>
        ) : null}
      </main>
    );
  }
  if (session.status === "unpaired" || route === "pair") {
    const note =
      session.status === "unpaired" ? session.note : "This browser is already paired; a code re-pairs it.";
    return (
      <>
        <header class="topbar">
          <span class="brand">Airlock</span>
        </header>
        <PairingView initialCode={pairCode} note={note} onPaired={paired} />
      </>
    );
  }
  if (route === "oauth") {
    return (
      <>
        <header class="topbar">
          <span class="brand">Airlock</span>
        </header>
        <Consent search={search} />
      </>
    );
  }
  return <PairedShell route={route} path={path} onUnpaired={unpair} />;
}

const tabs: { route: Route; label: string }[] = [
  { route: "approvals", label: "Approvals" },
  { route: "activity", label: "Activity" },
  { route: "policy", label: "Policy" },
  { route: "more", label: "More" },
];
const underMore = new Set<Route>([
  "grants",
  "devices",
  "proposals",
  "jobs",
  "schedules",
  "chat",
  "precog",
  "apps",
  "connections",
  "notifications",
]);

function PairedShell({
  route,
  path,
  onUnpaired,
}: {
  route: Route;
  path: string;
  onUnpaired(note: string): void;
}) {
  const hub = useHub(onUnpaired);
  usePendingBadge(hub.pending.length);
  const View = views[route];
  const active = underMore.has(route) ? "more" : route;
  return (
    <>
      <header class="topbar">
        <span class="brand">Airlock</span>
        <ConnectionBadge link={hub.link} />
      </header>
      {View ? (
        <View hub={hub} path={path} onSelfRevoked={() => onUnpaired("This device was revoked.")} />
      ) : (
        <ApprovalsView hub={hub} />
      )}
      <nav class="tabbar" aria-label="Views">
        {tabs.map((tab) => (
          <a
            key={tab.route}
            href={pathOf[tab.route]}
            class={`tab${active === tab.route ? " active" : ""}`}
            aria-current={active === tab.route ? "page" : undefined}
            onClick={(event) => {
              event.preventDefault();
              navigate(tab.route);
            }}
          >
            {tab.label}
            {tab.route === "approvals" && hub.pending.length ? (
              <span class="count">{hub.pending.length}</span>
            ) : null}
          </a>
        ))}
      </nav>
    </>
  );
}
