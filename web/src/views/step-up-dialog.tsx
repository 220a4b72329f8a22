// The way through a step-up where no passkey works (another host, an IP address, a cancelled or missing passkey): a
// sheet that says why and which address to open instead, and takes the recovery code once in place of the passkey
// (POST /v1/recovery/step-up). The code is then used up: the new one is shown here, once, to write down. Where this
// host can hold a passkey, "Add a passkey for this host" turns the recovery step into a passkey for next time.
import { render } from "preact";
import { useState } from "preact/hooks";
import { RecoveryStepUp } from "../../../src/protocol/passkey-hosts.ts";
import { api, errorMessage } from "../api.ts";
import "../step-up-dialog.css";

export interface RecoveryOffer {
  /** Why the passkey cannot be used here, in words. */
  reason: string;
  /** An address where the passkey works, to open instead (the same path), if one is known. */
  openInstead: string | null;
  /** Whether this host can hold a passkey (not an IP address, WebAuthn available, not already registering). */
  canAddPasskey: boolean;
  /** Registers a passkey for this host with the recovery step-up's token, then steps up with it: a fresh token. */
  addPasskey(token: string): Promise<string>;
}

type Step = { kind: "code" } | { kind: "used"; token: string; newCode: string };

function Sheet({ offer, done }: { offer: RecoveryOffer; done(result: string | Error): void }) {
  const [step, setStep] = useState<Step>({ kind: "code" });
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const useCode = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const answer = await api("/v1/recovery/step-up", RecoveryStepUp, {
        method: "POST",
        body: { recovery_code: code },
      });
      setStep({ kind: "used", token: answer.token, newCode: answer.recovery_code });
    } catch (failure) {
      const message = errorMessage(failure);
      setError(/Nothing was changed/.test(message) ? message : `${message} Nothing was changed.`);
    } finally {
      setBusy(false);
    }
  };

  const addPasskey = async (token: string) => {
    setBusy(true);
    setError("");
    try {
      done(await offer.addPasskey(token));
    } catch (failure) {
      // The recovery step-up's token went to the registration: the action was not done.
      setError(`${errorMessage(failure)} The action was not done; try it again.`);
      setBusy(false);
    }
  };

  if (step.kind === "used")
    return (
      <>
        <h2 id="step-up-title">Recovery code used</h2>
        <p>
          That recovery code is used up and will never work again. Your <strong>new recovery code</strong> is
          below: write it down now, it is shown only this once.
        </p>
        <p class="new-code" data-testid="new-recovery-code">
          {step.newCode}
        </p>
        <div class="step-up-actions">
          {offer.canAddPasskey ? (
            <button
              type="button"
              class="decision allow primary"
              disabled={busy}
              onClick={() => void addPasskey(step.token)}
            >
              {busy ? "Waiting for the passkey…" : "Add a passkey for this host, then continue"}
            </button>
          ) : null}
          <button
            type="button"
            class={`decision ${offer.canAddPasskey ? "neutral" : "allow primary"}`}
            disabled={busy}
            onClick={() => done(step.token)}
          >
            I wrote it down, continue
          </button>
        </div>
        {error ? (
          <p class="card-status error" role="alert">
            {error}
          </p>
        ) : null}
      </>
    );

  return (
    <form onSubmit={useCode}>
      <h2 id="step-up-title">No passkey here</h2>
      <p role="alert" data-testid="step-up-reason">
        {offer.reason}
      </p>
      {offer.openInstead ? (
        <p>
          <a href={offer.openInstead}>Open {new URL(offer.openInstead).host} instead</a>
        </p>
      ) : null}
      <p class="muted small">
        Or use your recovery code here, once: it is then replaced by a new one
        {offer.canAddPasskey ? ", and you can add a passkey for this host" : ""}.
      </p>
      <label for="step-up-recovery-code">Recovery code</label>
      <input
        id="step-up-recovery-code"
        value={code}
        autoComplete="off"
        autoCapitalize="characters"
        spellcheck={false}
        maxLength={64}
        placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX"
        aria-describedby={error ? "step-up-error" : undefined}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      {error ? (
        <p id="step-up-error" class="card-status error" role="alert">
          {error}
        </p>
      ) : null}
      <div class="step-up-actions">
        <button type="submit" class="decision allow primary" disabled={busy || code.trim().length < 24}>
          {busy ? "Checking…" : "Use the recovery code"}
        </button>
        <button
          type="button"
          class="decision neutral"
          disabled={busy}
          onClick={() => done(new Error(`${offer.reason} Nothing was changed.`))}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Shows the sheet; resolves with a step-up token, or rejects with the reason when the person cancels. */
export function offerRecovery(offer: RecoveryOffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const dialog = document.createElement("dialog");
    dialog.className = "step-up-sheet";
    dialog.setAttribute("aria-labelledby", "step-up-title");
    document.body.append(dialog);
    const done = (result: string | Error) => {
      render(null, dialog);
      dialog.close();
      dialog.remove();
      if (typeof result === "string") resolve(result);
      else reject(result);
    };
    // Escape closes a modal dialog: the same as Cancel.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      done(new Error(`${offer.reason} Nothing was changed.`));
    });
    render(<Sheet offer={offer} done={done} />, dialog);
    dialog.showModal();
  });
}
