// Web Push for approver devices: the server's VAPID public key, registering and removing this browser's push
// subscription, a test notification, and a notification's lock-screen answer. Prompts trigger notifications from
// the hub (push/send.ts).
import { and, eq } from "drizzle-orm";
import {
  Created,
  Deleted,
  PushAnswerRequest,
  PushAnswerResult,
  PushSubscribeRequest,
  PushSubscriptionList,
  PushTestResult,
  PushUnsubscribeRequest,
  VapidKey,
} from "../../protocol/dashboard.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import { openDb } from "../db/client.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { answerFromPush } from "../push/answer.ts";
import { checkEndpoint } from "../push/endpoints.ts";
import { deliver } from "../push/send.ts";
import { vapidKeys } from "../push/vapid.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

export const pushRoutes = routeGroup()
  .openapi(
    apiRoute("manage_notifications", {
      method: "get",
      path: "/v1/push/key",
      summary: "The server's VAPID public key, for PushManager.subscribe",
      responses: { 200: json("Base64url P-256 point.", VapidKey) },
    }),
    async (c) => {
      const keys = await vapidKeys(c.env, openDb(c.env.DB));
      return c.json({ public_key: String(keys.publicKey) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_notifications", {
      method: "get",
      path: "/v1/push/subscriptions",
      summary: "The account's push subscriptions (the push service's host only)",
      responses: { 200: json("Subscriptions.", PushSubscriptionList) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const rows = await openDb(c.env.DB)
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, auth.userId));
      return c.json(
        {
          subscriptions: rows.map((r) => ({
            id: r.id,
            device_id: r.deviceId,
            service: new URL(r.endpoint).host,
            created_at: new Date(r.createdAt).toISOString(),
            last_sent_at: r.lastSentAt ? new Date(r.lastSentAt).toISOString() : null,
            current: r.deviceId === auth.deviceId,
          })),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute("manage_notifications", {
      method: "post",
      path: "/v1/push/subscriptions",
      summary: "Register this browser's push subscription (https endpoints of known push services only)",
      request: jsonRequest(PushSubscribeRequest),
      responses: { 201: json("Registered.", Created) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      const check = checkEndpoint(body.endpoint, c.env.AIRLOCK_PUSH_ALLOW_LOOPBACK === "1");
      if (!check.ok) {
        throw new ApiError(400, "validation_failed", `Invalid push endpoint: ${check.reason}.`, {
          details: [{ path: "endpoint", message: check.reason }],
        });
      }
      const db = openDb(c.env.DB);
      // An endpoint belongs to one browser: re-subscribing (or re-pairing) moves it to this device.
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, body.endpoint));
      const id = newId("psh");
      await db.insert(pushSubscriptions).values({
        id,
        userId: auth.userId,
        deviceId: auth.deviceId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        createdAt: Date.now(),
      });
      await writeAudit(db, {
        userId: auth.userId,
        deviceId: auth.deviceId,
        actor: `device:${auth.deviceId}`,
        event: "push.subscribed",
        target: id,
        details: { service: check.url.host },
      });
      return c.json({ id }, 201);
    },
  )
  .openapi(
    apiRoute("manage_notifications", {
      method: "delete",
      path: "/v1/push/subscriptions",
      summary: "Remove a push subscription by its endpoint",
      request: jsonRequest(PushUnsubscribeRequest),
      responses: { 200: json("Whether one was removed.", Deleted) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      const removed = await openDb(c.env.DB)
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.endpoint, body.endpoint), eq(pushSubscriptions.userId, auth.userId)))
        .returning({ id: pushSubscriptions.id });
      return c.json({ deleted: removed.length > 0 }, 200);
    },
  )
  .openapi(
    apiRoute("manage_notifications", {
      method: "post",
      path: "/v1/push/test",
      summary: "Send a test notification to this device's subscriptions",
      responses: { 200: json("How many were delivered.", PushTestResult) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const rows = await db
        .select()
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, auth.userId), eq(pushSubscriptions.deviceId, auth.deviceId)));
      const statuses = await Promise.all(
        rows.map((row) =>
          deliver(c.env, db, row, {
            title: "Airlock",
            body: "Notifications work on this device.",
            promptId: "",
            pending: 0,
            tag: "airlock-test",
          }),
        ),
      );
      return c.json(
        { sent: statuses.filter((s) => s >= 200 && s < 300).length, subscriptions: rows.length },
        200,
      );
    },
  )
  .openapi(
    apiRoute("public", {
      method: "post",
      path: "/v1/push/answer",
      summary: "Answer one prompt from its notification's lock-screen button (Allow once / Deny)",
      description:
        "Authorized by the notification's answer token alone: it names one prompt and the approver device the push was encrypted to, and dies at the prompt's deadline. High-risk prompts get no buttons, and a high-risk allow is refused without its confirmation.",
      request: jsonRequest(PushAnswerRequest),
      responses: {
        200: json("Answered.", PushAnswerResult),
        403: problem(
          "forbidden: the token is invalid, expired or its device removed; confirmation_required.",
        ),
        409: problem("Already answered, expired or withdrawn."),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const prompt = await answerFromPush(c.env, body.token, body.decision);
      return c.json({ prompt_id: prompt.promptId, resolution: prompt.resolution }, 200);
    },
  );
