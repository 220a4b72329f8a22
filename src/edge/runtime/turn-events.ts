// Starting a turn's Workflow instance (its id is the turn id, so a second start is a no-op), and waking a
// turn that waits on a proposal when the conveyor settles it.
import type { ProposalView } from "../../protocol/conveyor.ts";
import { isSettled } from "../conveyor/proposals.ts";
import type { Db } from "../db/client.ts";
import { logFailure } from "../errors.ts";
import { turnOfProposal } from "./turn-store.ts";

/** The event a settled proposal sends the instance of the turn waiting on it (TurnWorkflow). */
export const proposalEvent = (proposalId: string) => `proposal-${proposalId}`;

export async function startTurn(env: Env, turnId: string): Promise<void> {
  try {
    await env.TURN_WORKFLOW.create({ id: turnId, params: { turnId } });
  } catch (error) {
    // Started before (a retried wakeup, a repeated request): the instance that exists is the turn.
    if (/already exists|already_exists/i.test(String(error))) return;
    throw error;
  }
}

/** Sends the waiting turn its proposal's event; a lost event only delays it to the next look. */
export async function wakeTurnOf(env: Env, db: Db, view: ProposalView): Promise<void> {
  if (!isSettled(view.state) || !["job", "schedule", "webhook", "chat"].includes(view.source.kind)) return;
  try {
    const link = await turnOfProposal(db, view.id);
    if (!link) return;
    const instance = await env.TURN_WORKFLOW.get(link.turnId);
    await instance.sendEvent({ type: proposalEvent(view.id), payload: { state: view.state } });
  } catch (error) {
    logFailure(`wake turn for ${view.id}`, error);
  }
}
