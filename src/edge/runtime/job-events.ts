// What a job tells the person as it goes: job_updated to open dashboards, an intervention notification when
// it waits for an approval, a proactive one when it ends. Notifications are rate-limited (notifications.ts).
import type { ProposalView } from "../../protocol/conveyor.ts";
import { type JobRow, jobById, jobSummary } from "./jobs.ts";
import { addNotification, type NewNotification } from "./notifications.ts";
import type { KernelPorts } from "./ports.ts";
import * as turns from "./turn-store.ts";

/** The turn and, for a job's turn, its job (by the turn's own link: a primary-key read; chat turns have none). */
async function jobTurn(
  ports: KernelPorts,
  turnId: string,
): Promise<{ job: JobRow; turn: turns.TurnRow } | null> {
  const turn = await turns.turnById(ports.db, turnId);
  const job = turn?.jobId ? await jobById(ports.db, turn.jobId) : undefined;
  return job && turn ? { job, turn } : null;
}

export async function announceJob(ports: KernelPorts, turnId: string): Promise<void> {
  const found = await jobTurn(ports, turnId);
  if (!found) return;
  const { job, turn } = found;
  await ports.hub(job.userId).broadcast({ type: "job_updated", data: await jobSummary(ports.db, job, turn) });
}

async function send(ports: KernelPorts, n: NewNotification): Promise<void> {
  const row = await addNotification(ports.db, n, ports.now());
  if (row)
    await ports
      .hub(n.userId)
      .broadcast({ type: "notification", data: { id: row.id, title: row.title, body: row.body } });
}

export async function interventionNotice(
  ports: KernelPorts,
  turn: turns.TurnRow,
  view: ProposalView,
): Promise<void> {
  const job = turn.jobId ? await jobById(ports.db, turn.jobId) : undefined;
  await send(ports, {
    userId: turn.userId,
    kind: "intervention",
    title: `Approval needed: ${job?.title ?? "a job"}`.slice(0, 120),
    body: `${view.summary.what} (${view.summary.where}). ${view.justification}`,
    jobId: turn.jobId,
    proposalId: view.id,
  });
}

const FINISHED_TITLE: Partial<Record<turns.TurnState, string>> = {
  succeeded: "Done",
  partial: "Partly done (check by hand)",
  cancelled: "Cancelled",
};

export async function finishNotice(ports: KernelPorts, turnId: string): Promise<void> {
  const found = await jobTurn(ports, turnId);
  if (!found) return;
  const { job, turn } = found;
  const error = turns.errorOf(turn);
  await send(ports, {
    userId: job.userId,
    kind: "proactive",
    title: `${FINISHED_TITLE[turn.state] ?? "Failed"}: ${job.title}`,
    body: error ? `${error.code}: ${error.message}` : (turn.result ?? ""),
    jobId: job.id,
  });
}
