// This device › Lock with passkey: offered once one of the account's passkeys signs on this host (the server says
// which, `signs_here`), stored per browser (app-lock-store.ts). With it on, the app opens behind app-lock.tsx.
import { useEffect, useState } from "preact/hooks";
import { errorMessage } from "../api.ts";
import { appLockOn, appLockSupported, setAppLock } from "../app-lock-store.ts";
import { SwitchLine } from "./switch-line.tsx";

export function AppLockSetting({ passkeyHere }: { passkeyHere: boolean }) {
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState("");
  useEffect(() => {
    appLockOn().then(setOn, () => setOn(false));
  }, []);
  // Once on, it stays offered even if the passkey goes: it can always be turned off again here.
  if (!appLockSupported() || on === null || (!passkeyHere && !on)) return null;

  const change = async () => {
    setBusy(true);
    setNote("");
    try {
      await setAppLock(!on);
      setOn(!on);
      setNote(
        on
          ? "App lock is off."
          : "App lock is on: opening Airlock here, or coming back after 5 minutes away, asks for the passkey.",
      );
    } catch (failure) {
      setNote(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="switch-row">
      <SwitchLine
        id="app-lock"
        label="Lock with passkey"
        on={on}
        disabled={busy}
        onToggle={() => void change()}
      />
      <p class="muted small">
        Asks for the passkey each time Airlock opens on this device, before any request or setting shows.
        Notification buttons then open Airlock instead of answering. A privacy screen for this phone, not a
        replacement for revoking a lost one.
      </p>
      {note ? (
        <p class="card-status control-note" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
