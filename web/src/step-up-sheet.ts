// The way through a step-up where no passkey works (another host, an IP address, a cancelled or missing passkey): a
// sheet that says why and which address to open instead, and takes the recovery code once in place of the passkey
// (POST /v1/recovery/step-up). The code is then used up: the new one is shown here, once, to write down. Where this
// host can hold a passkey, "Add a passkey for this host" turns the recovery step into a passkey for next time.
// Plain `h` calls rather than JSX, so it typechecks without a JSX setting too (Node-side tests reached it through
// api.ts while api.ts loaded the step-up itself; main.tsx plugs it in now).
import { h, render, type VNode } from "preact";
import { useState } from "preact/hooks";
import { RecoveryStepUp } from "../../src/protocol/passkey-hosts.ts";
import { api, errorMessage } from "./api.ts";
import { STEP_UP_SHEET_CSS } from "./step-up-sheet-styles.ts";

/** Adopts the sheet's stylesheet once (constructed stylesheets are CSSOM, which style-src does not govern). */
function adoptStyles(): void {
  if (document.adoptedStyleSheets.some((sheet) => sheet === adopted)) return;
  adopted ??= new CSSStyleSheet();
  adopted.replaceSync(STEP_UP_SHEET_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, adopted];
}
let adopted: CSSStyleSheet | undefined;

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

const withNothingChanged = (message: string) =>
  /Nothing was changed/.test(message) ? message : `${message} Nothing was changed.`;

function errorLine(error: string, id?: string): VNode | null {
  return error ? h("p", { id, class: "card-status error", role: "alert" }, error) : null;
}

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
      setError(withNothingChanged(errorMessage(failure)));
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
      // The recovery step-up's token went to the registration: the action itself was not done.
      setError(`${errorMessage(failure)} The action was not done; try it again.`);
      setBusy(false);
    }
  };

  if (step.kind === "used")
    return h(
      "div",
      null,
      h("h2", { id: "step-up-title" }, "Recovery code used"),
      h(
        "p",
        null,
        "That recovery code is used up and will never work again. Your ",
        h("strong", null, "new recovery code"),
        " is below: write it down now, it is shown only this once.",
      ),
      h("p", { class: "new-code", "data-testid": "new-recovery-code" }, step.newCode),
      h(
        "div",
        { class: "step-up-actions" },
        offer.canAddPasskey
          ? h(
              "button",
              {
                type: "button",
                class: "decision allow primary",
                disabled: busy,
                onClick: () => void addPasskey(step.token),
              },
              busy ? "Waiting for the passkey…" : "Add a passkey for this host, then continue",
            )
          : null,
        h(
          "button",
          {
            type: "button",
            class: `decision ${offer.canAddPasskey ? "neutral" : "allow primary"}`,
            disabled: busy,
            onClick: () => done(step.token),
          },
          "I wrote it down, continue",
        ),
      ),
      errorLine(error),
    );

  return h(
    "form",
    { onSubmit: useCode },
    h("h2", { id: "step-up-title" }, "No passkey here"),
    h("p", { role: "alert", "data-testid": "step-up-reason" }, offer.reason),
    offer.openInstead
      ? h("p", null, h("a", { href: offer.openInstead }, `Open ${new URL(offer.openInstead).host} instead`))
      : null,
    h(
      "p",
      { class: "muted small" },
      `Or use your recovery code here, once: it is then replaced by a new one${
        offer.canAddPasskey ? ", and you can add a passkey for this host" : ""
      }.`,
    ),
    h("label", { for: "step-up-recovery-code" }, "Recovery code"),
    h("input", {
      id: "step-up-recovery-code",
      value: code,
      autoComplete: "off",
      autoCapitalize: "characters",
      spellcheck: false,
      maxLength: 64,
      placeholder: "XXXX-XXXX-XXXX-XXXX-XXXX-XXXX",
      "aria-describedby": error ? "step-up-error" : undefined,
      onInput: (e: Event) => setCode((e.currentTarget as HTMLInputElement).value),
    }),
    errorLine(error, "step-up-error"),
    h(
      "div",
      { class: "step-up-actions" },
      h(
        "button",
        { type: "submit", class: "decision allow primary", disabled: busy || code.trim().length < 24 },
        busy ? "Checking…" : "Use the recovery code",
      ),
      h(
        "button",
        {
          type: "button",
          class: "decision neutral",
          disabled: busy,
          onClick: () => done(new Error(withNothingChanged(offer.reason))),
        },
        "Cancel",
      ),
    ),
  );
}

/** Shows the sheet; resolves with a step-up token, or rejects with the reason when the person cancels. */
export function offerRecovery(offer: RecoveryOffer): Promise<string> {
  adoptStyles();
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
      done(new Error(withNothingChanged(offer.reason)));
    });
    render(h(Sheet, { offer, done }), dialog);
    dialog.showModal();
  });
}
