// Schedules: create (cron, interval or at, in an IANA zone), list, edit or pause, run now. Approvers only.
// The user's UserHub keeps each active schedule's next wakeup on its alarm (src/edge/runtime/scheduler.ts).
import type { Context } from "hono";
import { z } from "zod";
import type { FieldProblem } from "../../protocol/errors.ts";
import {
  CreateScheduleRequest,
  CreateScheduleResponse,
  PatchScheduleRequest,
  RunNowResponse,
  ScheduleView,
} from "../../protocol/runtime.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import { openDb } from "../db/client.ts";
import { wakeupEvents } from "../db/schema.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { createJob } from "../runtime/jobs.ts";
import {
  createSchedule,
  listSchedules,
  patchSchedule,
  scheduleById,
  scheduleView,
  taskOf,
} from "../runtime/schedule-store.ts";
import { startTurn } from "../runtime/turn-events.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const ScheduleParams = z.object({
  id: z.string().regex(/^sch_[A-Za-z0-9_-]{16}$/, "must be a schedule id (sch_…)"),
});

function invalid(problems: FieldProblem[]): never {
  throw new ApiError(
    400,
    "validation_failed",
    `Invalid schedule: check ${problems.map((p) => p.path).join(", ")}.`,
    {
      details: problems,
    },
  );
}

/** The hub re-reads the schedule and re-arms its alarm; answers the next wakeup it holds. */
async function rearm(c: Context<AppEnv>, scheduleId: string): Promise<void> {
  const { hub, caller } = hubFor(c.env, c.get("auth"));
  await hub.scheduleChanged(caller, scheduleId);
}

export const scheduleRoutes = routeGroup()
  .openapi(
    apiRoute("manage_schedules", {
      method: "post",
      path: "/v1/schedules",
      summary: "Create a schedule: {name, kind, cron | every_seconds | at, timezone, task}",
      request: jsonRequest(CreateScheduleRequest),
      responses: { 201: json("Its id and first run (RFC 3339, UTC).", CreateScheduleResponse) },
    }),
    async (c) => {
      const created = await createSchedule(
        openDb(c.env.DB),
        c.get("auth").userId,
        c.req.valid("json"),
        Date.now(),
      );
      if (!created.ok) invalid(created.problems);
      const view = scheduleView(created.row);
      await auditDeviceAction(c, "schedule.created", view.id, {
        name: view.name,
        kind: view.kind,
        timezone: view.timezone,
      });
      await rearm(c, view.id);
      return c.json({ id: view.id, next_run_at: view.next_run_at }, 201);
    },
  )
  .openapi(
    apiRoute("manage_schedules", {
      method: "get",
      path: "/v1/schedules",
      summary: "Schedules, oldest first",
      responses: { 200: json("The account's schedules.", z.object({ schedules: z.array(ScheduleView) })) },
    }),
    async (c) => {
      const rows = await listSchedules(openDb(c.env.DB), c.get("auth").userId);
      return c.json({ schedules: rows.map(scheduleView) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_schedules", {
      method: "patch",
      path: "/v1/schedules/{id}",
      summary: "Pause or resume ({paused}), rename, change the timing or the task",
      request: { params: ScheduleParams, ...jsonRequest(PatchScheduleRequest) },
      responses: {
        200: json("The schedule.", z.object({ schedule: ScheduleView })),
        404: problem("No such schedule."),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const patch = c.req.valid("json");
      const db = openDb(c.env.DB);
      const row = await scheduleById(db, c.get("auth").userId, id);
      if (!row) throw notFound(`No schedule ${id} on this account.`);
      const updated = await patchSchedule(db, row, patch, Date.now());
      if (!updated.ok) invalid(updated.problems);
      await auditDeviceAction(c, "schedule.updated", id, { changed: Object.keys(patch) });
      await rearm(c, id);
      return c.json({ schedule: scheduleView(updated.row) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_schedules", {
      method: "post",
      path: "/v1/schedules/{id}/run-now",
      summary: "Start the schedule's task now (its regular runs are unchanged); answers the job's id",
      request: { params: ScheduleParams },
      responses: { 202: json("The started job.", RunNowResponse), 404: problem("No such schedule.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const row = await scheduleById(db, auth.userId, id);
      if (!row) throw notFound(`No schedule ${id} on this account.`);
      const now = Date.now();
      const { job } = await createJob(db, {
        userId: auth.userId,
        task: taskOf(row),
        trigger: { kind: "schedule", ref: id },
        now,
      });
      await db
        .insert(wakeupEvents)
        .values({
          scheduleId: id,
          dueAt: now,
          userId: auth.userId,
          kind: "manual",
          jobId: job.id,
          firedAt: now,
        })
        .onConflictDoNothing();
      await auditDeviceAction(c, "schedule.run_now", id, { job_id: job.id });
      await startTurn(c.env, job.turnId);
      return c.json({ job_id: job.id }, 202);
    },
  );
