// Revoking one item of a list after its confirm step (ConfirmBox): which item's step is open, and why the last try
// failed, cleared when the next one starts. Apps, grants and devices revoke the same way.
import { useState } from "preact/hooks";
import { errorMessage } from "../api.ts";

export function useRevoke() {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState("");
  /** Sends the revocation; once it is done the step closes and `then` runs (e.g. the list reloads). */
  const revoke = async (send: () => Promise<unknown>, then: () => void) => {
    setError("");
    try {
      await send();
      setConfirming(null);
      then();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return { confirming, setConfirming, error, revoke };
}
