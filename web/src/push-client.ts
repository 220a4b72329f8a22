// Web Push in the browser: subscribe this approver device with the server's VAPID key and register the
// subscription; unsubscribe removes it. The service worker shows the notifications (web/src/sw.ts).
import { z } from "zod";
import { api } from "./api.ts";

const VapidKey = z.object({ public_key: z.string() });
const Saved = z.object({ id: z.string() });
const Removed = z.object({ deleted: z.boolean() });

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Asks for permission, subscribes, and registers the subscription with Airlock. */
export async function enablePush(): Promise<string> {
  if (!pushSupported()) throw new Error("This browser cannot receive push notifications.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted")
    throw new Error("Notifications are blocked for this site in the browser settings.");
  const registration = await navigator.serviceWorker.ready;
  const { public_key } = await api("/v1/push/key", VapidKey);
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(public_key),
    }));
  const json = subscription.toJSON();
  const saved = await api("/v1/push/subscriptions", Saved, {
    method: "POST",
    body: { endpoint: json.endpoint, keys: json.keys },
  });
  return saved.id;
}

export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api("/v1/push/subscriptions", Removed, {
    method: "DELETE",
    body: { endpoint: subscription.endpoint },
  });
  await subscription.unsubscribe();
}
