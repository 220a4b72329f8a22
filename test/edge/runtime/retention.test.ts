// The retention sweep (the Worker's cron trigger): rows past retention go in batches, newer ones stay,
// unfinished idempotency records are never removed, and what was removed is recorded and audited.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { desc, eq, inArray, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import {
  auditLog,
  idempotency,
  messages,
  retentionRuns,
  webhookDeliveries,
} from "../../../src/edge/db/schema.ts";
import worker from "../../../src/edge/index.ts";
import { RETENTION_BATCH, retentionDays, sweep } from "../../../src/edge/runtime/retention.ts";

const DAY = 86_400_000;

describe("retention", () => {
  it("deletes old rows in batches, keeps new and unfinished ones, and records the sweep", async () => {
    const db = openDb(env.DB);
    const now = Date.UTC(2032, 0, 1);
    const tag = crypto.randomUUID().slice(0, 8);
    const oldMessages = RETENTION_BATCH + 7;
    await db.run(sql`INSERT INTO messages (id, thread_id, user_id, seq, role, content, untrusted, created_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${oldMessages})
      SELECT 'msg_ret_' || ${tag} || '_' || i, ${`thr_ret_${tag}`}, 'usr_ret', i, 'user', 'old', 0, ${now - 31 * DAY}
      FROM n`);
    await db.insert(messages).values({
      id: `msg_ret_${tag}_new`,
      threadId: `thr_ret_${tag}`,
      userId: "usr_ret",
      seq: 100_000,
      role: "user",
      content: "new",
      createdAt: now - 29 * DAY,
    });
    const idem = (key: string, state: "executed" | "claimed", finishedAt: number | null) => ({
      ownerId: `usr_ret_${tag}`,
      toolName: "http.request",
      key,
      argsHash: "x",
      state,
      attempt: 1,
      leaseUntil: 0,
      startedAt: now - 100 * DAY,
      finishedAt,
    });
    await db
      .insert(idempotency)
      .values([idem("done", "executed", now - 91 * DAY), idem("stuck", "claimed", null)]);
    await db.insert(webhookDeliveries).values({
      hookId: `hk_ret_${tag}`,
      webhookId: "old",
      receivedAt: now - 91 * DAY,
      payloadHash: "x",
    });
    const report = await sweep(db, retentionDays("messages=30,bogus=3"), now);
    expect(report.removed.messages).toBeGreaterThanOrEqual(oldMessages);
    const left = await db
      .select()
      .from(messages)
      .where(like(messages.id, `msg_ret_${tag}_%`));
    expect(left.map((m) => m.content)).toEqual(["new"]);
    const keys = await db
      .select()
      .from(idempotency)
      .where(eq(idempotency.ownerId, `usr_ret_${tag}`));
    expect(keys.map((k) => k.key)).toEqual(["stuck"]);
    expect(
      await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.hookId, `hk_ret_${tag}`)),
    ).toEqual([]);
    const [run] = await db.select().from(retentionRuns).orderBy(desc(retentionRuns.startedAt)).limit(1);
    expect(JSON.parse(run?.removed ?? "{}").removed.messages).toBe(report.removed.messages);
    const audited = await db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.event, ["retention.removed"]));
    expect(audited.length).toBeGreaterThan(0);
  });

  it("runs from the Worker's cron trigger", async () => {
    const controller = createScheduledController({ scheduledTime: new Date(), cron: "17 3 * * *" });
    const ctx = createExecutionContext();
    worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);
    const runs = await openDb(env.DB).select().from(retentionRuns);
    expect(runs.length).toBeGreaterThan(0);
  });
});
