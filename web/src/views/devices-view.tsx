// Devices: every companion and approver with last seen and revoke (passkey step-up when one is registered), pairing
// a new device (a code and a QR of the pairing link), and this device's notifications and passkey.

import { useEffect, useState } from "preact/hooks";
import { renderSVG } from "uqr";
import { z } from "zod";
import type { Device } from "../../../src/protocol/pairing.ts";
import { DeviceList, PairingCode } from "../../../src/protocol/pairing.ts";
import { api, errorMessage } from "../api.ts";
import { loadDevices } from "../devices-cache.ts";
import { ConfirmBox } from "./confirm-box.tsx";
import { ErrorNote } from "./error-note.tsx";
import { Show, useResource } from "./resource.tsx";
import { ThisDevicePanel } from "./this-device-panel.tsx";
import { useRevoke } from "./use-revoke.ts";
import type { ViewProps } from "./view-props.ts";

const Revoked = z.object({ id: z.string(), revoked: z.boolean() });
type Role = "approver" | "companion";

/** The link a new phone opens to pair (the same one `npm run dev` prints). */
export function pairingLink(origin: string, code: string): string {
  return `${origin}/pair?code=${encodeURIComponent(code)}`;
}

function roleOf(device: Device): string {
  return device.role;
}

function PairNewDevice() {
  const [role, setRole] = useState<Role>("approver");
  const [code, setCode] = useState<PairingCode | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const mint = async () => {
    setBusy(true);
    setError("");
    try {
      setCode(await api("/v1/pairing/code", PairingCode, { method: "POST", body: { role } }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const link = code ? pairingLink(location.origin, code.code) : "";
  return (
    <section class="panel" aria-labelledby="pair-heading">
      <h2 id="pair-heading" class="panel-title">
        Pair another device
      </h2>
      <fieldset class="choice">
        <legend class="small">It will be</legend>
        <label>
          <input
            type="radio"
            name="role"
            checked={role === "approver"}
            onChange={() => setRole("approver")}
          />
          <span>an approver (a phone or browser that answers prompts)</span>
        </label>
        <label>
          <input
            type="radio"
            name="role"
            checked={role === "companion"}
            onChange={() => setRole("companion")}
          />
          <span>
            a companion (<code>airlock</code> on a dev machine)
          </span>
        </label>
      </fieldset>
      <button type="button" class="decision allow" disabled={busy} onClick={() => void mint()}>
        {busy ? "Creating…" : "Create a pairing code"}
      </button>
      {code ? (
        <div class="pair-code" data-testid="pairing-code">
          <p class="code-digits" role="status" aria-label={`Pairing code ${code.code.split("").join(" ")}`}>
            {code.code}
          </p>
          <p class="muted small">Single use, expires {new Date(code.expires_at).toLocaleTimeString()}.</p>
          {role === "approver" ? (
            <>
              <img
                class="qr"
                width={220}
                height={220}
                alt={`QR code of the pairing link ${link}`}
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(link))}`}
              />
              <p class="small">
                Or open <code>{link}</code>
              </p>
            </>
          ) : (
            <>
              <p class="small">
                On the dev machine:{" "}
                <code>
                  airlock pair {code.code} --server {location.origin}
                </code>
              </p>
              <p class="small muted">
                In an Airlock checkout:{" "}
                <code>
                  npm run -s airlock -- pair {code.code} --server {location.origin}
                </code>
              </p>
            </>
          )}
        </div>
      ) : null}
      <ErrorNote message={error} />
    </section>
  );
}

export function DevicesView({ onSelfRevoked }: ViewProps) {
  const [resource, reload] = useResource("/v1/devices", DeviceList);
  const { confirming, setConfirming, error, revoke } = useRevoke();
  useEffect(() => () => void loadDevices(true).catch(() => undefined), []);

  const revokeDevice = (device: Device) =>
    revoke(
      () => api(`/v1/devices/${encodeURIComponent(device.id)}/revoke`, Revoked, { method: "POST" }),
      device.current ? onSelfRevoked : reload,
    );

  return (
    <main class="view">
      <h1 class="section-title">Devices</h1>
      <Show resource={resource} reload={reload} feature="Devices">
        {(data) => (
          <ul class="devices panel">
            {data.devices.map((device) => (
              <li key={device.id} class={device.revoked_at ? "revoked" : ""} data-device-id={device.id}>
                <div class="device-line">
                  <span>
                    <strong>{device.name}</strong> <span class="tag">{roleOf(device)}</span>
                    {device.current ? <span class="tag">this device</span> : null}
                  </span>
                  {device.revoked_at ? (
                    <span class="muted small">revoked</span>
                  ) : (
                    <button type="button" class="small-button" onClick={() => setConfirming(device.id)}>
                      Revoke <span class="sr-only">{device.name}</span>
                    </button>
                  )}
                </div>
                <div class="muted small">
                  Last seen {device.last_seen_at ? new Date(device.last_seen_at).toLocaleString() : "never"}
                </div>
                {confirming === device.id ? (
                  <ConfirmBox
                    legend={`Confirm revoking ${device.name}`}
                    act="Revoke"
                    onAct={() => void revokeDevice(device)}
                    onCancel={() => setConfirming(null)}
                  >
                    Revoke {device.name}?{device.current ? " This phone will need pairing again." : ""}
                  </ConfirmBox>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Show>
      <ErrorNote message={error} />
      <PairNewDevice />
      <ThisDevicePanel />
    </main>
  );
}
