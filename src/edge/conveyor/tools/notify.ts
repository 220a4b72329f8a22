// notify (WRITE, to the user only): an in-app notification, stored and pushed to open dashboards;
// at most NOTIFY_PER_MINUTE a minute and NOTIFY_PER_DAY a day per user.
import { and, count, eq, gte } from "drizzle-orm";
import { z } from "zod";
import { newId } from "../../auth/crypto.ts";
import { notifications } from "../../db/schema.ts";
import { type ConveyorTool, failed } from "../tool.ts";

export const NOTIFY_PER_MINUTE = 5;
export const NOTIFY_PER_DAY = 100;

const Args = z.strictObject({
  title: z.string().trim().min(1).max(120),
  body: z.string().max(2000).default(""),
});
type Args = z.infer<typeof Args>;

async function sentSince(ctx: Parameters<ConveyorTool["execute"]>[1], since: number): Promise<number> {
  const rows = await ctx.db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, ctx.userId), gte(notifications.createdAt, since)));
  return rows[0]?.n ?? 0;
}

export const notify: ConveyorTool<Args> = {
  name: "notify",
  description: "Notify the person in the dashboard (rate-limited).",
  schema: Args,
  riskClass: () => "WRITE",
  external: false,
  idempotentDownstream: false,
  grantCoversHigh: false,
  summary: (a) => ({
    what: `Notify you: ${a.title}`,
    where: "your dashboards",
    impact: "A notification appears.",
  }),
  grantScope: () => "notify",
  timeoutMs: () => 5_000,
  async execute(a, ctx) {
    const now = ctx.now();
    if (
      (await sentSince(ctx, now - 60_000)) >= NOTIFY_PER_MINUTE ||
      (await sentSince(ctx, now - 86_400_000)) >= NOTIFY_PER_DAY
    ) {
      return failed(
        "permission_denied",
        `rate limited: at most ${NOTIFY_PER_MINUTE} a minute and ${NOTIFY_PER_DAY} a day`,
        {
          remediation: "Wait, or fold several updates into one notification.",
        },
      );
    }
    const id = newId("ntf");
    await ctx.db.insert(notifications).values({
      id,
      userId: ctx.userId,
      title: a.title,
      body: a.body,
      createdAt: now,
      proposalId: ctx.proposalId,
    });
    let delivered = false;
    if (ctx.notifyDashboards) {
      await ctx.notifyDashboards(a.title, a.body, id);
      delivered = true;
    }
    return {
      status: "executed",
      result: { notification_id: id, live: delivered },
      verification: {
        outcome: "passed",
        detail: delivered ? "stored and sent to open dashboards" : "stored",
      },
    };
  },
};
