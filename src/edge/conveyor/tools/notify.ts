// notify (WRITE, to the user only): an in-app notification, stored and pushed to open dashboards, within
// the person's notification rate limit (src/domain/notification-rate.ts).
import { z } from "zod";
import { NOTIFY_PER_DAY, NOTIFY_PER_MINUTE } from "../../../domain/notification-rate.ts";
import { addNotification } from "../../runtime/notifications.ts";
import { type ConveyorTool, failed } from "../tool.ts";

export { NOTIFY_PER_DAY, NOTIFY_PER_MINUTE };

const Args = z.strictObject({
  title: z.string().trim().min(1).max(120),
  body: z.string().max(2000).default(""),
});
type Args = z.infer<typeof Args>;

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
    const stored = await addNotification(
      ctx.db,
      { userId: ctx.userId, kind: "proactive", title: a.title, body: a.body, proposalId: ctx.proposalId },
      ctx.now(),
    );
    if (!stored) {
      return failed(
        "permission_denied",
        `rate limited: at most ${NOTIFY_PER_MINUTE} a minute and ${NOTIFY_PER_DAY} a day`,
        { remediation: "Wait, or fold several updates into one notification." },
      );
    }
    const id = stored.id;
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
