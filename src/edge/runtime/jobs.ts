// Jobs in D1: a job is one turn in its own thread, started by the API, a schedule or a webhook. Creation
// is idempotent by id (a schedule's wakeup and a webhook delivery derive theirs), views join its turn.
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  Budgets,
  type JobState,
  type JobSummary,
  type JobTrigger,
  type JobView,
  type Spend,
  type Task,
} from "../../protocol/runtime.ts";
import { newId } from "../auth/crypto.ts";
import { hashOf } from "../conveyor/canonical.ts";
import * as proposals from "../conveyor/proposals.ts";
import type { Db } from "../db/client.ts";
import { jobs, turns } from "../db/schema.ts";
import { appendMessageWrites, createThreadWrite } from "./threads.ts";
import * as turnStore from "./turn-store.ts";

export type JobRow = typeof jobs.$inferSelect;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const STATE_OF: Record<turnStore.TurnState, JobState> = {
  queued: "queued",
  running: "running",
  waiting: "waiting_approval",
  succeeded: "succeeded",
  failed: "failed",
  partial: "partial",
  cancelled: "cancelled",
};
const TURN_STATES_OF: Record<JobState, turnStore.TurnState> = {
  queued: "queued",
  running: "running",
  waiting_approval: "waiting",
  succeeded: "succeeded",
  failed: "failed",
  partial: "partial",
  cancelled: "cancelled",
};

/** A derived id: the same trigger (a schedule's due time, a webhook delivery) always names the same job. */
export async function derivedJobId(...parts: string[]): Promise<string> {
  return `job_${(await hashOf(parts.join("\u0000"))).slice(0, 24)}`;
}

export interface NewJob {
  id?: string;
  userId: string;
  task: Task;
  trigger: JobTrigger;
  /** Untrusted input the job is given (a webhook body): labelled for the model, and it taints the turn. */
  untrustedInput?: string;
  now: number;
}

/**
 * Creates the job, its thread, its instructions message and its turn in one D1 batch; each insert is keyed,
 * so calling again with the same id (a retried wakeup) completes a half-made job and creates nothing twice.
 */
export async function createJob(db: Db, j: NewJob): Promise<{ job: JobRow; created: boolean }> {
  const writes = jobWrites(db, j);
  const [inserted] = await db.batch([writes.insert, ...writes.rest]);
  const job = inserted[0] ?? (await jobById(db, writes.id));
  if (!job) throw new Error(`job ${writes.id} was not stored`);
  return { job, created: inserted.length === 1 };
}

/**
 * createJob's writes, unsent, to ride in one D1 batch (with a schedule's wakeup claim): `insert` answers the
 * job row when it was created, nothing when it existed.
 */
export function jobWrites(db: Db, j: NewJob) {
  const id = j.id ?? newId("job");
  const suffix = id.slice(4);
  const turnId = `trn_${suffix}`;
  const threadId = `thr_${suffix}`;
  const title = j.task.title ?? j.task.instructions.split("\n")[0]?.slice(0, 80) ?? "Job";
  const insert = db
    .insert(jobs)
    .values({
      id,
      userId: j.userId,
      title,
      instructions: j.task.instructions,
      triggerKind: j.trigger.kind,
      triggerRef: j.trigger.ref,
      threadId,
      turnId,
      createdAt: j.now,
    })
    .onConflictDoNothing()
    .returning();
  const taskMessageId = `msg_${turnId}_task`;
  const rest: BatchItem<"sqlite">[] = [
    createThreadWrite(db, {
      id: threadId,
      userId: j.userId,
      title,
      jobId: id,
      createdAt: j.now,
      updatedAt: j.now,
    }),
    ...appendMessageWrites(db, {
      id: taskMessageId,
      threadId,
      userId: j.userId,
      role: "user",
      content: j.task.instructions,
      turnId,
      now: j.now,
    }),
    ...(j.untrustedInput === undefined
      ? []
      : appendMessageWrites(db, {
          id: `msg_${turnId}_input`,
          threadId,
          userId: j.userId,
          role: "user",
          content: j.untrustedInput,
          turnId,
          untrusted: true,
          now: j.now,
        })),
    turnStore.createTurnWrite(db, {
      id: turnId,
      userId: j.userId,
      threadId,
      jobId: id,
      kind: "job",
      budgets: Budgets.parse(j.task.budgets ?? {}),
      triggerMessageId: taskMessageId,
      tainted: j.untrustedInput !== undefined,
      now: j.now,
    }),
  ];
  return { id, turnId, insert, rest };
}

export async function jobById(db: Db, id: string, userId?: string): Promise<JobRow | undefined> {
  const where = userId ? and(eq(jobs.id, id), eq(jobs.userId, userId)) : eq(jobs.id, id);
  return (await db.select().from(jobs).where(where))[0];
}

/** Newest first; the cursor is `<created_at>.<id>` of the last job of the previous page. */
export async function listJobs(
  db: Db,
  userId: string,
  q: { state?: JobState | undefined; limit: number; cursor?: string | undefined },
): Promise<{ rows: { job: JobRow; turn: turnStore.TurnRow }[]; next: string | null }> {
  const conditions = [eq(jobs.userId, userId)];
  if (q.state) conditions.push(inArray(turns.state, [TURN_STATES_OF[q.state]]));
  if (q.cursor) {
    const dot = q.cursor.indexOf(".");
    const at = Number(q.cursor.slice(0, dot));
    const id = q.cursor.slice(dot + 1);
    if (dot > 0 && Number.isFinite(at)) {
      const older = or(lt(jobs.createdAt, at), and(eq(jobs.createdAt, at), lt(jobs.id, id)));
      if (older) conditions.push(older);
    }
  }
  const rows = await db
    .select({ job: jobs, turn: turns })
    .from(jobs)
    .innerJoin(turns, eq(turns.id, jobs.turnId))
    .where(and(...conditions))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > q.limit && last ? `${last.job.createdAt}.${last.job.id}` : null };
}

/** `spend`: the turn's, when the caller already has it (a page of jobs reads them all at once). */
export async function jobSummary(
  db: Db,
  job: JobRow,
  turn: turnStore.TurnRow,
  spend?: Spend,
): Promise<JobSummary> {
  return {
    id: job.id,
    title: job.title,
    state: STATE_OF[turn.state],
    trigger: { kind: job.triggerKind, ref: job.triggerRef },
    instructions: job.instructions,
    thread_id: job.threadId,
    turn_id: job.turnId,
    budgets: turnStore.budgetsOf(turn),
    spend: spend ?? (await turnStore.spendOf(db, turn.id)),
    result: turn.result,
    outcome: turnStore.outcomeOf(turn),
    error: turnStore.errorOf(turn),
    created_at: new Date(job.createdAt).toISOString(),
    started_at: iso(turn.startedAt),
    finished_at: iso(turn.finishedAt),
    cancel_requested_at: iso(turn.cancelRequestedAt),
  };
}

export async function jobView(db: Db, job: JobRow): Promise<JobView> {
  const turn = await turnStore.turnById(db, job.turnId);
  if (!turn) throw new Error(`job ${job.id} has no turn`);
  const links = await turnStore.proposalsOfTurn(db, turn.id);
  const shown = [];
  for (const link of links) {
    const row = await proposals.byId(db, job.userId, link.proposalId);
    if (row) {
      const view = proposals.proposalView(row);
      shown.push({ id: view.id, tool: view.tool, state: view.state, summary: view.summary });
    }
  }
  return {
    ...(await jobSummary(db, job, turn)),
    steps: (await turnStore.stepsOf(db, turn.id)).map(turnStore.stepView),
    proposals: shown,
  };
}
