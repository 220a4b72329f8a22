// The turn kernel: each call is one durable Workflow step, idempotent against the D1 checkpoint, so a
// restarted instance resumes where it stopped and never repeats a model round or a tool call.
// start → plan(i) → act(i) → [wait for proposals] → settle(i) → plan(i+1) … → a final message or a bound.

import { reachedBound } from "../../domain/turn-budget.ts";
import {
  outcomeLine,
  type TurnEffectRecord,
  type VerifiedOutcome,
  verifiedOutcome,
} from "../../domain/turn-outcome.ts";
import type { ProposalSourceKind } from "../../protocol/conveyor.ts";
import type { RuntimeError } from "../../protocol/runtime.ts";
import { writeAuditBatch } from "../audit/audit-log.ts";
import * as proposals from "../conveyor/proposals.ts";
import { announceJob, finishNotice } from "./job-events.ts";
import { jobById } from "./jobs.ts";
import { modelContext, windowTaint } from "./model-input.ts";
import type { KernelPorts } from "./ports.ts";
import { type ActOutcome, actOnStep, settleStep } from "./step-actions.ts";
import { appendMessage, messageView, recentMessages } from "./threads.ts";
import * as turns from "./turn-store.ts";

export type PlanOutcome =
  | { kind: "tools" }
  | { kind: "final" }
  | { kind: "stopped" }
  /** The provider asked for a long pause: sleep durably, then plan the same step again. */
  | { kind: "retry_later"; afterMs: number };

/** Streamed text is sent to dashboards in pieces at least this far apart. */
const DELTA_FLUSH_MS = 150;

export class TurnKernel {
  readonly ports: KernelPorts;

  constructor(ports: KernelPorts) {
    this.ports = ports;
  }

  private async load(turnId: string): Promise<turns.TurnRow> {
    const turn = await turns.turnById(this.ports.db, turnId);
    if (!turn) throw new Error(`no turn ${turnId}`);
    return turn;
  }

  private audit(turn: turns.TurnRow, event: string, details: Record<string, unknown>) {
    return writeAuditBatch(this.ports.db, [
      {
        userId: turn.userId,
        actor: turn.jobId ? `job:${turn.jobId}` : `chat:${turn.threadId}`,
        event,
        target: turn.id,
        details,
      },
    ]);
  }

  async start(turnId: string): Promise<{ live: boolean }> {
    const turn = await this.load(turnId);
    if (turn.cancelRequestedAt !== null && turn.state === "queued") {
      await this.finish(turn, "cancelled", { code: "CANCELLED", message: "Cancelled before it started." });
      return { live: false };
    }
    if (await turns.moveTurn(this.ports.db, turnId, ["queued"], "running", { startedAt: this.ports.now() })) {
      await this.audit(turn, "runtime.turn_started", { kind: turn.kind, job_id: turn.jobId });
      await announceJob(this.ports, turnId);
    }
    const now = await this.load(turnId);
    return { live: turns.LIVE_STATES.includes(now.state) };
  }

  /** Ends a live turn once (later callers find it ended and do nothing). */
  async finish(
    turn: turns.TurnRow,
    state: "succeeded" | "failed" | "partial" | "cancelled",
    error: RuntimeError | null,
    result: string | null = null,
    outcome: VerifiedOutcome | null = null,
  ): Promise<void> {
    const moved = await turns.moveTurn(this.ports.db, turn.id, turns.LIVE_STATES, state, {
      finishedAt: this.ports.now(),
      error: error ? JSON.stringify(error) : null,
      result,
      outcome: outcome ? JSON.stringify(outcome) : null,
    });
    if (!moved) return;
    await this.audit(turn, "runtime.turn_finished", { state, error });
    await announceJob(this.ports, turn.id);
    await finishNotice(this.ports, turn.id);
  }

  async plan(turnId: string, idx: number): Promise<PlanOutcome> {
    const { db } = this.ports;
    let turn = await this.load(turnId);
    const stored = await turns.stepAt(db, turnId, idx);
    if (stored) return stored.callCount > 0 ? { kind: "tools" } : { kind: "final" };
    if (!turns.LIVE_STATES.includes(turn.state)) return { kind: "stopped" };
    if (turn.cancelRequestedAt !== null) {
      await this.finish(turn, "cancelled", { code: "CANCELLED", message: "Cancelled at a step boundary." });
      return { kind: "stopped" };
    }
    if (turn.state === "waiting") {
      await turns.moveTurn(db, turnId, ["waiting"], "running");
      turn = await this.load(turnId);
    }
    const budgets = turns.budgetsOf(turn);
    const rows = await recentMessages(db, turn.threadId, budgets.max_context_messages - 1);
    const triggerAt = rows.findIndex((r) => r.id === turn.triggerMessageId);
    const spend = await turns.spendOf(db, turnId);
    const bound = reachedBound(
      {
        steps: spend.steps,
        tool_tokens: spend.tool_tokens,
        tokens: spend.tokens_in + spend.tokens_out,
        cost_usd: spend.cost_usd,
        wall_clock_ms: spend.wall_clock_ms,
        context_messages: triggerAt < 0 ? budgets.max_context_messages + 1 : rows.length - triggerAt + 1,
      },
      budgets,
    );
    if (bound) {
      const message = `Stopped: the turn reached ${bound} (${budgets[bound]}).`;
      await this.audit(turn, "runtime.bound_reached", { bound, limit: budgets[bound], spend });
      await this.say(turn, idx, message);
      await this.finish(turn, "failed", { code: "BUDGET_EXCEEDED", message, bound });
      return { kind: "stopped" };
    }
    const planner = this.ports.planner;
    if (!planner) {
      await this.finish(turn, "failed", { code: "MODEL_NOT_CONFIGURED", message: this.ports.plannerProblem });
      return { kind: "stopped" };
    }
    const started = this.ports.now();
    const stream = this.streamer(turn, idx);
    const planned = await planner.plan(modelContext(rows, this.ports.secrets), stream.push);
    await stream.flush();
    await turns.recordModelCalls(db, turnId, idx, planned.calls, this.ports.now());
    const invalid = planned.calls.filter((c) => c.outcome === "invalid");
    for (const c of invalid)
      await this.audit(turn, "runtime.model_output_invalid", {
        step: idx,
        model: c.model,
        attempt: c.attempt,
        problems: c.problems,
      });
    if (!planned.ok) {
      if (planned.code === "MODEL_UNAVAILABLE" && planned.retryAfterMs !== null)
        return { kind: "retry_later", afterMs: planned.retryAfterMs };
      const event =
        planned.code === "FAILED_MODEL_OUTPUT"
          ? "runtime.failed_model_output"
          : planned.code === "PLAN_INVALID"
            ? "runtime.plan_invalid"
            : "runtime.model_unavailable";
      await this.audit(turn, event, { step: idx, message: planned.message });
      await this.finish(turn, "failed", { code: planned.code, message: planned.message });
      return { kind: "stopped" };
    }
    if (invalid.length)
      await this.audit(turn, "runtime.model_output_repaired", {
        step: idx,
        model: planned.plan.model,
        attempt: planned.plan.attempt,
      });
    const accepted = planned.calls.at(-1);
    const { row, created } = await turns.insertStep(
      db,
      turnId,
      idx,
      { ...planned.plan, taint: windowTaint(rows) },
      { tokensIn: accepted?.tokensIn ?? 0, tokensOut: accepted?.tokensOut ?? 0 },
      this.ports.now(),
    );
    const plan = turns.planOf(row);
    if (!created) return plan.callIds.length ? { kind: "tools" } : { kind: "final" };
    const calls = [
      ...(plan.output.tool_calls ?? []).map((c, i) => ({
        id: plan.callIds[i] ?? c.id,
        name: c.name,
        arguments: JSON.stringify(c.arguments),
      })),
      ...(plan.output.proposed_actions ?? []).map((a, k) => ({
        id: plan.callIds[(plan.output.tool_calls?.length ?? 0) + k] ?? `pa_${k}`,
        name: "propose_action",
        arguments: JSON.stringify(a),
      })),
    ];
    await this.audit(turn, "runtime.step_planned", {
      step: idx,
      model: plan.model,
      attempt: plan.attempt,
      calls: calls.map((c) => c.name),
      ms: this.ports.now() - started,
    });
    if (calls.length === 0) {
      await this.conclude(turn, idx, plan.output.assistant_message);
      return { kind: "final" };
    }
    await this.say(turn, idx, plan.output.assistant_message, calls);
    return { kind: "tools" };
  }

  /**
   * The final message: the outcome comes from what the turn did (src/domain/turn-outcome.ts), never from
   * the model's words, and is shown beside them whenever the turn did anything (a job always).
   */
  private async conclude(turn: turns.TurnRow, idx: number, text: string): Promise<void> {
    const records = await this.recordsOf(turn);
    const outcome = verifiedOutcome(records);
    const shown = turn.kind === "job" || records.length > 0;
    await this.say(turn, idx, shown ? `${text}\n\n${outcomeLine(outcome)}`.trim() : text);
    const error: RuntimeError | null =
      outcome.state === "succeeded" ? null : { code: "VERIFICATION_FAILED", message: outcome.summary };
    await this.finish(turn, outcome.state, error, text, outcome);
  }

  /** What the turn did, from its own records: each proposal's state and envelope, each inline call's status. */
  private async recordsOf(turn: turns.TurnRow): Promise<TurnEffectRecord[]> {
    const { db } = this.ports;
    const records: TurnEffectRecord[] = [];
    for (const step of await turns.stepsOf(db, turn.id))
      for (const call of turns.callsOf(step))
        if (call && call.mode !== "proposal")
          records.push({
            kind: call.mode === "inline" ? "read" : "effect",
            what: call.tool,
            state: call.status,
            detail: call.detail.slice(0, 200),
          });
    for (const link of await turns.proposalsOfTurn(db, turn.id)) {
      const row = await proposals.byId(db, turn.userId, link.proposalId);
      if (!row) continue;
      const view = proposals.proposalView(row);
      const failure = view.envelope?.failure;
      const detail = failure ? `${failure.class}: ${failure.message}` : view.envelope?.verification.detail;
      records.push({
        kind: "effect",
        what: view.summary.what,
        state: view.state,
        ...(detail ? { detail } : {}),
      });
    }
    return records;
  }

  async act(turnId: string, idx: number): Promise<ActOutcome> {
    return actOnStep(this, await this.load(turnId), idx);
  }

  /** Whether the turn may stop waiting on this proposal (it settled, or the turn ended). */
  async settled(turnId: string, proposalId: string): Promise<boolean> {
    const turn = await this.load(turnId);
    if (!turns.LIVE_STATES.includes(turn.state)) return true;
    const row = await proposals.byId(this.ports.db, turn.userId, proposalId);
    return !row || proposals.isSettled(row.state);
  }

  async settle(turnId: string, idx: number): Promise<ActOutcome> {
    return settleStep(this, await this.load(turnId), idx);
  }

  /** The workflow gave up on a step (its retries ran out): the turn fails rather than hang. */
  async abandon(turnId: string, reason: string): Promise<void> {
    await this.finish(await this.load(turnId), "failed", { code: "INTERNAL", message: reason.slice(0, 500) });
  }

  /** A job's proposals say what started the job (a webhook's never ride on a saved grant). */
  async jobSourceKind(jobId: string): Promise<ProposalSourceKind | undefined> {
    const job = await jobById(this.ports.db, jobId);
    if (!job) return undefined;
    return job.triggerKind === "api" ? "job" : job.triggerKind;
  }

  /** Tells dashboards a job's state or progress changed. */
  announce(turnId: string): Promise<void> {
    return announceJob(this.ports, turnId);
  }

  /** Stores the assistant's message of step `idx` (once) and shows it. */
  async say(
    turn: turns.TurnRow,
    idx: number,
    content: string,
    toolCalls: { id: string; name: string; arguments: string }[] = [],
  ): Promise<void> {
    if (!content && toolCalls.length === 0) return;
    const row = await appendMessage(this.ports.db, {
      id: `msg_${turn.id}_${idx}_a`,
      threadId: turn.threadId,
      userId: turn.userId,
      role: "assistant",
      content,
      turnId: turn.id,
      toolCalls,
      now: this.ports.now(),
    });
    await this.ports.hub(turn.userId).broadcast({ type: "chat_message", data: messageView(row) });
  }

  /** Batches streamed text into chat_delta messages for the dashboards. */
  private streamer(turn: turns.TurnRow, idx: number) {
    const hub = this.ports.hub(turn.userId);
    let pending = "";
    let attempt = 0;
    let last = 0;
    let sending: Promise<void> = Promise.resolve();
    const send = () => {
      if (!pending) return;
      const delta = pending;
      pending = "";
      last = this.ports.now();
      sending = sending
        .then(() =>
          hub.broadcast({
            type: "chat_delta",
            data: {
              thread_id: turn.threadId,
              turn_id: turn.id,
              message_id: `msg_${turn.id}_${idx}_a`,
              attempt,
              delta,
            },
          }),
        )
        .catch(() => undefined);
    };
    return {
      push: (n: number, text: string) => {
        if (n !== attempt) {
          send();
          attempt = n;
        }
        pending += text;
        if (this.ports.now() - last >= DELTA_FLUSH_MS) send();
      },
      flush: async () => {
        send();
        await sending;
      },
    };
  }
}
