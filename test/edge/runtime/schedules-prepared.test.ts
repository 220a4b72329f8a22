// A wakeup recorded ahead (PREPARE_LEAD_MS before its due time) and started by a timer at the due time: the
// hub's alarm is armed that lead early, the record (claim, job) is in D1 before anything starts, the turn
// starts only once the alarm's clock reached the due time, the alarm comes back BACKSTOP_MS after it, and an
// eviction that loses the timer neither loses the run nor makes it twice; a schedule paused in that gap
// never starts.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog, jobs, schedules, turns, wakeupEvents } from "../../../src/edge/db/schema.ts";
import type { UserHub } from "../../../src/edge/hub/user-hub.ts";
import { createSchedule } from "../../../src/edge/runtime/schedule-store.ts";
import {
  BACKSTOP_MS,
  HubScheduler,
  PREPARE_LEAD_MS,
  type SchedulerPorts,
} from "../../../src/edge/runtime/scheduler.ts";
import { type Device, device, patch, runTurns } from "./support.ts";

const task = { instructions: "Say done." };
const db = () => openDb(env.DB);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A one-shot schedule due at `due`, made as if at `start`, registered with the user's hub. */
async function oneShot(d: Device, start: number, due: number): Promise<string> {
  const made = await createSchedule(
    db(),
    d.userId,
    { name: "p", kind: "at", at: new Date(due).toISOString(), timezone: "UTC", task },
    start,
  );
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  await d.hub.scheduleChanged({ userId: d.userId, deviceId: null }, made.row.id);
  return made.row.id;
}

const jobsOf = (scheduleId: string) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.triggerKind, "schedule"), eq(jobs.triggerRef, scheduleId)));
const wakeupsOf = (scheduleId: string) =>
  db().select().from(wakeupEvents).where(eq(wakeupEvents.scheduleId, scheduleId));
const firedOf = (scheduleId: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.event, "schedule.fired"), eq(auditLog.target, scheduleId)));

/** A scheduler on the hub's own storage with test ports (a second instance: what a restarted hub has). */
function scheduler(d: Device, storage: DurableObjectStorage, ports: Partial<SchedulerPorts>): HubScheduler {
  return new HubScheduler({ sql: storage.sql, db: db(), env, userId: () => d.userId, ...ports });
}

describe("a wakeup recorded ahead of its due time", () => {
  it("arms the hub's alarm PREPARE_LEAD_MS early, records before the due time, starts at it by a timer, never before", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const due = start + 60_000;
    const id = await oneShot(d, start, due);
    const { starts, gap, relaxed, after } = await runInDurableObject(d.hub, async (_hub: UserHub, state) => {
      expect(await state.storage.getAlarm()).toBe(due - PREPARE_LEAD_MS);
      const starts: string[] = [];
      let relaxed = 0;
      const gap: { jobs: number; claimed: boolean; starts: number; fired: number }[] = [];
      const timers: Promise<unknown>[] = [];
      const s = scheduler(d, state.storage, {
        startTurn: async (turnId) => {
          starts.push(turnId);
        },
        relax: async () => {
          relaxed++;
        },
        // The timer for the due time, set after the record: what D1 holds then, and the run after `ms`.
        later: (ms, run) => {
          timers.push(
            (async () => {
              const claims = await wakeupsOf(id);
              gap.push({
                jobs: (await jobsOf(id)).length,
                claimed: claims.length === 1 && claims[0]?.jobId !== null,
                starts: starts.length,
                fired: (await firedOf(id)).length,
              });
              await sleep(ms);
              await run();
            })(),
          );
        },
      });
      // The alarm as if it ran 300 ms before the due time: it records and returns, starting nothing.
      expect(await s.onAlarm(due - 300)).toBe(0);
      expect(s.nextWake()).toBe(due + BACKSTOP_MS);
      expect(relaxed).toBe(0);
      await Promise.all(timers);
      // Started by the timer: the backstop is owed nothing, and the hub's alarm was told it may move on.
      return { starts, gap, relaxed, after: s.nextWake() };
    });
    expect(relaxed).toBe(1);
    expect(after).toBeNull();
    expect(gap).toHaveLength(1);
    expect(gap[0]).toEqual({ jobs: 1, claimed: true, starts: 0, fired: 0 });
    const [job] = await jobsOf(id);
    expect(starts).toEqual([job?.turnId]);
    // The audit row carries the start's time, on the alarm's clock: at or after the due time.
    const fired = await firedOf(id);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.at).toBeGreaterThanOrEqual(due);
    expect(fired[0]?.at).toBeLessThan(due + 60_000);
    expect(JSON.parse(fired[0]?.details ?? "{}")).toMatchObject({
      job_id: job?.id,
      start_ms: expect.any(Number),
    });
    const [row] = await db().select().from(schedules).where(eq(schedules.id, id));
    expect(row).toMatchObject({ nextRunAt: null, lastRunAt: due, lastJobId: job?.id });
  });

  it("an eviction that loses the timer between the record and the start neither loses the run nor makes it twice", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const due = start + 60_000;
    const id = await oneShot(d, start, due);
    await runInDurableObject(d.hub, async (_hub: UserHub, state) => {
      // The timer is set and never runs: the hub is evicted before the due time.
      const s = scheduler(d, state.storage, { later: () => undefined });
      expect(await s.onAlarm(due - 200)).toBe(0);
      // Recorded, not started, still due.
      const due_ = state.storage.sql.exec("SELECT due_at FROM runtime_schedule_due").toArray();
      expect(due_).toEqual([{ due_at: due }]);
    });
    expect(await jobsOf(id)).toHaveLength(1);
    expect(await firedOf(id)).toHaveLength(0);
    await evictDurableObject(d.hub);
    // The restarted hub's alarm (the backstop, after the due time), twice at once: it records again (nothing
    // new in D1) and starts once.
    const { instances } = await runTurns(() =>
      runInDurableObject(d.hub, async (hub: UserHub) => {
        await Promise.all([hub.runtime.scheduler.onAlarm(due + 1), hub.runtime.scheduler.onAlarm(due + 1)]);
      }),
    );
    expect(instances).toBe(1);
    expect(await jobsOf(id)).toHaveLength(1);
    expect(await wakeupsOf(id)).toEqual([expect.objectContaining({ dueAt: due, kind: "scheduled" })]);
    expect(await firedOf(id)).toHaveLength(1);
    const [row] = await db().select().from(schedules).where(eq(schedules.id, id));
    expect(row?.nextRunAt).toBeNull();
  });

  it("a schedule paused between its record and its due time never starts: its prepared job is withdrawn", async () => {
    const d = await device();
    const start = Date.now();
    const due = start + 600_000;
    const id = await oneShot(d, start, due);
    const starts = await runInDurableObject(d.hub, async (_hub: UserHub, state) => {
      const starts: string[] = [];
      const timers: Promise<unknown>[] = [];
      const s = scheduler(d, state.storage, {
        startTurn: async (turnId) => {
          starts.push(turnId);
        },
        // The person pauses the schedule after the record, before the due time.
        later: (ms, run) => {
          timers.push(
            (async () => {
              expect((await patch(d, `/v1/schedules/${id}`, { paused: true })).status).toBe(200);
              await sleep(ms);
              await run();
            })(),
          );
        },
      });
      expect(await s.onAlarm(due - 200)).toBe(0);
      await Promise.all(timers);
      return starts;
    });
    expect(starts).toEqual([]);
    const [job] = await jobsOf(id);
    const [turn] = await db()
      .select()
      .from(turns)
      .where(eq(turns.id, job?.turnId ?? ""));
    expect(turn?.state).toBe("cancelled");
    expect(JSON.parse(turn?.error ?? "{}")).toMatchObject({ code: "CANCELLED" });
    expect(await firedOf(id)).toHaveLength(0);
    const [row] = await db().select().from(schedules).where(eq(schedules.id, id));
    expect(row).toMatchObject({ paused: true, lastJobId: null });
  });
});
