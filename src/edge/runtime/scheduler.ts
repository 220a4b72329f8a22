// The user's schedules inside their UserHub: a local table of each active schedule's next wakeup feeds
// the hub's one alarm. The alarm runs PREPARE_LEAD_MS before a wakeup's due time and records it in D1 ahead
// (the claim of its (schedule, due time) row and the job whose id is derived from it), then leaves a timer
// for the due time, which only starts the turn (the alarm comes back BACKSTOP_MS later in case an eviction
// lost the timer); the `schedule.fired` audit row and the guarded move of the
// schedule to its next wakeup follow the start, in one batch. Every step is idempotent, so a retried alarm,
// two alarms at once or a crash or eviction between the record and the start never start a run twice, and
// no turn starts before its due time.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { schedules } from "../db/schema.ts";
import { DUE_SLACK_MS } from "../hub/schedule.ts";
import type { ScheduleRow } from "./schedule-store.ts";
import { startTurn } from "./turn-events.ts";
import * as turnStore from "./turn-store.ts";
import { type WakeupRecord, wakeupRecord } from "./wakeup-record.ts";

/**
 * How long before a due time the alarm runs to record the wakeup: at the due instant only the turn's start is
 * left. 1,000 records at ~2 ms of CPU each were seconds of lateness when they were made at the due time, and
 * on the shared 2-core machine at load 12-15 the local D1 took up to ~8.5 s (alarms late, batches queued) to
 * hold them all: a 1.5 s lead was not enough there.
 */
export const PREPARE_LEAD_MS = 10_000;
/** After a recorded wakeup's due time, when the alarm comes back to start it if its timer was lost. */
export const BACKSTOP_MS = 1_000;
/** Wakeups handled per alarm; more re-arm the alarm at once. */
const PER_ALARM = 200;
/** Turns started at once within one alarm (a hub's 10 due at once all start together). */
const FIRE_CONCURRENCY = 16;
/** Wakeups recorded per D1 batch (each is about 7 statements). */
const RECORD_GROUP = 25;
/** Schedules moved on per D1 batch (an audit row and a guarded update each). */
const ADVANCE_GROUP = 40;
/** Schedule ids per D1 read. */
const READ_GROUP = 90;

export interface SchedulerPorts {
  sql: SqlStorage;
  db: Db;
  env: Env;
  userId: () => string;
  /** Starts a job's turn (tests count calls); default: its Workflow instance. */
  startTurn?: (turnId: string) => Promise<void>;
  /** Runs `run` after `ms` of real time (tests act in that gap); default: a timer. */
  later?: (ms: number, run: () => Promise<unknown>) => void;
  /**
   * Runs were started (their backstop, BACKSTOP_MS after the due time, is no longer needed): the hub's alarm may
   * move on to its next deadline instead of waking for nothing (hub/schedule.ts, relax).
   */
  relax?: () => Promise<void>;
}

interface Started {
  record: WakeupRecord;
  /** When the hub asked for its turn's start (never before its due time). */
  at: number;
  /** How long that start (the Workflow instance's creation) took to return. */
  tookMs: number;
}

type Moved = { nextRunAt: number | null; paused: boolean } | undefined;

export class HubScheduler {
  private readonly ports: SchedulerPorts;
  /** Alarm runs one after another: a second one waits, then finds the wakeups already handled. */
  private running: Promise<unknown> = Promise.resolve();
  /**
   * Wakeups recorded ahead whose turn has not started, by schedule. Memory only: after an eviction the
   * alarm records them again, which changes nothing in D1 (claim and job are keyed).
   */
  private readonly prepared = new Map<string, WakeupRecord>();
  /** Due times a timer is set for (memory only, like `prepared`). */
  private readonly timers = new Set<number>();

  constructor(ports: SchedulerPorts) {
    this.ports = ports;
  }

  static migrate(sql: SqlStorage): void {
    sql.exec(`CREATE TABLE IF NOT EXISTS runtime_schedule_due (
      schedule_id TEXT PRIMARY KEY,
      due_at INTEGER NOT NULL
    )`);
  }

  /** The earliest wakeup this hub owes. */
  nextDue(): number | null {
    return (
      this.ports.sql
        .exec<{ at: number | null }>(`SELECT MIN(due_at) AS at FROM runtime_schedule_due`)
        .toArray()[0]?.at ?? null
    );
  }

  /**
   * When the alarm must run for the schedules: PREPARE_LEAD_MS before a wakeup not recorded yet, BACKSTOP_MS
   * after the due time of one recorded (its timer starts it at the due time; the alarm then is for a timer an
   * eviction lost). Rows come in due order, so the first one not recorded bounds every later one.
   */
  nextWake(): number | null {
    const rows = this.ports.sql
      .exec<{ schedule_id: string; due_at: number }>(
        `SELECT schedule_id, due_at FROM runtime_schedule_due ORDER BY due_at LIMIT ?`,
        this.prepared.size + 1,
      )
      .toArray();
    let wake: number | null = null;
    for (const r of rows) {
      const recorded = this.prepared.get(r.schedule_id)?.dueAt === r.due_at;
      const at = recorded ? r.due_at + BACKSTOP_MS : r.due_at - PREPARE_LEAD_MS;
      if (wake === null || at < wake) wake = at;
    }
    return wake;
  }

  private dueOf(scheduleId: string): number | null {
    return (
      this.ports.sql
        .exec<{ due_at: number }>(`SELECT due_at FROM runtime_schedule_due WHERE schedule_id = ?`, scheduleId)
        .toArray()[0]?.due_at ?? null
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

  /**
   * Records every wakeup due by `now` + PREPARE_LEAD_MS, starts those already due, and sets a timer for the
   * others' due times (the alarm's clock: `now` moving on with real time); answers how many jobs it started.
   */
  onAlarm(now = Date.now()): Promise<number> {
    // The alarm's clock runs from this call: a run that waits behind another still sees the real time.
    const called = Date.now();
    const clock = () => now + (Date.now() - called);
    const run = this.running.then(() => this.handleDue(clock));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async handleDue(clock: () => number): Promise<number> {
    const now = clock();
    const soon = this.ports.sql
      .exec<{ schedule_id: string; due_at: number }>(
        `SELECT schedule_id, due_at FROM runtime_schedule_due WHERE due_at <= ? ORDER BY due_at LIMIT ?`,
        now + PREPARE_LEAD_MS + DUE_SLACK_MS,
        PER_ALARM,
      )
      .toArray();
    // The records of every wakeup due soon travel together (one read, a batch per RECORD_GROUP): with a
    // batch per wakeup, the 9th of 10 due at once waited behind the first 8 in D1's queue.
    const fresh = soon.filter((d) => this.prepared.get(d.schedule_id)?.dueAt !== d.due_at);
    for (const r of await this.recordAll(fresh, now)) this.prepared.set(r.scheduleId, r);
    // Every record made ahead, by due time: also those whose schedule changed since (startAll withdraws them).
    const byTime = new Map<number, WakeupRecord[]>();
    for (const r of this.prepared.values())
      if (r.dueAt <= now + PREPARE_LEAD_MS + DUE_SLACK_MS)
        byTime.set(r.dueAt, [...(byTime.get(r.dueAt) ?? []), r]);
    let ran = 0;
    for (const at of [...byTime.keys()].sort((x, y) => x - y)) {
      const group = byTime.get(at) ?? [];
      // Due: start now. Not yet: a timer runs this again at the due time (never before it), and the alarm
      // returns, so the hub's other deadlines do not wait for it.
      if (at <= clock()) ran += await this.startAll(group, clock);
      else this.startAt(at, clock);
    }
    if (ran > 0) await this.ports.relax?.();
    return ran;
  }

  /** One timer per due time: at it, the alarm's handling runs again on the alarm's clock. */
  private startAt(at: number, clock: () => number): void {
    if (this.timers.has(at)) return;
    this.timers.add(at);
    const later =
      this.ports.later ??
      ((ms: number, run: () => Promise<unknown>) => {
        setTimeout(() => void run(), ms);
      });
    later(at - clock(), async () => {
      this.timers.delete(at);
      // A timer may end a hair early: the run then sets another.
      await this.onAlarm(clock()).catch((error) => console.error("[HubScheduler.startAt]", error));
    });
  }

  /**
   * Starts the turns of recorded wakeups now due (at once, bounded), then moves their schedules on together.
   * A schedule changed since its record (edited, paused, deleted: the local table no longer holds that due
   * time) has its prepared turn withdrawn instead: it never starts.
   */
  private async startAll(group: readonly WakeupRecord[], clock: () => number): Promise<number> {
    const live: WakeupRecord[] = [];
    for (const r of group) {
      if (this.dueOf(r.scheduleId) === r.dueAt) live.push(r);
      else {
        this.prepared.delete(r.scheduleId);
        await this.withdraw(r);
      }
    }
    const start = this.ports.startTurn ?? ((id: string) => startTurn(this.ports.env, id));
    const started = await this.each(live, async (record): Promise<Started> => {
      // Started before the schedule moves on, so a crash in between leaves the wakeup due and it is retried.
      const at = clock();
      if (record.turnId) await start(record.turnId);
      return { record, at, tookMs: clock() - at };
    });
    const done = started.filter((s): s is Started => s !== undefined);
    await this.advanceAll(done);
    return done.filter((s) => s.record.turnId !== null).length;
  }

  private async withdraw(r: WakeupRecord): Promise<void> {
    if (!r.turnId) return;
    try {
      await turnStore.moveTurn(this.ports.db, r.turnId, ["queued"], "cancelled", {
        finishedAt: Date.now(),
        error: JSON.stringify({
          code: "CANCELLED",
          message: "The schedule changed before this run was due; it never started.",
        }),
      });
    } catch (error) {
      console.error("[HubScheduler.withdraw]", error);
    }
  }

  /**
   * Moves the schedules of started turns on (each its audit row and guarded update, ADVANCE_GROUP to a D1
   * batch) and the local table after them; a schedule someone changed meanwhile is re-read. A batch D1
   * refuses is sent again schedule by schedule; one that still fails stays due, and the alarm retries it
   * (its claim and job are keyed, its turn's start is a no-op the second time).
   */
  private async advanceAll(started: readonly Started[]): Promise<void> {
    const { db } = this.ports;
    const settled: { r: WakeupRecord; moved: Moved }[] = [];
    for (let i = 0; i < started.length; i += ADVANCE_GROUP) {
      const group = started
        .slice(i, i + ADVANCE_GROUP)
        .map((s) => ({ r: s.record, ...s.record.advance(s.at, s.tookMs) }));
      const [first, ...rest] = group.flatMap((g) => [...g.before, g.move]);
      if (!first) continue;
      try {
        const results = await db.batch([first, ...rest]);
        let k = 0;
        for (const g of group) {
          k += g.before.length;
          settled.push({ r: g.r, moved: (results[k++] as Moved[] | undefined)?.[0] });
        }
      } catch {
        for (const g of group) {
          try {
            const [one, ...more] = [...g.before, g.move];
            const results = await db.batch([one, ...more]);
            settled.push({ r: g.r, moved: (results.at(-1) as Moved[] | undefined)?.[0] });
          } catch (error) {
            console.error("[HubScheduler.fire]", error);
          }
        }
      }
    }
    // Moved as planned: the local table follows without reading D1 again (finished ones in one delete).
    const finished: string[] = [];
    for (const { r, moved } of settled) {
      this.prepared.delete(r.scheduleId);
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
   * Every wakeup's record (claim, job, its link), sent RECORD_GROUP wakeups to a D1 batch; a batch D1
   * refuses is sent again wakeup by wakeup, so one bad record holds back only itself (it stays due).
   */
  private async recordAll(
    due: readonly { schedule_id: string; due_at: number }[],
    now: number,
  ): Promise<WakeupRecord[]> {
    if (due.length === 0) return [];
    const rows = await this.rows(due.map((d) => d.schedule_id));
    const pending: WakeupRecord[] = [];
    const ready: WakeupRecord[] = [];
    for (const d of due) {
      const s = rows.get(d.schedule_id);
      if (!s || s.paused || s.nextRunAt !== d.due_at) {
        // Someone changed it since the local table was written: the row just read is the record.
        this.mirror(d.schedule_id, s && !s.paused ? s.nextRunAt : null);
        continue;
      }
      try {
        const record = await wakeupRecord(this.ports.db, s, d.due_at, now);
        if (record.writes.length) pending.push(record);
        else ready.push(record);
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
}
