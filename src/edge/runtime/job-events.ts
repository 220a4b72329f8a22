// What a job tells the person as it goes: job_updated to open dashboards, an intervention notification when
// it waits for an approval, a proactive one when it ends. Notifications are rate-limited (notifications.ts).
import type { ProposalView } from "../../protocol/conveyor.ts";
import { jobOfTurn, jobSummary } from "./jobs.ts";
import { addNotification, type NewNotification } from "./notifications.ts";
import type { KernelPorts } from "./ports.ts";
import * as turns from "./turn-store.ts";

export async function announceJob(ports: KernelPorts, turnId: string): Promise<void> {
  const job = await jobOfTurn(ports.db, turnId);
  const turn = await turns.turnById(ports.db, turnId);
  if (!job || !turn) return;
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
  const job = turn.jobId ? await jobOfTurn(ports.db, turn.id) : undefined;
  await send(ports, {
    userId: turn.userId,
    kind: "intervention",
    title: `Approval needed: ${job?.title ?? "a job"}`.slice(0, 120),
    body: `${view.summary.what} (${view.summary.where}). ${view.justification}`,
    jobId: turn.jobId,
    proposalId: view.id,
  });
}

export async function finishNotice(ports: KernelPorts, turnId: string): Promise<void> {
  const job = await jobOfTurn(ports.db, turnId);
  const turn = await turns.turnById(ports.db, turnId);
  if (!job || !turn) return;
  const error = turns.errorOf(turn);
  await send(ports, {
    userId: job.userId,
    kind: "proactive",
    title: `${turn.state === "succeeded" ? "Done" : turn.state === "cancelled" ? "Cancelled" : "Failed"}: ${job.title}`,
    body: error ? `${error.code}: ${error.message}` : (turn.result ?? ""),
    jobId: job.id,
  });
}
