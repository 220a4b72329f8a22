// The dashboard shell: works out whether this browser is paired (401 from /v1/devices means no), then shows the
// pairing screen or the live approvals/settings views with the connection indicator and the tab bar.
import { useCallback, useEffect, useState } from "preact/hooks";
import { errorMessage, isPaired } from "./api.ts";
import { navigate, type Route, useRoute } from "./route.ts";
import { useHub } from "./use-hub.ts";
import { ApprovalsView } from "./views/approvals-view.tsx";
import { ConnectionBadge } from "./views/connection-badge.tsx";
import { PairingView } from "./views/pairing-view.tsx";
import { SettingsView } from "./views/settings-view.tsx";

type Session = { status: "checking" } | { status: "paired" } | { status: "unpaired"; note: string };

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session>({ status: "checking" });
  const [problem, setProblem] = useState("");
  const [pairCode] = useState(() => new URLSearchParams(location.search).get("code") ?? "");

  const check = useCallback(() => {
    setProblem("");
    isPaired().then(
      (paired) => setSession(paired ? { status: "paired" } : { status: "unpaired", note: "" }),
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, []);
  useEffect(check, [check]);

  const unpair = useCallback((note: string) => setSession({ status: "unpaired", note }), []);
  const paired = useCallback(() => {
    setSession({ status: "paired" });
    // Drop the code from the address bar: it is spent.
    navigate("approvals", true);
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
  return <PairedShell route={route} onUnpaired={unpair} />;
}

function PairedShell({ route, onUnpaired }: { route: Route; onUnpaired(note: string): void }) {
  const hub = useHub(onUnpaired);
  const tab = (target: Route, label: string, badge?: number) => (
    <a
      href={target === "settings" ? "/settings" : "/"}
      class={`tab${route === target ? " active" : ""}`}
      aria-current={route === target ? "page" : undefined}
      onClick={(event) => {
        event.preventDefault();
        navigate(target);
      }}
    >
      {label}
      {badge ? <span class="count">{badge}</span> : null}
    </a>
  );
  return (
    <>
      <header class="topbar">
        <span class="brand">Airlock</span>
        <ConnectionBadge link={hub.link} />
      </header>
      {route === "settings" ? (
        <SettingsView hub={hub} onSelfRevoked={() => onUnpaired("This device was revoked.")} />
      ) : (
        <ApprovalsView hub={hub} />
      )}
      <nav class="tabbar" aria-label="Views">
        {tab("approvals", "Approvals", hub.pending.length)}
        {tab("settings", "Settings")}
      </nav>
    </>
  );
}
