// Many wakeups of one hub due at the same instant (bench/runtime/schedules.mjs: 10 per user): all are recorded
// in one D1 batch, not one each, the schedules move on (with their audit rows) in one more, and GET /v1/jobs lists every job they made.
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
  it("take three D1 round trips (a read, the records' batch, the moves' batch), each once, and GET /v1/jobs lists all ten jobs", async () => {
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
        // Counts the D1 round trips the alarm makes: batches, and statements on the schedules table run
        // alone (the started turns' own queries, on the same binding, are not the alarm's). The binding is
        // wrapped in place for this call only.
        const db = (hub as unknown as { env: { DB: D1Database } }).env.DB;
        const batch = db.batch.bind(db);
        const prepare = db.prepare.bind(db);
        const sizes: number[] = [];
        const alone: string[] = [];
        db.batch = (statements) => {
          sizes.push(statements.length);
          return batch(statements);
        };
        const counted = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
          const methods = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
          for (const name of ["all", "run", "raw", "first"]) {
            const original = methods[name]?.bind(statement);
            methods[name] = (...args: unknown[]) => {
              alone.push(query.slice(0, query.indexOf('"schedules"') + 11));
              return original?.(...args);
            };
          }
          const bind = statement.bind.bind(statement);
          statement.bind = (...values: unknown[]) => counted(bind(...values), query);
          return statement;
        };
        db.prepare = (query) =>
          query.includes('"schedules"') ? counted(prepare(query), query) : prepare(query);
        try {
          await hub.runtime.scheduler.onAlarm(due + 1);
        } finally {
          db.batch = batch;
          db.prepare = prepare;
        }
        expect(state.storage.sql.exec("SELECT count(*) AS n FROM runtime_schedule_due").one().n).toBe(0);
        return { sizes, alone };
      }),
    );
    // One read of the ten schedules, one batch of the ten records (about 7 statements each), one batch of
    // the ten moves (each its `schedule.fired` audit row and guarded update); the turns started are ten.
    expect(batches.alone).toHaveLength(1);
    expect(batches.alone[0]).toMatch(/^select .* from "schedules"$/);
    expect(batches.sizes).toHaveLength(2);
    expect(batches.sizes[1]).toBe(20);
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
