// The user's schedules inside their UserHub: a local table of each active schedule's next wakeup feeds
// the hub's one alarm; a due wakeup claims its (schedule, due time) row in D1, starts the job whose id is
// derived from it, and advances the schedule with a guarded update. Every step is idempotent, so a retried
// alarm, two alarms at once or a crash halfway never start a run twice.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { planWakeup } from "../../policy/schedule.ts";
import { auditInsertWhere, writeAudit } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { schedules, wakeupEvents } from "../db/schema.ts";
import { DUE_SLACK_MS } from "../hub/schedule.ts";
import { derivedJobId, jobWrites } from "./jobs.ts";
import { type ScheduleRow, specOf, taskOf } from "./schedule-store.ts";
import { startTurn } from "./turn-events.ts";

/** Wakeups handled per alarm; more re-arm the alarm at once. */
const PER_ALARM = 200;
/** Turns started at once within one alarm (a hub's 10 due at once all start together). */
const FIRE_CONCURRENCY = 16;
/** Wakeups recorded per D1 batch (each is about 8 statements). */
const RECORD_GROUP = 25;
/** Schedules moved on per D1 batch (one guarded update each). */
const ADVANCE_GROUP = 50;
/** Schedule ids per D1 read. */
const READ_GROUP = 90;

export interface SchedulerPorts {
  sql: SqlStorage;
  db: Db;
  env: Env;
  userId: () => string;
  /** Starts a job's turn (tests count calls); default: its Workflow instance. */
  startTurn?: (turnId: string) => Promise<void>;
}

export class HubScheduler {
  private readonly ports: SchedulerPorts;
  /** Alarm runs one after another: a second one waits, then finds the wakeups already handled. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(ports: SchedulerPorts) {
    this.ports = ports;
  }

  static migrate(sql: SqlStorage): void {
    sql.exec(`CREATE TABLE IF NOT EXISTS runtime_schedule_due (
      schedule_id TEXT PRIMARY KEY,
      due_at INTEGER NOT NULL
    )`);
  }

  /** The earliest wakeup this hub owes, for its alarm. */
  nextDue(): number | null {
    return (
      this.ports.sql
        .exec<{ at: number | null }>(`SELECT MIN(due_at) AS at FROM runtime_schedule_due`)
        .toArray()[0]?.at ?? null
    );
  }

  private mirror(scheduleId: string, next: number | null): void {
    if (next === null)
      this.ports.sql.exec(`DELETE FROM runtime_schedule_due WHERE schedule_id = ?`, scheduleId);
    else
      this.ports.sql.exec(
        `INSERT INTO runtime_schedule_due (schedule_id, due_at) VALUES (?, ?)
         ON CONFLICT (schedule_id) DO UPDATE SET due_at = excluded.due_at`,
        scheduleId,
        next,
      );
  }

  private async row(scheduleId: string): Promise<ScheduleRow | undefined> {
    return (
      await this.ports.db
        .select()
        .from(schedules)
        .where(and(eq(schedules.id, scheduleId), eq(schedules.userId, this.ports.userId())))
    )[0];
  }

  /** Re-reads one schedule from D1 (the record) into the local table; answers its next wakeup. */
  async refresh(scheduleId: string): Promise<number | null> {
    const row = await this.row(scheduleId);
    const next = row && !row.paused ? row.nextRunAt : null;
    this.mirror(scheduleId, next);
    return next;
  }

  /** Handles every wakeup due by `now`; answers how many jobs it started. */
  onAlarm(now = Date.now()): Promise<number> {
    const run = this.running.then(() => this.handleDue(now));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async handleDue(now: number): Promise<number> {
    const due = this.ports.sql
      .exec<{ schedule_id: string; due_at: number }>(
        `SELECT schedule_id, due_at FROM runtime_schedule_due WHERE due_at <= ? ORDER BY due_at LIMIT ?`,
        now + DUE_SLACK_MS,
        PER_ALARM,
      )
      .toArray();
    // Two passes: every due wakeup's job is recorded first (what lateness is about), then the turns start
    // and the schedules move on. Starting a Workflow is the slow part, and with it inside each wakeup the
    // last of many due at once was recorded seconds late. A wakeup still moves its schedule only after its
    // turn started. The records of all due wakeups travel together (one read, a batch per RECORD_GROUP):
    // with a batch per wakeup, the 9th of 10 due at once waited behind the first 8 batches in D1's queue.
    const recorded = await this.recordAll(due, now);
    // Every turn starts (at once, bounded), then the schedules whose turn started move on together in one
    // D1 batch: an update each, awaited one by one, was ten more round trips per hub in D1's queue in front
    // of the next hubs' records.
    const started = await this.each(recorded, async (r) => {
      await r.start();
      return r;
    });
    const moved = started.filter((r): r is Recorded => r !== undefined);
    await this.advanceAll(moved);
    return moved.filter((r) => r.ran).length;
  }

  /**
   * Moves the schedules of started turns on (a guarded update each, ADVANCE_GROUP to a D1 batch) and the
   * local table after them; a schedule someone changed meanwhile is re-read. A batch D1 refuses is sent
   * again schedule by schedule; one that still fails stays due, and the alarm retries it (its claim and
   * job are keyed, its turn's start is a no-op the second time).
   */
  private async advanceAll(recorded: readonly Recorded[]): Promise<void> {
    const { db } = this.ports;
    const settled: { r: Recorded; moved: { nextRunAt: number | null; paused: boolean } | undefined }[] = [];
    for (let i = 0; i < recorded.length; i += ADVANCE_GROUP) {
      const group = recorded.slice(i, i + ADVANCE_GROUP);
      const [first, ...rest] = group.map((r) => r.advance);
      if (!first) continue;
      try {
        const results = await db.batch([first, ...rest]);
        for (const [k, r] of group.entries()) settled.push({ r, moved: results[k]?.[0] });
      } catch {
        for (const r of group) {
          try {
            settled.push({ r, moved: (await r.advance)[0] });
          } catch (error) {
            console.error("[HubScheduler.fire]", error);
          }
        }
      }
    }
    // Moved as planned: the local table follows without reading D1 again (finished ones in one delete).
    const finished: string[] = [];
    for (const { r, moved } of settled) {
      if (!moved) await this.refresh(r.scheduleId);
      else if (moved.paused || moved.nextRunAt === null) finished.push(r.scheduleId);
      else this.mirror(r.scheduleId, moved.nextRunAt);
    }
    for (let i = 0; i < finished.length; i += READ_GROUP) {
      const ids = finished.slice(i, i + READ_GROUP);
      this.ports.sql.exec(
        `DELETE FROM runtime_schedule_due WHERE schedule_id IN (${ids.map(() => "?").join(", ")})`,
        ...ids,
      );
    }
  }

  /** Runs `work` over `items`, FIRE_CONCURRENCY at a time; a failure is logged and leaves its wakeup due. */
  private async each<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<(R | undefined)[]> {
    const out: (R | undefined)[] = [];
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        try {
          out[i] = await work(items[i] as T);
        } catch (error) {
          // One schedule's failure must not hold back the others; its row stays due, the alarm retries it.
          console.error("[HubScheduler.fire]", error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FIRE_CONCURRENCY, items.length) }, worker));
    return out;
  }

  /** The due schedules' D1 rows, in reads of at most READ_GROUP ids (D1 binds at most 100 parameters). */
  private async rows(ids: readonly string[]): Promise<Map<string, ScheduleRow>> {
    const found = new Map<string, ScheduleRow>();
    for (let i = 0; i < ids.length; i += READ_GROUP) {
      const rows = await this.ports.db
        .select()
        .from(schedules)
        .where(
          and(inArray(schedules.id, ids.slice(i, i + READ_GROUP)), eq(schedules.userId, this.ports.userId())),
        );
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  /**
   * Every due wakeup's record (claim, job, audit), sent RECORD_GROUP wakeups to a D1 batch; a batch D1
   * refuses is sent again wakeup by wakeup, so one bad record holds back only itself (it stays due).
   */
  private async recordAll(
    due: readonly { schedule_id: string; due_at: number }[],
    now: number,
  ): Promise<Recorded[]> {
    if (due.length === 0) return [];
    const rows = await this.rows(due.map((d) => d.schedule_id));
    const pending: Planned[] = [];
    const ready: Recorded[] = [];
    for (const d of due) {
      const s = rows.get(d.schedule_id);
      if (!s || s.paused || s.nextRunAt !== d.due_at) {
        // Someone changed it since the local table was written: the row just read is the record.
        this.mirror(d.schedule_id, s && !s.paused ? s.nextRunAt : null);
        continue;
      }
      try {
        const planned = await this.plan(s, d.due_at, now);
        if (planned.writes.length) pending.push(planned);
        else ready.push(planned);
      } catch (error) {
        console.error("[HubScheduler.fire]", error);
      }
    }
    for (let i = 0; i < pending.length; i += RECORD_GROUP) {
      const group = pending.slice(i, i + RECORD_GROUP);
      try {
        const [first, ...rest] = group.flatMap((p) => p.writes);
        if (first) await this.ports.db.batch([first, ...rest]);
        ready.push(...group);
      } catch {
        for (const one of group) {
          try {
            const [first, ...rest] = one.writes;
            if (first) await this.ports.db.batch([first, ...rest]);
            ready.push(one);
          } catch (error) {
            console.error("[HubScheduler.fire]", error);
          }
        }
      }
    }
    return ready;
  }

  /**
   * A wakeup's record as unsent D1 writes (the claim, the job, the claim's link to it, its audit), its
   * `start` of the turn, and `advance`, the unsent guarded update that moves the schedule on (sent only
   * after the turn started). A wakeup past the catch-up window records its skip at once and has no writes
   * left to send.
   */
  private async plan(s: ScheduleRow, dueAt: number, now: number): Promise<Planned> {
    const { db } = this.ports;
    const scheduleId = s.id;
    const plan = planWakeup(specOf(s), dueAt, Math.max(now, dueAt));
    const userId = s.userId;
    let jobId: string | null = null;
    let turnId: string | null = null;
    const writes: BatchItem<"sqlite">[] = [];
    if (plan.run !== null) {
      const runAt = plan.run;
      // The record says when it really happened (the alarm's `now` decides what runs); it also tells this
      // claim's own audit row from a retried wakeup's.
      const firedAt = Date.now();
      jobId = await derivedJobId(scheduleId, String(runAt));
      const job = jobWrites(db, {
        id: jobId,
        userId,
        task: taskOf(s),
        trigger: { kind: "schedule", ref: scheduleId },
        now: firedAt,
      });
      const ours = and(
        eq(wakeupEvents.scheduleId, scheduleId),
        eq(wakeupEvents.dueAt, runAt),
        eq(wakeupEvents.firedAt, firedAt),
      );
      // The claim, the job (made even when the claim exists: a crash after it left the job unmade or
      // unstarted), the claim's link to the job and its audit.
      writes.push(
        db
          .insert(wakeupEvents)
          .values({
            scheduleId,
            dueAt: runAt,
            userId,
            kind: runAt === dueAt ? "scheduled" : "catch_up",
            skipped: plan.skipped,
            firedAt,
          })
          .onConflictDoNothing(),
        job.insert,
        ...job.rest,
        db
          .update(wakeupEvents)
          .set({ jobId })
          .where(and(eq(wakeupEvents.scheduleId, scheduleId), eq(wakeupEvents.dueAt, runAt))),
        auditInsertWhere(
          db,
          {
            userId,
            actor: `schedule:${scheduleId}`,
            event: "schedule.fired",
            target: scheduleId,
            details: { due_at: new Date(runAt).toISOString(), job_id: jobId, skipped: plan.skipped },
            at: firedAt,
          },
          sql`EXISTS (SELECT 1 FROM wakeup_events WHERE ${ours})`,
        ),
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
    const start = async (): Promise<void> => {
      // Started before the schedule moves on, so a crash in between leaves the wakeup due and it is retried.
      if (turnId) await (this.ports.startTurn ?? ((id) => startTurn(this.ports.env, id)))(turnId);
    };
    const advance = db
      .update(schedules)
      .set({
        nextRunAt: plan.next,
        updatedAt: now,
        ...(plan.run !== null ? { lastRunAt: plan.run, lastJobId: jobId } : {}),
      })
      .where(and(eq(schedules.id, scheduleId), eq(schedules.nextRunAt, dueAt)))
      .returning({ nextRunAt: schedules.nextRunAt, paused: schedules.paused });
    return { writes, scheduleId, ran: plan.run !== null, start, advance };
  }
}

interface Recorded {
  scheduleId: string;
  /** Whether a job was made (false: the wakeup was skipped). */
  ran: boolean;
  start: () => Promise<void>;
  /** The schedule's guarded move to its next wakeup, unsent; answers the row when it moved. */
  advance: AdvanceQuery;
}

type AdvanceQuery = BatchItem<"sqlite"> & PromiseLike<{ nextRunAt: number | null; paused: boolean }[]>;

interface Planned extends Recorded {
  /** The record's D1 writes, unsent (none when the wakeup was skipped: that is written at once). */
  writes: BatchItem<"sqlite">[];
}
