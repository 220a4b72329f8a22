// Schedules through the API and the user's UserHub: the POST/GET/PATCH/run-now contracts, wakeups fired by
// the hub's alarm (deduplicated: one row and one job per schedule and due time), cron across DST in two
// zones, interval drift, the catch-up rule, pause/resume, run-now, eviction.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { jobs, wakeupEvents } from "../../../src/edge/db/schema.ts";
import type { UserHub } from "../../../src/edge/hub/user-hub.ts";
import { createSchedule } from "../../../src/edge/runtime/schedule-store.ts";
import type { CreateScheduleRequest, ScheduleView } from "../../../src/protocol/runtime.ts";
import { errorOf } from "../helpers.ts";
import { device, patch, runTurns } from "./support.ts";

type Device = Awaited<ReturnType<typeof device>>;
const task = { instructions: "Check the status page and tell me what changed." };
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function create(d: Device, body: Record<string, unknown>) {
  const res = await d.post("/v1/schedules", { name: "Morning check", task, ...body });
  return { status: res.status, body: (await res.json()) as { id: string; next_run_at: string | null } };
}

async function schedule(d: Device, id: string): Promise<ScheduleView> {
  const { schedules } = (await (await d.get("/v1/schedules")).json()) as { schedules: ScheduleView[] };
  const found = schedules.find((s) => s.id === id);
  if (!found) throw new Error(`no schedule ${id}`);
  return found;
}

async function jobsOf(scheduleId: string) {
  return openDb(env.DB)
    .select()
    .from(jobs)
    .where(and(eq(jobs.triggerKind, "schedule"), eq(jobs.triggerRef, scheduleId)));
}

async function wakeups(scheduleId: string) {
  return openDb(env.DB).select().from(wakeupEvents).where(eq(wakeupEvents.scheduleId, scheduleId));
}

/** The hub's alarm handling as if it ran at `now` (jobs it starts run to completion). */
async function fireAt(d: Device, now: number | Date, times = 1): Promise<void> {
  const at = typeof now === "number" ? now : now.getTime();
  await runTurns(() =>
    runInDurableObject(d.hub, async (hub: UserHub) => {
      await Promise.all(Array.from({ length: times }, () => hub.runtime.scheduler.onAlarm(at)));
    }),
  );
}

/** A schedule created as if at `now` (the API uses the real clock), registered with the user's hub. */
async function createAt(d: Device, req: CreateScheduleRequest, now: number): Promise<string> {
  const made = await createSchedule(openDb(env.DB), d.userId, req, now);
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  await d.hub.scheduleChanged({ userId: d.userId, deviceId: null }, made.row.id);
  return made.row.id;
}

describe("POST /v1/schedules", () => {
  it("answers {id, next_run_at} with next_run_at an RFC 3339 UTC time, for each kind", async () => {
    const d = await device();
    const cron = await create(d, { kind: "cron", cron: "0 9 * * *", timezone: "Europe/Berlin" });
    expect(cron.status).toBe(201);
    expect(Object.keys(cron.body).sort()).toEqual(["id", "next_run_at"]);
    expect(cron.body.next_run_at).toMatch(RFC3339_UTC);
    expect(new Date(cron.body.next_run_at ?? "").getUTCMinutes()).toBe(0);
    expect([7, 8]).toContain(new Date(cron.body.next_run_at ?? "").getUTCHours());
    const every = await create(d, { kind: "interval", every_seconds: 3600 });
    expect(Date.parse(every.body.next_run_at ?? "") - Date.now()).toBeGreaterThan(3_500_000);
    const at = await create(d, { kind: "at", at: "2030-01-02T09:00:00", timezone: "America/New_York" });
    expect(at.body.next_run_at).toBe("2030-01-02T14:00:00.000Z");
    expect((await schedule(d, cron.body.id)).timezone).toBe("Europe/Berlin");
  });

  it.each([
    [{ kind: "cron", cron: "61 * * * *" }, "cron"],
    [{ kind: "cron", cron: "0 9 * * *", timezone: "Mars/Olympus" }, "timezone"],
    [{ kind: "at", at: "2020-01-01T00:00:00Z" }, "at"],
    [{ kind: "interval", every_seconds: 5 }, "every_seconds"],
    [{ kind: "interval", cron: "0 9 * * *" }, "every_seconds"],
    [{ kind: "at" }, "at"],
  ])("refuses %j with a 400 naming %s, and stores nothing", async (body, field) => {
    const d = await device();
    const res = await create(d, body);
    expect(res.status).toBe(400);
    const problems = (res.body as unknown as { error: { details: { path: string }[] } }).error.details;
    expect(problems.map((p) => p.path)).toContain(field);
    const { schedules } = (await (await d.get("/v1/schedules")).json()) as { schedules: unknown[] };
    expect(schedules).toEqual([]);
  });

  it("is for approvers only", async () => {
    const d = await device();
    const res = await d.companion.post("/v1/schedules", {
      name: "x",
      kind: "interval",
      every_seconds: 60,
      task,
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("forbidden");
  });
});

describe("wakeups", () => {
  it("the hub's alarm fires a due schedule once, however many alarms run for it", async () => {
    const d = await device();
    // A one-shot due a moment ago runs at the next alarm.
    const { body } = await create(d, { kind: "at", at: new Date(Date.now() - 20_000).toISOString() });
    await runTurns(() => runDurableObjectAlarm(d.hub));
    const due = Date.parse(body.next_run_at ?? "");
    await fireAt(d, due + 1, 3);
    await runTurns(() => runDurableObjectAlarm(d.hub));
    expect(await jobsOf(body.id)).toHaveLength(1);
    expect(await wakeups(body.id)).toEqual([expect.objectContaining({ kind: "scheduled", dueAt: due })]);
    const view = await schedule(d, body.id);
    expect(view).toMatchObject({ state: "finished", next_run_at: null });
    expect(view.last_job_id).toBe((await jobsOf(body.id))[0]?.id);
  });

  it("survives the hub's eviction: the next wakeup is kept in its storage", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const id = await createAt(
      d,
      { name: "e", kind: "interval", every_seconds: 600, timezone: "UTC", task },
      start,
    );
    await evictDurableObject(d.hub);
    await fireAt(d, start + 600_000);
    expect(await jobsOf(id)).toHaveLength(1);
  });

  it("an interval keeps its grid when alarms run late (no drift), with 0 duplicate runs", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const id = await createAt(
      d,
      { name: "i", kind: "interval", every_seconds: 300, timezone: "UTC", task },
      start,
    );
    const lateness = [0, 17_000, 123_000, 4_000, 250_000];
    for (const [k, late] of lateness.entries()) {
      const due = start + (k + 1) * 300_000;
      expect((await schedule(d, id)).next_run_at).toBe(new Date(due).toISOString());
      await fireAt(d, due + late, 2);
    }
    const rows = await wakeups(id);
    expect(rows.map((r) => r.dueAt).sort()).toEqual(lateness.map((_, k) => start + (k + 1) * 300_000));
    expect(await jobsOf(id)).toHaveLength(lateness.length);
  });

  it("catch-up: after an outage the latest missed run is made up once; older than an hour is skipped", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const id = await createAt(
      d,
      { name: "c", kind: "interval", every_seconds: 60, timezone: "UTC", task },
      start,
    );
    // Down for 10 minutes: one run for the latest occurrence, standing for the 10 missed.
    await fireAt(d, start + 60_000 + 600_000 + 5_000);
    let rows = await wakeups(id);
    expect(rows).toEqual([
      expect.objectContaining({ kind: "catch_up", dueAt: start + 660_000, skipped: 10 }),
    ]);
    expect((await schedule(d, id)).next_run_at).toBe(new Date(start + 720_000).toISOString());
    // A two-hourly schedule whose only missed run is 90 minutes old: past the window, skipped.
    const slow = await createAt(
      d,
      { name: "s", kind: "interval", every_seconds: 7200, timezone: "UTC", task },
      start,
    );
    await fireAt(d, start + 7_200_000 + 90 * 60_000);
    rows = await wakeups(slow);
    expect(rows).toEqual([
      expect.objectContaining({ kind: "skipped", jobId: null, dueAt: start + 7_200_000 }),
    ]);
    expect(await jobsOf(slow)).toHaveLength(0);
    expect((await schedule(d, slow)).next_run_at).toBe(new Date(start + 14_400_000).toISOString());
    // The every-minute one was down all that time too: one more made-up run, not 90.
    expect(await jobsOf(id)).toHaveLength(2);
  });

  it.each([
    // US spring-forward (2031-03-09) and fall-back (2031-11-02); 02:30 does not exist on the first.
    [
      "America/New_York",
      Date.UTC(2031, 2, 7, 12),
      ["2031-03-08T07:30:00.000Z", "2031-03-09T07:00:00.000Z", "2031-03-10T06:30:00.000Z"],
    ],
    [
      "America/New_York",
      Date.UTC(2031, 9, 31, 12),
      ["2031-11-01T06:30:00.000Z", "2031-11-02T07:30:00.000Z", "2031-11-03T07:30:00.000Z"],
    ],
    // EU: 2031-03-30 (02:30 does not exist) and 2031-10-26 (02:30 happens twice: it runs at the first).
    [
      "Europe/Berlin",
      Date.UTC(2031, 2, 28, 12),
      ["2031-03-29T01:30:00.000Z", "2031-03-30T01:00:00.000Z", "2031-03-31T00:30:00.000Z"],
    ],
    [
      "Europe/Berlin",
      Date.UTC(2031, 9, 24, 12),
      ["2031-10-25T00:30:00.000Z", "2031-10-26T00:30:00.000Z", "2031-10-27T01:30:00.000Z"],
    ],
  ])(
    "cron 02:30 daily in %s across a DST change runs once a day, at the documented instants",
    async (tz, start, expected) => {
      const d = await device();
      const id = await createAt(
        d,
        { name: "dst", kind: "cron", cron: "30 2 * * *", timezone: tz, task },
        start,
      );
      const fired: string[] = [];
      for (let i = 0; i < expected.length; i++) {
        const next = (await schedule(d, id)).next_run_at ?? "";
        fired.push(next);
        await fireAt(d, Date.parse(next) + 1, 2);
      }
      expect(fired).toEqual(expected);
      expect(await jobsOf(id)).toHaveLength(expected.length);
      expect(new Set((await wakeups(id)).map((r) => r.dueAt)).size).toBe(expected.length);
    },
  );
});

describe("PATCH and run-now", () => {
  it("pause stops wakeups (missed ones are not made up); resume starts again from now", async () => {
    const d = await device();
    const { body } = await create(d, { kind: "interval", every_seconds: 120 });
    const paused = await patch(d, `/v1/schedules/${body.id}`, { paused: true });
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as { schedule: ScheduleView }).schedule).toMatchObject({
      state: "paused",
      next_run_at: null,
    });
    await fireAt(d, Date.now() + 600_000);
    expect(await jobsOf(body.id)).toHaveLength(0);
    const resumed = await patch(d, `/v1/schedules/${body.id}`, { paused: false });
    const view = ((await resumed.json()) as { schedule: ScheduleView }).schedule;
    expect(view.state).toBe("active");
    expect(Date.parse(view.next_run_at ?? "")).toBeGreaterThan(Date.now());
  });

  it("edits the timing and the task; bad edits are 400 and change nothing", async () => {
    const d = await device();
    const { body } = await create(d, { kind: "interval", every_seconds: 120 });
    const edited = await patch(d, `/v1/schedules/${body.id}`, {
      kind: "cron",
      cron: "15 6 * * 1",
      timezone: "Asia/Tokyo",
      name: "Monday",
    });
    expect(((await edited.json()) as { schedule: ScheduleView }).schedule).toMatchObject({
      kind: "cron",
      cron: "15 6 * * 1",
      every_seconds: null,
      name: "Monday",
    });
    const bad = await patch(d, `/v1/schedules/${body.id}`, { kind: "cron", cron: "nope" });
    expect(bad.status).toBe(400);
    expect((await schedule(d, body.id)).cron).toBe("15 6 * * 1");
    expect((await patch(d, "/v1/schedules/sch_AAAAAAAAAAAAAAAA", {})).status).toBe(404);
  });

  it("run-now answers the started job's id; the regular next run is unchanged", async () => {
    const d = await device();
    const { body } = await create(d, { kind: "interval", every_seconds: 3600 });
    const { value } = await runTurns(async () => d.post(`/v1/schedules/${body.id}/run-now`));
    expect(value.status).toBe(202);
    const { job_id } = (await value.json()) as { job_id: string };
    const job = (await (await d.get(`/v1/jobs/${job_id}`)).json()) as {
      job: { trigger: unknown; state: string };
    };
    expect(job.job).toMatchObject({ trigger: { kind: "schedule", ref: body.id }, state: "succeeded" });
    expect((await schedule(d, body.id)).next_run_at).toBe(body.next_run_at);
    expect(await wakeups(body.id)).toEqual([expect.objectContaining({ kind: "manual", jobId: job_id })]);
  });
});
