// Where this device keeps "Lock with passkey": one entry in the Cache API, because the page and the service worker
// both read it (the worker has no localStorage) and it must hold per browser, not per account. Also the rule for
// when a returning page locks again. Not a secret and not an access control: see docs/dashboard.md › App lock.

/** Outside the `airlock-` prefix, which the service worker's activate step clears on every deploy. */
const STORE = "app-lock-v1";
const KEY = "/__app-lock";

/** Hidden longer than this, the page locks again when it comes back. */
export const APP_LOCK_IDLE_MS = 5 * 60_000;

let known: boolean | null = null;

/** Reads the setting as stored now (the service worker's way: the page may have changed it since). */
export async function readAppLock(): Promise<boolean> {
  if (typeof caches === "undefined") return false;
  try {
    const found = await (await caches.open(STORE)).match(KEY);
    return (await found?.text()) === "on";
  } catch {
    return false;
  }
}

/** Whether this browser has app lock on (false where the Cache API is missing: the setting is not offered there). */
export async function appLockOn(): Promise<boolean> {
  known ??= await readAppLock();
  return known;
}

export function appLockSupported(): boolean {
  return typeof caches !== "undefined";
}

/** Turns app lock on or off for this browser; throws when the browser refuses to store it. */
export async function setAppLock(on: boolean): Promise<void> {
  const cache = await caches.open(STORE);
  if (on) await cache.put(KEY, new Response("on", { headers: { "content-type": "text/plain" } }));
  else await cache.delete(KEY);
  known = on;
}

/** A page that was hidden at `hiddenAt` locks again when shown at `now` if it was away for the idle window. */
export function lockDue(hiddenAt: number | null, now: number, idleMs = APP_LOCK_IDLE_MS): boolean {
  return hiddenAt !== null && now - hiddenAt >= idleMs;
}
