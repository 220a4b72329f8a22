// Notifications for the person: intervention requests and proactive reports, newest first. Approvers only.
import { z } from "zod";
import { NotificationListQuery, NotificationView } from "../../protocol/runtime.ts";
import { openDb } from "../db/client.ts";
import { listNotifications, notificationView } from "../runtime/notifications.ts";
import { apiRoute, json, routeGroup } from "./define.ts";

export const notificationRoutes = routeGroup().openapi(
  apiRoute("read_notifications", {
    method: "get",
    path: "/v1/notifications",
    summary:
      "Intervention requests and proactive messages, newest first (at most 5 a minute, 100 a day are sent)",
    request: { query: NotificationListQuery },
    responses: {
      200: json(
        "A page; next_cursor fetches older ones.",
        z.object({ notifications: z.array(NotificationView), next_cursor: z.string().nullable() }),
      ),
    },
  }),
  async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const { rows, next } = await listNotifications(openDb(c.env.DB), c.get("auth").userId, limit, cursor);
    return c.json({ notifications: rows.map(notificationView), next_cursor: next }, 200);
  },
);
