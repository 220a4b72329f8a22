// The account's devices, with a revoke button (revoking kills that device's tokens and sockets at once).
import { useCallback, useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { Device } from "../../../src/protocol/pairing.ts";
import { api, errorMessage } from "../api.ts";

const DeviceList = z.object({ devices: z.array(Device) });
const Revoked = z.object({ id: z.string(), revoked: z.boolean() });

export function DevicesPanel({ onSelfRevoked }: { onSelfRevoked(): void }) {
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState("");
  const load = useCallback(() => {
    api("/v1/devices", DeviceList)
      .then((list) => setDevices(list.devices))
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, []);
  useEffect(load, [load]);

  const revoke = async (device: Device) => {
    try {
      await api(`/v1/devices/${encodeURIComponent(device.id)}/revoke`, Revoked, { method: "POST" });
      setConfirming(null);
      if (device.current) onSelfRevoked();
      else load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  if (!devices) return <p class="muted">{error || "Loading devices…"}</p>;
  return (
    <div class="panel">
      <ul class="devices">
        {devices.map((device) => (
          <li key={device.id} class={device.revoked_at ? "revoked" : ""}>
            <div class="device-line">
              <span>
                <strong>{device.name}</strong> <span class="muted small">{device.kind}</span>
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
              <fieldset class="confirm">
                <legend class="sr-only">Confirm revoking {device.name}</legend>
                <p class="confirm-question">
                  Revoke {device.name}?{device.current ? " This phone will need pairing again." : ""}
                </p>
                <div class="decisions two">
                  <button type="button" class="decision deny" onClick={() => void revoke(device)}>
                    Revoke
                  </button>
                  <button type="button" class="decision neutral" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </div>
              </fieldset>
            ) : null}
          </li>
        ))}
      </ul>
      {error ? (
        <p class="card-status error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
