// Cancelling a job: it stops at its next step boundary (the kernel checks before every model round and
// every tool call), and every proposal of it still waiting for a person is rejected, so nothing runs after.
import { writeAudit } from "../audit/audit-log.ts";
import * as proposals from "../conveyor/proposals.ts";
import type { Db } from "../db/client.ts";
import type { JobRow } from "./jobs.ts";
import { runtimeHub } from "./runtime-hub.ts";
import * as turns from "./turn-store.ts";

export async function cancelJob(
  env: Env,
  db: Db,
  job: JobRow,
  deviceId: string | null,
): Promise<"cancelled" | "cancelling" | "finished"> {
  const turn = await turns.turnById(db, job.turnId);
  if (!turn) throw new Error(`job ${job.id} has no turn`);
  if (turn.state === "cancelled") return "cancelled";
  if (!turns.LIVE_STATES.includes(turn.state)) return "finished";
  const now = Date.now();
  const actor = deviceId ? `device:${deviceId}` : "api";
  await turns.requestCancel(db, turn.id, now);
  await writeAudit(db, {
    userId: job.userId,
    deviceId,
    actor,
    event: "job.cancel_requested",
    target: job.id,
  });
  const hub = runtimeHub(env, job.userId, deviceId);
  for (const link of await turns.proposalsOfTurn(db, turn.id)) {
    const row = await proposals.byId(db, job.userId, link.proposalId);
    if (row?.state === "PENDING") await hub.withdrawProposal(row.id, actor);
  }
  // Not started yet: nothing will reach a step boundary, so it ends here.
  if (turn.state === "queued") {
    const moved = await turns.moveTurn(db, turn.id, ["queued"], "cancelled", {
      finishedAt: now,
      error: JSON.stringify({ code: "CANCELLED", message: "Cancelled before it started." }),
    });
    if (moved) return "cancelled";
  }
  return "cancelling";
}
