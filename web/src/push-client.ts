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

/**
 * How long the browser's push service gets to hand out a subscription. Without a reachable push service
 * (a network that blocks it, a browser without one) `subscribe` can wait for ever; the person is told instead.
 */
export const PUSH_SUBSCRIBE_TIMEOUT_MS = 10_000;

/** The browser's own reason, named: "AbortError: Registration failed - push service error". */
function browserReason(failure: unknown): string {
  if (failure instanceof DOMException || failure instanceof Error)
    return failure.message ? `${failure.name}: ${failure.message}` : failure.name;
  return String(failure);
}

async function subscribeWithin(registration: ServiceWorkerRegistration, key: Uint8Array<ArrayBuffer>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The browser's push service did not answer in ${PUSH_SUBSCRIBE_TIMEOUT_MS / 1000} s (is it blocked on this network?). Try again later.`,
          ),
        ),
      PUSH_SUBSCRIBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: key })
        .catch((failure) => {
          throw new Error(`The browser refused to subscribe: ${browserReason(failure)}`);
        }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
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
    (await subscribeWithin(registration, keyBytes(public_key)));
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
