// The account's devices, fetched once per page and shared by every view that names a device ("by Pixel 8").
import { useEffect, useRef, useState } from "preact/hooks";
import type { Device } from "../../src/protocol/pairing.ts";
import type { ResolvedPrompt } from "../../src/protocol/prompts.ts";
import { api } from "./api.ts";

let cached: Promise<Device[]> | null = null;

export function loadDevices(fresh = false): Promise<Device[]> {
  if (fresh || !cached) {
    cached = api("/v1/devices", (v) => v.DeviceList).then((list) => list.devices);
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}

/** "by this device", "by Pixel 8", "by the API": who decided, in words a person recognises. */
export function deciderWords(
  decidedBy: { actor: string; deviceId: string | null },
  devices: Device[],
  myDeviceId: string | null,
): string {
  if (decidedBy.deviceId && decidedBy.deviceId === myDeviceId) return "by this device";
  const device = devices.find((d) => d.id === decidedBy.deviceId);
  if (device) return `by ${device.name}`;
  if (decidedBy.actor === "timeout") return "no answer in time";
  if (decidedBy.actor === "policy") return "by policy";
  if (decidedBy.deviceId) return "by a removed device";
  return `by ${decidedBy.actor === "api" ? "the API" : decidedBy.actor}`;
}

export interface DeviceNames {
  /** Who decided a resolved prompt, in words. */
  decider(prompt: ResolvedPrompt): string;
  /** A device's name ("build box"), null while unknown. */
  nameOf(deviceId: string): string | null;
}

export function useDeviceNames(myDeviceId: string | null): DeviceNames {
  const [devices, setDevices] = useState<Device[]>([]);
  // A device paired after the list was fetched (a new companion) is looked up once more, not on every render.
  const refetched = useRef(new Set<string>());
  useEffect(() => {
    loadDevices().then(setDevices, () => setDevices([]));
  }, []);
  return {
    decider: (prompt) => deciderWords(prompt.decidedBy, devices, myDeviceId),
    nameOf: (deviceId) => {
      const name = devices.find((d) => d.id === deviceId)?.name;
      if (name) return name;
      if (!refetched.current.has(deviceId)) {
        refetched.current.add(deviceId);
        queueMicrotask(() => void loadDevices(true).then(setDevices, () => undefined));
      }
      return null;
    },
  };
}
