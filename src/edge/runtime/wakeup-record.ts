// One schedule wakeup's D1 record, built unsent so a hub's due wakeups travel in few batches: the claim of
// its (schedule, due time), the job it starts (id derived from both, so a retry makes nothing twice), the
// claim's link to the job; then, once the turn started, the `schedule.fired` audit row (its time is the
// start's) and the guarded move of the schedule to its next wakeup, in one batch so each happens once.
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { planWakeup } from "../../domain/schedule.ts";
import { auditInsertWhere, writeAudit } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { schedules, wakeupEvents } from "../db/schema.ts";
import { derivedJobId, jobWrites } from "./jobs.ts";
import { type ScheduleRow, specOf, taskOf } from "./schedule-store.ts";

export interface WakeupRecord {
  scheduleId: string;
  /** The due time the hub's table held for it: the guard of the schedule's move. */
  dueAt: number;
  /** The job's turn to start (null: the wakeup was skipped, past the catch-up window). */
  turnId: string | null;
  /** The record's D1 writes, unsent (none when skipped: the skip is written at once). */
  writes: BatchItem<"sqlite">[];
  /**
   * After the turn's start, asked for at `startedAt` and returned `startMs` later: the `schedule.fired` audit
   * row (`before`; none for a skip; its time is `startedAt`, `start_ms` in its details) and the schedule's
   * guarded `move`, unsent, to go in one batch in that order: the row is written only with the move.
   */
  advance: (startedAt: number, startMs: number) => { before: BatchItem<"sqlite">[]; move: AdvanceQuery };
}

export type AdvanceQuery = BatchItem<"sqlite"> & PromiseLike<{ nextRunAt: number | null; paused: boolean }[]>;

/**
 * The record of the wakeup of `s` due at `dueAt`, handled at `now` (before the due time when prepared ahead:
 * the catch-up rule then sees the due time itself).
 */
export async function wakeupRecord(
  db: Db,
  s: ScheduleRow,
  dueAt: number,
  now: number,
): Promise<WakeupRecord> {
  const scheduleId = s.id;
  const plan = planWakeup(specOf(s), dueAt, Math.max(now, dueAt));
  const userId = s.userId;
  let jobId: string | null = null;
  let turnId: string | null = null;
  const writes: BatchItem<"sqlite">[] = [];
  if (plan.run !== null) {
    const runAt = plan.run;
    // When the record was written (up to the prepare lead before the due time); the turn's start, asked
    // for never before the due time, is the audit row's time.
    const recordedAt = Date.now();
    jobId = await derivedJobId(scheduleId, String(runAt));
    const job = jobWrites(db, {
      id: jobId,
      userId,
      task: taskOf(s),
      trigger: { kind: "schedule", ref: scheduleId },
      now: recordedAt,
    });
    // The claim, the job (made even when the claim exists: a crash after it left the job unmade or
    // unstarted) and the claim's link to the job.
    writes.push(
      db
        .insert(wakeupEvents)
        .values({
          scheduleId,
          dueAt: runAt,
          userId,
          kind: runAt === dueAt ? "scheduled" : "catch_up",
          skipped: plan.skipped,
          firedAt: recordedAt,
        })
        .onConflictDoNothing(),
      job.insert,
      ...job.rest,
      db
        .update(wakeupEvents)
        .set({ jobId })
        .where(and(eq(wakeupEvents.scheduleId, scheduleId), eq(wakeupEvents.dueAt, runAt))),
    );
    turnId = job.turnId;
  } else {
    const skipped = await db
      .insert(wakeupEvents)
      .values({ scheduleId, dueAt, userId, kind: "skipped", skipped: plan.skipped, firedAt: Date.now() })
      .onConflictDoNothing()
      .returning();
    if (skipped.length)
      await writeAudit(db, {
        userId,
        actor: `schedule:${scheduleId}`,
        event: "schedule.skipped",
        target: scheduleId,
        details: {
          due_at: new Date(dueAt).toISOString(),
          skipped: plan.skipped,
          reason: "past the catch-up window",
        },
      });
  }
  const stillDue = and(eq(schedules.id, scheduleId), eq(schedules.nextRunAt, dueAt));
  const advance = (startedAt: number, startMs: number) => ({
    // A skip started nothing: it was audited when it was written.
    before:
      plan.run === null
        ? []
        : [
            auditInsertWhere(
              db,
              {
                userId,
                actor: `schedule:${scheduleId}`,
                event: "schedule.fired",
                target: scheduleId,
                details: {
                  due_at: new Date(plan.run).toISOString(),
                  job_id: jobId,
                  skipped: plan.skipped,
                  start_ms: startMs,
                },
                at: startedAt,
              },
              sql`EXISTS (SELECT 1 FROM ${schedules} WHERE ${stillDue})`,
            ),
          ],
    move: db
      .update(schedules)
      .set({
        nextRunAt: plan.next,
        updatedAt: startedAt,
        ...(plan.run !== null ? { lastRunAt: plan.run, lastJobId: jobId } : {}),
      })
      .where(stillDue)
      .returning({ nextRunAt: schedules.nextRunAt, paused: schedules.paused }),
  });
  return { scheduleId, dueAt, turnId, writes, advance };
}
