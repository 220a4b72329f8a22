// Hosted jobs: start one, list them, read one (state, steps, spend, proposals), cancel one. Approvers only.
import { z } from "zod";
import { CreateJobRequest, JobListQuery, JobSummary, JobView } from "../../protocol/runtime.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import { openDb } from "../db/client.ts";
import { ApiError, notFound } from "../errors.ts";
import { cancelJob } from "../runtime/job-control.ts";
import { createJob, jobById, jobSummary, jobView, listJobs } from "../runtime/jobs.ts";
import { startTurn } from "../runtime/turn-events.ts";
import { spendOfTurns } from "../runtime/turn-store.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

export const JobParams = z.object({
  id: z.string().regex(/^job_[A-Za-z0-9_-]{16,32}$/, "must be a job id (job_…)"),
});
const JobOne = z.object({ job: JobView });

export const jobRoutes = routeGroup()
  .openapi(
    apiRoute("manage_jobs", {
      method: "post",
      path: "/v1/jobs",
      summary: "Start a job: instructions for the planner, with budgets",
      request: jsonRequest(CreateJobRequest),
      responses: { 201: json("The job, queued.", JobOne) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const now = Date.now();
      const { job } = await createJob(db, {
        userId: auth.userId,
        task: c.req.valid("json"),
        trigger: { kind: "api", ref: auth.deviceId },
        now,
      });
      await auditDeviceAction(c, "job.created", job.id, { title: job.title, trigger: "api" });
      await startTurn(c.env, job.turnId);
      return c.json({ job: await jobView(db, job) }, 201);
    },
  )
  .openapi(
    apiRoute("manage_jobs", {
      method: "get",
      path: "/v1/jobs",
      summary: "Jobs, newest first",
      request: { query: JobListQuery },
      responses: {
        200: json(
          "A page of jobs; next_cursor fetches older ones.",
          z.object({ jobs: z.array(JobSummary), next_cursor: z.string().nullable() }),
        ),
      },
    }),
    async (c) => {
      const db = openDb(c.env.DB);
      const { rows, next } = await listJobs(db, c.get("auth").userId, c.req.valid("query"));
      const spends = await spendOfTurns(
        db,
        rows.map((r) => r.turn.id),
      );
      const jobs = [];
      for (const { job, turn } of rows) jobs.push(await jobSummary(db, job, turn, spends.get(turn.id)));
      return c.json({ jobs, next_cursor: next }, 200);
    },
  )
  .openapi(
    apiRoute("manage_jobs", {
      method: "get",
      path: "/v1/jobs/{id}",
      summary: "One job: state, steps, spend, proposals",
      request: { params: JobParams },
      responses: { 200: json("The job.", JobOne), 404: problem("No such job.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = openDb(c.env.DB);
      const job = await jobById(db, id, c.get("auth").userId);
      if (!job) throw notFound(`No job ${id} on this account.`);
      return c.json({ job: await jobView(db, job) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_jobs", {
      method: "post",
      path: "/v1/jobs/{id}/cancel",
      summary: "Cancel a job: it stops at the next step boundary and its waiting proposals are rejected",
      request: { params: JobParams },
      responses: {
        200: json("The job (cancelled, or cancelling until its step ends).", JobOne),
        404: problem("No such job."),
        409: problem("job_finished: the job already succeeded or failed."),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const job = await jobById(db, id, auth.userId);
      if (!job) throw notFound(`No job ${id} on this account.`);
      const outcome = await cancelJob(c.env, db, job, auth.deviceId);
      if (outcome === "finished")
        throw new ApiError(409, "job_finished", `Job ${id} already ended; there is nothing to cancel.`);
      return c.json({ job: await jobView(db, job) }, 200);
    },
  );
