// The app lock: with "Lock with passkey" on for this browser (app-lock-store.ts), a fresh page load, or coming back
// after the page was hidden for the idle window, shows this full-screen lock instead of the app. Nothing of the app
// is mounted behind it (no socket, no cards, no lists); the passkey step-up (or, where no passkey signs here, its
// recovery-code sheet) unlocks. The emergency switches stay reachable: turning protection on never waits.
// A privacy screen for a phone left unlocked, not an access control: see docs/dashboard.md › App lock.
import type { ComponentType, VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, errorMessage } from "./api.ts";
import { appLockOn, lockDue, setAppLock } from "./app-lock-store.ts";

type Panel = ComponentType<Record<string, never>>;

/** The emergency switches, loaded only when asked for (they carry their zod shapes). */
async function loadEmergency(): Promise<Panel> {
  const { EmergencyPanel } = await import("./views/emergency-panel.tsx");
  return function LockedEmergency() {
    const [controls, setControls] = useState<Parameters<typeof EmergencyPanel>[0]["controls"]>(null);
    return <EmergencyPanel controls={controls} setControls={setControls} />;
  };
}

function LockScreen({ onUnlocked }: { onUnlocked(): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [Emergency, setEmergency] = useState<Panel | null>(null);
  const [emergencyError, setEmergencyError] = useState("");

  const unlock = async () => {
    setBusy(true);
    setError("");
    try {
      const { stepUp } = await import("./passkeys.ts");
      // The token itself is not spent here: the server issued it only for a verified assertion (or the recovery
      // code), which is what unlocking means. It expires unused after two minutes.
      await stepUp();
      onUnlocked();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) {
        // This browser is no longer paired: nothing behind the lock can be read, and the pairing screen comes next.
        await setAppLock(false).catch(() => undefined);
        onUnlocked();
        return;
      }
      setError(`${errorMessage(failure)} Airlock stays locked.`);
    } finally {
      setBusy(false);
    }
  };
  const openEmergency = () => {
    setEmergencyError("");
    loadEmergency().then(
      (panel) => setEmergency(() => panel),
      () => setEmergencyError("The emergency switches could not load. Check the connection and try again."),
    );
  };

  return (
    <>
      <header class="topbar">
        <span class="brand">Airlock</span>
      </header>
      <main class="view lock-screen" aria-labelledby="lock-title">
        <h1 id="lock-title" class="panel-title">
          Airlock is locked
        </h1>
        <p class="muted">Unlock with your passkey (fingerprint, face or PIN) to see requests and settings.</p>
        <button type="button" class="decision allow primary" disabled={busy} onClick={() => void unlock()}>
          {busy ? "Waiting for the passkey…" : "Unlock with passkey"}
        </button>
        {/* Not views/error-note.tsx: the entry importing it made the bundler move preact's hooks into a second
            first-view file (+0.25 kB gzipped, one more request before the first paint). */}
        {error ? (
          <p class="card-status error" role="alert">
            {error}
          </p>
        ) : null}
        <section class="panel" aria-labelledby="lock-emergency-title">
          <h2 id="lock-emergency-title" class="panel-title">
            Emergency
          </h2>
          {Emergency ? (
            <Emergency />
          ) : (
            <>
              <p class="muted small">
                Stop agents at once without unlocking: turning a switch on never asks.
              </p>
              <button type="button" class="small-button" onClick={openEmergency}>
                Show emergency switches
              </button>
              {emergencyError ? (
                <p class="card-status error" role="alert">
                  {emergencyError}
                </p>
              ) : null}
            </>
          )}
        </section>
      </main>
    </>
  );
}

/**
 * Shows `children` (the app) only while unlocked. `locked` is the setting read before the first render, so a locked
 * page never paints the app first.
 */
export function AppLockGate({ locked: initial, children }: { locked: boolean; children: VNode }) {
  const [locked, setLocked] = useState(initial);
  useEffect(() => {
    let hiddenAt: number | null = null;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hiddenAt = Date.now();
        return;
      }
      const due = lockDue(hiddenAt, Date.now());
      hiddenAt = null;
      if (due) void appLockOn().then((on) => on && setLocked(true));
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, []);
  return locked ? <LockScreen onUnlocked={() => setLocked(false)} /> : children;
}
