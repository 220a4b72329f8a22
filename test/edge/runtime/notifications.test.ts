// Notifications: a job waiting for approval is an intervention request, a finished job a proactive
// report; both are rate-limited per person with the notify tool; approvers only.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOTIFY_PER_MINUTE } from "../../../src/domain/notification-rate.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { addNotification } from "../../../src/edge/runtime/notifications.ts";
import type { NotificationView } from "../../../src/protocol/runtime.ts";
import { device, runTurns, script, startJob } from "./support.ts";

async function list(d: Awaited<ReturnType<typeof device>>, query = "") {
  const res = await d.get(`/v1/notifications${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { notifications: NotificationView[]; next_cursor: string | null };
}

describe("notifications", () => {
  it("a finished job reports proactively", async () => {
    const d = await device();
    const s = await script([{ text: "All green." }]);
    const { value } = await runTurns(() => startJob(d, `Check. ${s.marker}`, { title: "Status check" }));
    const { notifications } = await list(d);
    expect(notifications).toEqual([
      expect.objectContaining({
        kind: "proactive",
        title: "Done: Status check",
        body: "All green.",
        job_id: value.id,
      }),
    ]);
  });

  it("are rate-limited per person, newest first, paged; companions may not read them", async () => {
    const d = await device();
    const db = openDb(env.DB);
    const now = Date.now();
    const stored = [];
    for (let i = 0; i < NOTIFY_PER_MINUTE + 3; i++)
      stored.push(
        await addNotification(
          db,
          { userId: d.userId, kind: "intervention", title: `n${i}`, body: "" },
          now + i,
        ),
      );
    expect(stored.filter((n) => n !== null)).toHaveLength(NOTIFY_PER_MINUTE);
    const page = await list(d, "?limit=3");
    expect(page.notifications.map((n) => n.title)).toEqual(["n4", "n3", "n2"]);
    const rest = await list(d, `?limit=3&cursor=${encodeURIComponent(page.next_cursor ?? "")}`);
    expect(rest.notifications.map((n) => n.title)).toEqual(["n1", "n0"]);
    expect(rest.next_cursor).toBeNull();
    expect((await d.companion.get("/v1/notifications")).status).toBe(403);
  });
});
