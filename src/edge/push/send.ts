// Sends Web Push notifications (RFC 8291 payload encryption and RFC 8292 VAPID via @block65/webcrypto-web-push,
// which runs on workerd's WebCrypto) to every push subscription of a user, rate-limited per subscription: at most
// one notification per AIRLOCK_PUSH_MIN_INTERVAL_MS (default 10 s) and 60 an hour. A notification carries the
// pending count and one tag, so a skipped one is caught up by the next. Gone subscriptions (404/410) are removed.
import {
  buildPushPayload,
  encryptNotification,
  type PushSubscription,
  vapidHeaders,
} from "@block65/webcrypto-web-push";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { CapabilityPrompt } from "../../protocol/prompts.ts";
import type { Db } from "../db/client.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { mintAnswerToken } from "./answer-token.ts";
import { checkEndpoint } from "./endpoints.ts";
import {
  lockScreenAnswerable,
  messagePayload,
  type PushPayload,
  promptPayload,
  withAnswer,
} from "./payload.ts";
import { vapidKeys } from "./vapid.ts";

export const DEFAULT_MIN_INTERVAL_MS = 10_000;
export const HOURLY_CAP = 60;
const HOUR_MS = 3_600_000;
/** After this many failed deliveries in a row a subscription is dropped. */
const MAX_FAILURES = 5;
const TTL_SECONDS = 120;

type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Whether a subscription may get a notification at `now`, and the hour window it would count in. */
export function rateAllows(
  row: Pick<SubscriptionRow, "lastSentAt" | "hourStart" | "hourCount">,
  now: number,
  minIntervalMs: number,
): { ok: boolean; hourStart: number; hourCount: number } {
  const sameHour = row.hourStart !== null && now - row.hourStart < HOUR_MS;
  const hourStart = sameHour && row.hourStart !== null ? row.hourStart : now;
  const hourCount = sameHour ? row.hourCount : 0;
  const spaced = row.lastSentAt === null || now - row.lastSentAt >= minIntervalMs;
  return { ok: spaced && hourCount < HOURLY_CAP, hourStart, hourCount: hourCount + 1 };
}

export function minIntervalMs(env: Env): number {
  const configured = Number(env.AIRLOCK_PUSH_MIN_INTERVAL_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_MIN_INTERVAL_MS;
}

async function request(
  env: Env,
  db: Db,
  row: SubscriptionRow,
  payload: PushPayload,
): Promise<RequestInit & { url: string }> {
  const allowLoopback = env.AIRLOCK_PUSH_ALLOW_LOOPBACK === "1";
  const check = checkEndpoint(row.endpoint, allowLoopback);
  if (!check.ok) throw new Error(`endpoint refused: ${check.reason}`);
  const vapid = await vapidKeys(env, db);
  const subscription: PushSubscription = {
    endpoint: row.endpoint,
    expirationTime: null,
    keys: { p256dh: row.p256dh, auth: row.auth },
  };
  const message = { data: JSON.stringify(payload), options: { ttl: TTL_SECONDS, urgency: "high" as const } };
  if (check.url.protocol === "https:") {
    return { url: row.endpoint, ...(await buildPushPayload(message, subscription, vapid)) };
  }
  // Local test endpoint (http on 127.0.0.1, allowed only by AIRLOCK_PUSH_ALLOW_LOOPBACK): the library signs only for
  // https origins, so the VAPID token is made for the https form of the same origin; the body is encrypted the same.
  const signed = await vapidHeaders(
    { ...subscription, endpoint: row.endpoint.replace(/^http:/, "https:") },
    vapid,
  );
  const body = await encryptNotification(subscription, new TextEncoder().encode(message.data));
  return {
    url: row.endpoint,
    method: "POST",
    body,
    headers: {
      ...signed.headers,
      ttl: String(TTL_SECONDS),
      urgency: "high",
      "content-encoding": "aes128gcm",
      "content-type": "application/octet-stream",
    },
  };
}

/** Sends `payload` to one subscription; records the outcome on its row. */
export async function deliver(env: Env, db: Db, row: SubscriptionRow, payload: PushPayload): Promise<number> {
  try {
    const { url, ...init } = await request(env, db, row, payload);
    const res = await fetch(url, { ...init, redirect: "manual" });
    if (res.status === 404 || res.status === 410) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.id));
    } else if (!res.ok) {
      await recordFailure(db, row);
    } else if (row.failures) {
      await db.update(pushSubscriptions).set({ failures: 0 }).where(eq(pushSubscriptions.id, row.id));
    }
    return res.status;
  } catch (error) {
    console.warn(
      `[airlock] push to subscription ${row.id} failed: ${error instanceof Error ? error.message : error}`,
    );
    await recordFailure(db, row);
    return 0;
  }
}

async function recordFailure(db: Db, row: SubscriptionRow): Promise<void> {
  if (row.failures + 1 >= MAX_FAILURES) {
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.id));
  } else {
    await db
      .update(pushSubscriptions)
      .set({ failures: sql`${pushSubscriptions.failures} + 1` })
      .where(eq(pushSubscriptions.id, row.id));
  }
}

/**
 * Claims a send slot for a subscription: a conditional update, so two prompts announced at once (or two hub
 * instances) never both notify inside the interval.
 */
async function claim(db: Db, row: SubscriptionRow, now: number, interval: number): Promise<boolean> {
  const rate = rateAllows(row, now, interval);
  if (!rate.ok) return false;
  const claimed = await db
    .update(pushSubscriptions)
    .set({ lastSentAt: now, hourStart: rate.hourStart, hourCount: rate.hourCount })
    .where(
      and(
        eq(pushSubscriptions.id, row.id),
        row.lastSentAt === null
          ? isNull(pushSubscriptions.lastSentAt)
          : or(isNull(pushSubscriptions.lastSentAt), lte(pushSubscriptions.lastSentAt, now - interval)),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return claimed.length > 0;
}

/**
 * A `notify` notification to every approver device of the user. It does not take a prompt's send slot (the
 * notify tool has its own per-minute and per-day limit), so a notification never delays a prompt's push.
 */
export async function notifyMessage(
  env: Env,
  db: Db,
  userId: string,
  message: { title: string; body: string; id: string },
): Promise<number> {
  const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  const payload = messagePayload(message.title, message.body, message.id);
  const statuses = await Promise.all(rows.map((row) => deliver(env, db, row, payload)));
  return statuses.filter((s) => s >= 200 && s < 300).length;
}

/**
 * A new prompt batch was announced: notify each of the user's approver devices that is not rate-limited. A low or
 * medium risk prompt's notification carries Allow once / Deny buttons and an answer token for that device alone.
 */
export async function notifyPrompt(
  env: Env,
  db: Db,
  userId: string,
  prompt: CapabilityPrompt,
  pending: number,
  now = Date.now(),
): Promise<{ sent: number; limited: number }> {
  const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  const interval = minIntervalMs(env);
  const payload = promptPayload(prompt, pending);
  let sent = 0;
  let limited = 0;
  await Promise.all(
    rows.map(async (row) => {
      if (!(await claim(db, row, now, interval))) {
        limited++;
        return;
      }
      const answerable = lockScreenAnswerable(prompt);
      const token = answerable
        ? await mintAnswerToken(env.TOKEN_PEPPER, {
            userId,
            deviceId: row.deviceId,
            promptId: prompt.promptId,
            expiresAt: Date.parse(prompt.expiresAt),
          })
        : null;
      const status = await deliver(env, db, row, token ? withAnswer(payload, token) : payload);
      if (status >= 200 && status < 300) sent++;
    }),
  );
  return { sent, limited };
}
