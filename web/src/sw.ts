/// <reference lib="webworker" />
// The dashboard's service worker: precaches the build (installable, opens offline to its last state), shows a
// notification for each push from Airlock, and opens the prompt when one is tapped. A low or medium risk prompt's
// notification has Allow once / Deny buttons, answered here with the push's answer token (it may answer only that
// prompt); high risk has none and opens the card. With app lock on for this browser (app-lock-store.ts) there are no
// buttons and a tap (even on a button shown before the lock was turned on) opens the app, where the passkey unlocks
// first: nothing is decided from the lock screen. Never caches /v1.
import { readAppLock } from "./app-lock-store.ts";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: { url: string; revision: string | null }[];
};

// vite-plugin-pwa (injectManifest) replaces `self.__WB_MANIFEST` with the build's file list and revisions.
const manifest = self.__WB_MANIFEST;
/** The cache name changes with the build's files, so every deploy gets a fresh cache and the old one is dropped. */
export const SW_VERSION = manifest
  .map((e) => `${e.url}@${e.revision ?? ""}`)
  .sort()
  .join("|");
const CACHE = `airlock-${hashOf(SW_VERSION)}`;

function hashOf(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/** The app shell is cached as "/" (the servers redirect /index.html there); the plugin lists icons twice. */
const PRECACHE = [
  ...new Set(manifest.map((e) => (e.url === "index.html" ? "/" : `/${e.url.replace(/^\//, "")}`))),
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("airlock-") && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "version") event.ports[0]?.postMessage(CACHE);
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  // The API and the socket always go to the network: a cached answer would be a stale decision.
  if (url.pathname.startsWith("/v1/") || url.pathname === "/healthz") return;
  // Navigations get the app shell (every view is a path of the one page); assets come from the cache first.
  const key = event.request.mode === "navigate" ? "/" : url.pathname;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      if (event.request.mode === "navigate") {
        try {
          return await fetch(event.request);
        } catch {
          return (await cache.match(key)) ?? Response.error();
        }
      }
      return (await cache.match(key)) ?? fetch(event.request);
    }),
  );
});

/** What Airlock pushes (src/edge/push/payload.ts): already redacted and short. Checked field by field (no zod here:
 * the worker stays small). */
interface PushPayload {
  title: string;
  body: string;
  promptId?: string;
  pending?: number;
  tag?: string;
  /** Lock-screen buttons, with the token that answers this one prompt (src/edge/push/answer-token.ts). */
  actions?: LockScreenAction[];
  answerToken?: string;
}

type LockScreenAction = "allow_once" | "deny_once";
const ACTION_TITLES: Record<LockScreenAction, string> = { allow_once: "Allow once", deny_once: "Deny" };
const isAction = (a: unknown): a is LockScreenAction => a === "allow_once" || a === "deny_once";

function str(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length <= max ? value : undefined;
}

export function parsePush(data: unknown): PushPayload {
  const fallback = { title: "Airlock", body: "An agent is waiting for your answer." };
  if (!data || typeof data !== "object") return fallback;
  const d = data as Record<string, unknown>;
  const title = str(d.title, 200);
  const body = str(d.body, 500);
  if (title === undefined || body === undefined) return fallback;
  const promptId = str(d.promptId, 100);
  const tag = str(d.tag, 100);
  const pending =
    typeof d.pending === "number" && Number.isInteger(d.pending) && d.pending >= 0 ? d.pending : undefined;
  const answerToken = str(d.answerToken, 1000);
  const actions = Array.isArray(d.actions) ? d.actions.filter(isAction) : [];
  return {
    title,
    body,
    ...(promptId ? { promptId } : {}),
    ...(tag ? { tag } : {}),
    ...(pending !== undefined ? { pending } : {}),
    ...(promptId && answerToken && actions.length ? { actions, answerToken } : {}),
  };
}

self.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    data = null;
  }
  const parsed = parsePush(data);
  const target = parsed.promptId ? `/?prompt=${encodeURIComponent(parsed.promptId)}` : "/";
  event.waitUntil(
    readAppLock().then((locked) => {
      // With app lock on, the answer token is dropped: nothing here may decide without the passkey.
      const { actions: _a, answerToken: _t, ...unanswerable } = parsed;
      return showPush(locked ? unanswerable : parsed, target);
    }),
  );
});

/** Shows one push's notification (and the app badge). */
function showPush(payload: PushPayload, target: string): Promise<unknown> {
  return Promise.all([
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag ?? "airlock-prompt",
      data: {
        url: target,
        ...(payload.answerToken ? { promptId: payload.promptId, answerToken: payload.answerToken } : {}),
      },
      icon: "/icon.svg",
      badge: "/icon.svg",
      // `actions` is in the Notifications spec and Chromium but not yet in TypeScript's NotificationOptions.
      ...({
        actions: (payload.actions ?? []).map((action) => ({ action, title: ACTION_TITLES[action] })),
      } as NotificationOptions),
    }),
    payload.pending !== undefined
      ? (self.navigator as Navigator & { setAppBadge?: (n: number) => Promise<void> }).setAppBadge?.(
          payload.pending,
        )
      : undefined,
  ]);
}

/** Opens `target` (a path on this origin) in the dashboard's window, or a new one. */
async function openDashboard(target: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    await open.navigate(target).catch(() => undefined);
    await open.focus();
    return;
  }
  await self.clients.openWindow(target);
}

/**
 * A lock-screen button: the answer goes to Airlock with the push's answer token. A short notification says what
 * happened; if Airlock refused (expired, answered elsewhere, high risk) or could not be reached, the card opens.
 */
async function answerFromLockScreen(
  action: LockScreenAction,
  token: string,
  title: string,
  target: string,
): Promise<void> {
  let said: string;
  try {
    const res = await fetch("/v1/push/answer", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, decision: action }),
      credentials: "omit",
    });
    if (res.ok) {
      await self.registration.showNotification(action === "allow_once" ? "Allowed once" : "Denied", {
        body: title,
        tag: "airlock-answered",
        silent: true,
        icon: "/icon.svg",
      });
      return;
    }
    const envelope: unknown = await res.json().catch(() => null);
    const error =
      envelope && typeof envelope === "object"
        ? (envelope as { error?: { message?: unknown } }).error
        : undefined;
    said = str(error?.message, 300) ?? `Airlock answered ${res.status}.`;
  } catch {
    said = "Airlock could not be reached.";
  }
  console.warn(`[airlock] the lock-screen answer was not taken: ${said}`);
  await openDashboard(target);
}

/** Keeps the worker alive for `work`; an event a page built itself (untrusted) cannot be extended, only run. */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  try {
    event.waitUntil(work);
  } catch {
    // Untrusted events throw InvalidStateError from waitUntil; the work still runs.
  }
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data: unknown = event.notification.data;
  const fields = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
  const url = str(fields.url, 300);
  // Only a path on this origin: a notification can never send the person elsewhere.
  const target = new URL(url?.startsWith("/") && !url.startsWith("//") ? url : "/", self.location.origin)
    .href;
  const token = str(fields.answerToken, 1000);
  const action = event.action;
  const title = event.notification.title;
  const work = readAppLock().then((locked) =>
    isAction(action) && token && !locked
      ? answerFromLockScreen(action, token, title, target)
      : openDashboard(target),
  );
  keepAlive(event, work);
});
