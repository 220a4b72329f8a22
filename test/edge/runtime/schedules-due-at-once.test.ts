// Many wakeups of one hub due at the same instant (bench/runtime/schedules.mjs: 10 per user): all are recorded
// in one D1 batch, not one each, and GET /v1/jobs lists every job they made.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { jobs, wakeupEvents } from "../../../src/edge/db/schema.ts";
import type { UserHub } from "../../../src/edge/hub/user-hub.ts";
import { createSchedule } from "../../../src/edge/runtime/schedule-store.ts";
import type { JobSummary } from "../../../src/protocol/runtime.ts";
import { device, runTurns } from "./support.ts";

const task = { instructions: "Say done." };

describe("ten schedules of one user due at the same instant", () => {
  it("are recorded in one D1 batch, each once, and GET /v1/jobs lists all ten jobs", async () => {
    const d = await device();
    const start = Date.UTC(2031, 0, 1, 12);
    const due = start + 60_000;
    const ids = await Promise.all(
      Array.from({ length: 10 }, async (_, k) => {
        const made = await createSchedule(
          openDb(env.DB),
          d.userId,
          { name: `s${k}`, kind: "at", at: new Date(due).toISOString(), timezone: "UTC", task },
          start,
        );
        if (!made.ok) throw new Error(JSON.stringify(made.problems));
        await d.hub.scheduleChanged({ userId: d.userId, deviceId: null }, made.row.id);
        return made.row.id;
      }),
    );
    const { value: batches, instances } = await runTurns(() =>
      runInDurableObject(d.hub, async (hub: UserHub, state) => {
        // Counts the D1 batches the alarm sends (the binding is wrapped in place for this call only).
        const db = (hub as unknown as { env: { DB: D1Database } }).env.DB;
        const batch = db.batch.bind(db);
        const sizes: number[] = [];
        db.batch = (statements) => {
          sizes.push(statements.length);
          return batch(statements);
        };
        try {
          await hub.runtime.scheduler.onAlarm(due + 1);
        } finally {
          db.batch = batch;
        }
        expect(state.storage.sql.exec("SELECT count(*) AS n FROM runtime_schedule_due").one().n).toBe(0);
        return sizes;
      }),
    );
    // One batch of the ten records (about 8 statements each); the turns started are ten.
    expect(batches).toHaveLength(1);
    expect(instances).toBe(10);
    const stored = await openDb(env.DB).select().from(jobs).where(eq(jobs.userId, d.userId));
    expect(stored).toHaveLength(10);
    expect(
      await openDb(env.DB).select().from(wakeupEvents).where(eq(wakeupEvents.userId, d.userId)),
    ).toHaveLength(10);
    const listed = (await (await d.get("/v1/jobs?limit=20")).json()) as { jobs: JobSummary[] };
    expect(listed.jobs.map((j) => j.trigger.ref).sort()).toEqual([...ids].sort());
  }, 60_000);
});
