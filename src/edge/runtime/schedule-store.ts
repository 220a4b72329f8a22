// Schedules in D1: creating and editing them (times checked and the next run computed in UTC by the policy's
// schedule rules), pausing and resuming, and their views.
import { and, asc, eq } from "drizzle-orm";
import {
  AT_PAST_TOLERANCE_MS,
  cronProblem,
  nextRunAfter,
  parseAt,
  type ScheduleSpec,
} from "../../domain/schedule.ts";
import type { FieldProblem } from "../../protocol/errors.ts";
import {
  type CreateScheduleRequest,
  type PatchScheduleRequest,
  type ScheduleView,
  Task,
} from "../../protocol/runtime.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { schedules } from "../db/schema.ts";

export type ScheduleRow = typeof schedules.$inferSelect;

export function specOf(
  row: Pick<ScheduleRow, "kind" | "cron" | "timezone" | "everySeconds" | "anchorAt" | "atMs">,
): ScheduleSpec {
  switch (row.kind) {
    case "cron":
      return { kind: "cron", cron: row.cron ?? "", timezone: row.timezone };
    case "interval":
      return { kind: "interval", everySeconds: row.everySeconds ?? 3600, anchor: row.anchorAt };
    case "at":
      return { kind: "at", at: row.atMs ?? 0 };
  }
}

export function taskOf(row: ScheduleRow): Task {
  return Task.parse(JSON.parse(row.task));
}

type Timing = Pick<
  ScheduleRow,
  "kind" | "cron" | "everySeconds" | "atText" | "atMs" | "timezone" | "anchorAt"
>;

/** Checks a schedule's timing; answers it with its first run after `now`, or the problems (by field). */
export function timing(
  t: {
    kind: ScheduleRow["kind"];
    cron?: string | undefined;
    every_seconds?: number | undefined;
    at?: string | undefined;
    timezone: string;
  },
  now: number,
  anchor = now,
): { ok: true; timing: Timing; next: number | null } | { ok: false; problems: FieldProblem[] } {
  const base: Timing = {
    kind: t.kind,
    cron: null,
    everySeconds: null,
    atText: null,
    atMs: null,
    timezone: t.timezone,
    anchorAt: anchor,
  };
  if (t.kind === "cron") {
    const problem = cronProblem(t.cron ?? "", t.timezone);
    if (problem) return { ok: false, problems: [{ path: problem.field, message: problem.message }] };
    const row = { ...base, cron: t.cron ?? "" };
    return { ok: true, timing: row, next: nextRunAfter(specOf(row), now) };
  }
  if (t.kind === "interval") {
    const row = { ...base, everySeconds: t.every_seconds ?? 3600 };
    return { ok: true, timing: row, next: nextRunAfter(specOf(row), now) };
  }
  const at = parseAt(t.at ?? "", t.timezone);
  if (typeof at !== "number") return { ok: false, problems: [{ path: at.field, message: at.message }] };
  if (at < now - AT_PAST_TOLERANCE_MS)
    return {
      ok: false,
      problems: [
        {
          path: "at",
          message: `is in the past (${new Date(at).toISOString()}); a one-shot schedule needs a future time`,
        },
      ],
    };
  // A moment ago counts as now: it runs at the next alarm.
  return { ok: true, timing: { ...base, atText: t.at ?? null, atMs: at }, next: Math.max(at, now) };
}

export async function createSchedule(
  db: Db,
  userId: string,
  req: CreateScheduleRequest,
  now: number,
): Promise<{ ok: true; row: ScheduleRow } | { ok: false; problems: FieldProblem[] }> {
  const checked = timing(req, now);
  if (!checked.ok) return checked;
  const row: ScheduleRow = {
    id: newId("sch"),
    userId,
    name: req.name,
    ...checked.timing,
    task: JSON.stringify(req.task),
    paused: false,
    nextRunAt: checked.next,
    lastRunAt: null,
    lastJobId: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(schedules).values(row);
  return { ok: true, row };
}

export async function scheduleById(db: Db, userId: string, id: string): Promise<ScheduleRow | undefined> {
  return (
    await db
      .select()
      .from(schedules)
      .where(and(eq(schedules.id, id), eq(schedules.userId, userId)))
  )[0];
}

export function listSchedules(db: Db, userId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(schedules)
    .where(eq(schedules.userId, userId))
    .orderBy(asc(schedules.createdAt))
    .limit(500);
}

/**
 * Applies an edit. Pausing clears the next run; resuming computes it from now (runs missed while paused are
 * not made up: the person paused them). A new timing starts from now; an interval keeps its grid unless
 * its period changes.
 */
export async function patchSchedule(
  db: Db,
  row: ScheduleRow,
  patch: PatchScheduleRequest,
  now: number,
): Promise<{ ok: true; row: ScheduleRow } | { ok: false; problems: FieldProblem[] }> {
  let t: Timing = row;
  const timezone = patch.timezone ?? row.timezone;
  const retimed = patch.kind !== undefined || patch.timezone !== undefined;
  if (retimed) {
    const kind = patch.kind ?? row.kind;
    const sameInterval =
      kind === "interval" &&
      row.kind === "interval" &&
      (patch.every_seconds ?? row.everySeconds) === row.everySeconds;
    const checked = timing(
      {
        kind,
        cron: patch.cron ?? (kind === row.kind ? (row.cron ?? undefined) : undefined),
        every_seconds:
          patch.every_seconds ?? (kind === row.kind ? (row.everySeconds ?? undefined) : undefined),
        at: patch.at ?? (kind === row.kind ? (row.atText ?? undefined) : undefined),
        timezone,
      },
      now,
      sameInterval ? row.anchorAt : now,
    );
    if (!checked.ok) return checked;
    t = checked.timing;
  }
  const paused = patch.paused ?? row.paused;
  const finished = !retimed && row.kind === "at" && row.nextRunAt === null && !row.paused;
  let next: number | null;
  if (paused) next = null;
  else if (finished) next = null;
  else if (!retimed && !row.paused && row.nextRunAt !== null) next = row.nextRunAt;
  else
    next =
      t.kind === "at"
        ? t.atMs !== null && t.atMs >= now - AT_PAST_TOLERANCE_MS
          ? Math.max(t.atMs, now)
          : null
        : nextRunAfter(specOf(t), now);
  const updated: ScheduleRow = {
    ...row,
    ...t,
    name: patch.name ?? row.name,
    task: patch.task ? JSON.stringify(patch.task) : row.task,
    paused,
    nextRunAt: next,
    updatedAt: now,
  };
  await db.update(schedules).set(updated).where(eq(schedules.id, row.id));
  return { ok: true, row: updated };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function scheduleView(row: ScheduleRow): ScheduleView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    cron: row.cron,
    every_seconds: row.everySeconds,
    at: row.atText,
    timezone: row.timezone,
    task: taskOf(row),
    state: row.paused ? "paused" : row.nextRunAt === null ? "finished" : "active",
    next_run_at: iso(row.nextRunAt),
    last_run_at: iso(row.lastRunAt),
    last_job_id: row.lastJobId,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
