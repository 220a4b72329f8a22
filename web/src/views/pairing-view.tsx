// Pairing this browser: the 8-digit code (prefilled from /pair?code=…) and an editable device name. The bind
// answer sets the httpOnly session cookie; the token in its body is never kept.
import { useState } from "preact/hooks";
import { z } from "zod";
import { BindRequest } from "../../../src/protocol/pairing.ts";
import { api, errorMessage } from "../api.ts";
import { deviceNameFromUserAgent } from "../device-name.ts";
import { ErrorNote } from "./error-note.tsx";

// Only the device id is read from the answer; zod drops every other field, the token included.
const Bound = z.object({ device_id: z.string() });

interface Props {
  initialCode: string;
  note: string;
  onPaired(): void;
}

export function PairingView({ initialCode, note, onPaired }: Props) {
  const [code, setCode] = useState(initialCode);
  const [name, setName] = useState(() => deviceNameFromUserAgent(navigator.userAgent));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const request = BindRequest.safeParse({ code: code.trim(), device_name: name, kind: "browser" });
    if (!request.success) {
      setError(request.error.issues[0]?.message ?? "Check the code and the name.");
      return;
    }
    setBusy(true);
    setError("");
    try {
      await api("/v1/pairing/bind", Bound, { method: "POST", body: request.data });
      onPaired();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="view pairing">
      <h1 class="section-title">Pair this device</h1>
      {note ? <p class="banner">{note}</p> : null}
      <p class="muted">
        Enter the 8-digit pairing code from <code>npm run dev</code> or from a device that is already paired.
        Codes work once and expire after a few minutes.
      </p>
      <form class="pair-form" onSubmit={submit}>
        <label for="pair-code">Pairing code</label>
        <input
          id="pair-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{8}"
          maxLength={8}
          required
          value={code}
          onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, ""))}
        />
        <label for="pair-name">Device name</label>
        <input
          id="pair-name"
          name="device_name"
          maxLength={100}
          required
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" class="decision allow primary" disabled={busy}>
          {busy ? "Pairing…" : "Pair this device"}
        </button>
        <ErrorNote message={error} />
      </form>
    </main>
  );
}
