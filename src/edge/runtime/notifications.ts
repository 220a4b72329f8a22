// Notifications for the person: intervention requests (a job waits for an approval) and proactive reports
// (a job finished, the notify tool). One rate limit for all of them (src/domain/notification-rate.ts).
import { and, count, desc, eq, gte, lt, or } from "drizzle-orm";
import { notificationAllowed } from "../../domain/notification-rate.ts";
import type { NotificationView } from "../../protocol/runtime.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { notifications } from "../db/schema.ts";

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  kind: NotificationRow["kind"];
  title: string;
  body: string;
  jobId?: string | null;
  proposalId?: string | null;
}

async function sentSince(db: Db, userId: string, since: number): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gte(notifications.createdAt, since)));
  return rows[0]?.n ?? 0;
}

/** Stores a notification unless the person's rate limit is reached (then null: nothing is stored). */
export async function addNotification(
  db: Db,
  n: NewNotification,
  now: number,
): Promise<NotificationRow | null> {
  const allowed = notificationAllowed(
    await sentSince(db, n.userId, now - 60_000),
    await sentSince(db, n.userId, now - 86_400_000),
  );
  if (!allowed) return null;
  const row: NotificationRow = {
    id: newId("ntf"),
    userId: n.userId,
    kind: n.kind,
    title: n.title.slice(0, 120),
    body: n.body.slice(0, 2000),
    createdAt: now,
    readAt: null,
    proposalId: n.proposalId ?? null,
    jobId: n.jobId ?? null,
  };
  await db.insert(notifications).values(row);
  return row;
}

/** Newest first; the cursor is `<created_at>.<id>` of the last one on the previous page. */
export async function listNotifications(
  db: Db,
  userId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ rows: NotificationRow[]; next: string | null }> {
  const [at, id] = cursor ? [Number(cursor.split(".")[0]), cursor.slice(cursor.indexOf(".") + 1)] : [];
  const where =
    at !== undefined && id !== undefined && Number.isFinite(at)
      ? and(
          eq(notifications.userId, userId),
          or(lt(notifications.createdAt, at), and(eq(notifications.createdAt, at), lt(notifications.id, id))),
        )
      : eq(notifications.userId, userId);
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? `${last.createdAt}.${last.id}` : null };
}

export function notificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    job_id: row.jobId,
    proposal_id: row.proposalId,
    created_at: new Date(row.createdAt).toISOString(),
    read_at: row.readAt === null ? null : new Date(row.readAt).toISOString(),
  };
}
