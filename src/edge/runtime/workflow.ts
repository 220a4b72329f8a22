// The turn on Cloudflare Workflows: every kernel call is a durable step (retried, its result kept), long
// provider back-offs are durable sleeps, and approvals are awaited with waitForEvent. The kernel is
// idempotent against D1 too, so even a restarted instance (whose step results are gone) repeats nothing.
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { z } from "zod";
import { logFailure } from "../errors.ts";
import type { TurnKernel } from "./kernel.ts";
import { proposalEvent } from "./turn-events.ts";
import { turnKernel } from "./wiring.ts";

export const TurnParams = z.object({ turnId: z.string().min(1).max(100) });
export type TurnParams = z.infer<typeof TurnParams>;

const STEP = {
  retries: { limit: 3, delay: "2 seconds", backoff: "exponential" },
  timeout: "10 minutes",
} as const;
/** More rounds than any budget allows (max_tool_steps ≤ 50): the budget stops a turn first. */
const MAX_ROUNDS = 64;
/** Durable pauses when every model is rate-limited beyond what one call waits. */
const MAX_BACKOFFS = 4;
const MAX_BACKOFF_MS = 10 * 60 * 1000;
/** A proposal is awaited in slices; each slice ends with a look at its state (an event may be lost). */
const WAIT_SLICE = "10 minutes";
const MAX_WAIT_SLICES = 15;

export class TurnWorkflow extends WorkflowEntrypoint<Env, TurnParams> {
  override async run(
    event: Readonly<WorkflowEvent<TurnParams>>,
    step: WorkflowStep,
  ): Promise<{ turnId: string }> {
    const { turnId } = TurnParams.parse(event.payload);
    // The kernel's ports hold no state: one per run, not one per step.
    let built: ReturnType<typeof turnKernel> | undefined;
    const kernel = () => {
      built ??= turnKernel(this.env);
      return built;
    };
    try {
      await this.turn(step, turnId, kernel);
    } catch (error) {
      logFailure(`turn ${turnId}`, error);
      await step.do("abandon", STEP, () =>
        kernel().abandon(turnId, error instanceof Error ? error.message : String(error)),
      );
    }
    return { turnId };
  }

  private async turn(step: WorkflowStep, turnId: string, kernel: () => TurnKernel): Promise<void> {
    const started = await step.do("start", STEP, () => kernel().start(turnId));
    if (!started.live) return;
    let backoffs = 0;
    for (let i = 0; i < MAX_ROUNDS; i++) {
      const planned = await step.do(`plan ${i}.${backoffs}`, STEP, () => kernel().plan(turnId, i));
      if (planned.kind === "retry_later") {
        if (backoffs >= MAX_BACKOFFS) {
          await step.do(`give up ${i}`, STEP, () =>
            kernel().abandon(turnId, "The model provider stayed rate-limited."),
          );
          return;
        }
        backoffs++;
        await step.sleep(`back off ${i}.${backoffs}`, Math.min(planned.afterMs, MAX_BACKOFF_MS));
        i--;
        continue;
      }
      if (planned.kind !== "tools") return;
      let acted = await step.do(`act ${i}`, STEP, () => kernel().act(turnId, i));
      for (let round = 0; acted.kind === "waiting"; round++) {
        for (const proposalId of acted.proposals) await this.waitFor(step, turnId, proposalId, kernel);
        acted = await step.do(`settle ${i}.${round}`, STEP, () => kernel().settle(turnId, i));
        if (round > 8) {
          await step.do(`stuck ${i}`, STEP, () => kernel().abandon(turnId, "A proposal never settled."));
          return;
        }
      }
      if (acted.kind === "stopped") return;
    }
    await step.do("too many rounds", STEP, () => kernel().abandon(turnId, "The turn ran out of rounds."));
  }

  private async waitFor(step: WorkflowStep, turnId: string, proposalId: string, kernel: () => TurnKernel) {
    for (let n = 0; n < MAX_WAIT_SLICES; n++) {
      if (await step.do(`check ${proposalId} ${n}`, STEP, () => kernel().settled(turnId, proposalId))) return;
      try {
        await step.waitForEvent(`approval ${proposalId} ${n}`, {
          type: proposalEvent(proposalId),
          timeout: WAIT_SLICE,
        });
      } catch {
        // The slice passed without an event: look at the proposal again.
      }
    }
  }
}
