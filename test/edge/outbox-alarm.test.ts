// The alarm an outbox row arms (its safety deadline, SAFETY_DELAY_MS) is moved on once the outbox has drained,
// so the hub is not woken a second after every change to find nothing due. And the bound that move must keep:
// a row D1 refused keeps the alarm at or before its retry, so no audit row waits longer than the retry backoff
// (1 s doubling to at most 5 minutes, policy/deadlines.ts) for its next attempt.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CALL_RETENTION_MS } from "../../src/policy/deadlines.ts";
import { type Device, device, request } from "./approvals-helpers.ts";

const DAY_MS = 24 * 3_600_000;

/** A call that asks, answered once by the person over REST, its answer read back (the scale sim's prompt unit). */
async function promptAnswered(d: Device): Promise<void> {
  const call = request({ input: { path: `/work/repo/d/${crypto.randomUUID()}.md` } });
  const asked = (await (await d.decide(call)).json()) as { prompt_id?: string };
  expect(asked.prompt_id).toBeTruthy();
  expect((await d.post(`/v1/approvals/${asked.prompt_id}/approve`, { scope: "once" })).status).toBe(200);
  expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({ decision: "allow" });
}

/** Waits for the hub's outbox drain (RPC: shares the drain under way) and answers the alarm and the outbox. */
async function afterDrain(d: Device) {
  await d.hub.flushOutbox({ userId: d.userId, deviceId: null });
  return runInDurableObject(d.hub, async (_hub, state) => ({
    alarm: await state.storage.getAlarm(),
    rows: state.storage.sql
      .exec<{ attempts: number; next_attempt_at: number }>("SELECT attempts, next_attempt_at FROM outbox")
      .toArray(),
  }));
}

describe("the outbox's alarm", () => {
  it("moves on to the next deadline once the outbox has drained: no wake a second later for nothing", async () => {
    const d = await device();
    const before = Date.now();
    await promptAnswered(d);
    const { alarm, rows } = await afterDrain(d);
    expect(rows).toEqual([]);
    // Neither the safety deadline (+1 s) nor the decided call's old hold (+15 s): the call's retention.
    expect(alarm).not.toBeNull();
    expect(alarm ?? 0).toBeGreaterThanOrEqual(before + CALL_RETENTION_MS - DAY_MS);
    expect(alarm ?? 0).toBeLessThanOrEqual(Date.now() + CALL_RETENTION_MS);
  });

  it("stays at or before the retry of a row D1 refused, and the row arrives once D1 is back", async () => {
    const d = await device();
    await env.DB.exec("ALTER TABLE audit_log RENAME TO audit_log_away");
    let pending: { attempts: number; next_attempt_at: number }[] = [];
    try {
      await promptAnswered(d);
      const { alarm, rows } = await afterDrain(d);
      pending = rows;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.attempts >= 1)).toBe(true);
      const retry = Math.min(...rows.map((r) => r.next_attempt_at));
      expect(alarm).not.toBeNull();
      expect(alarm ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(retry);
      expect(retry).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    } finally {
      await env.DB.exec("ALTER TABLE audit_log_away RENAME TO audit_log");
    }
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_at = ?", Date.now() - 1);
    });
    await runDurableObjectAlarm(d.hub);
    const after = await afterDrain(d);
    expect(after.rows).toEqual([]);
    const audit = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE user_id = ?")
      .bind(d.userId)
      .first<{ n: number }>();
    expect(audit?.n ?? 0).toBeGreaterThanOrEqual(pending.length);
  });
});
