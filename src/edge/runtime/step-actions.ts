// Acting on a planned step: each call is judged by the policy (turnEffect, proposalGate) and then run
// inline (a read, through the idempotent executor) or proposed to the conveyor. Each result is recorded
// as it lands, keyed by (turn, step, position), so a resumed step skips what already ran.

import { estimateTokens } from "../../domain/turn-budget.ts";
import { proposalGate } from "../../policy/proposal-gate.ts";
import { turnEffect } from "../../policy/turn-safety.ts";
import type { ExecutionEnvelope, ProposalSourceKind, ProposalView } from "../../protocol/conveyor.ts";
import type { RuntimeError, StepCall } from "../../protocol/runtime.ts";
import * as proposals from "../conveyor/proposals.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { interventionNotice } from "./job-events.ts";
import { commitLines, sourceOfCall } from "./model-input.ts";
import type { KernelPorts } from "./ports.ts";
import { appendMessage, clip, messageView } from "./threads.ts";
import * as turns from "./turn-store.ts";

/**
 * What the step actions need of the turn kernel (TurnKernel is one): its ports, ending the turn, the kind of
 * a job's source, and telling dashboards the turn changed. A port, so the actions do not import the kernel.
 */
export interface StepHost {
  readonly ports: KernelPorts;
  finish(turn: turns.TurnRow, state: "cancelled", error: RuntimeError): Promise<void>;
  jobSourceKind(jobId: string): Promise<ProposalSourceKind | undefined>;
  announce(turnId: string): Promise<void>;
}

export type ActOutcome =
  | { kind: "continue" }
  /** Proposals a person must decide before the next step (ids). */
  | { kind: "waiting"; proposals: string[] }
  | { kind: "stopped" };

/** How long a turn's proposal waits for the person before it expires (auto-rejected). */
export const TURN_PROPOSAL_TTL_S = 3600;
/** The most of one tool result the model is sent (characters); the rest is cut with a marker. */
const RESULT_CHARS = 16_000;

interface PlannedCall {
  id: string;
  tool: string;
  mode: "inline" | "proposal";
  args: Record<string, unknown>;
  identity: "user" | "bot";
  justification: string;
}

function callsOfPlan(plan: ReturnType<typeof turns.planOf>): PlannedCall[] {
  const reads = (plan.output.tool_calls ?? []).map((c, i) => ({
    id: plan.callIds[i] ?? c.id,
    tool: c.name,
    mode: "inline" as const,
    args: c.arguments,
    // A connector read names whose connection it reads; none (and every other read) is Airlock's bot.
    identity: c.identity ?? ("bot" as const),
    justification: "",
  }));
  const offset = reads.length;
  const writes = (plan.output.proposed_actions ?? []).map((a, k) => ({
    id: plan.callIds[offset + k] ?? `pa_${k}`,
    tool: a.tool,
    mode: "proposal" as const,
    args: a.args,
    // Seed 003 §5: identity is explicit; a model that says none acts as Airlock's bot, never as the person.
    identity: a.identity ?? ("bot" as const),
    justification: a.justification,
  }));
  return [...reads, ...writes];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function envelopeText(envelope: ExecutionEnvelope): { text: string; untrusted: boolean } {
  const result = isRecord(envelope.result) ? envelope.result : undefined;
  const untrusted = result?.untrusted === true;
  const head = envelope.failure
    ? `${envelope.status}: ${envelope.failure.class}: ${envelope.failure.message}`
    : `${envelope.status}: ${envelope.verification.detail}`;
  const body =
    typeof result?.text === "string" ? result.text : typeof result?.body === "string" ? result.body : "";
  const rest = body ? body : result ? JSON.stringify(result) : "";
  const clipped = clip(rest, RESULT_CHARS);
  const commits = body && result ? commitLines(result) : "";
  const text = clipped ? `${head}\n\n${clipped}` : head;
  return { text: commits ? `${text}\n\n${commits}` : text, untrusted };
}

function proposalText(view: ProposalView): { text: string; untrusted: boolean } {
  const head = `Proposal ${view.id} (${view.summary.what}, ${view.summary.where}): ${view.state}`;
  if (!view.envelope) {
    const why =
      view.state === "REJECTED" || view.state === "EXPIRED" ? ` by ${view.decided_by ?? "policy"}` : "";
    return { text: `${head}${why}.`, untrusted: false };
  }
  const ran = envelopeText(view.envelope);
  return { text: `${head}.\n${ran.text}`, untrusted: ran.untrusted };
}

async function record(
  kernel: StepHost,
  turn: turns.TurnRow,
  idx: number,
  position: number,
  call: PlannedCall,
  content: string,
  untrusted: boolean,
): Promise<number> {
  const row = await appendMessage(kernel.ports.db, {
    id: `msg_${turn.id}_${idx}_${position}`,
    threadId: turn.threadId,
    userId: turn.userId,
    role: "tool",
    content,
    turnId: turn.id,
    toolCallId: call.id,
    toolName: call.tool,
    untrusted,
    now: kernel.ports.now(),
  });
  await kernel.ports.hub(turn.userId).broadcast({ type: "chat_message", data: messageView(row) });
  if (untrusted && !turn.tainted) {
    await turns.markTainted(kernel.ports.db, turn.id);
    turn.tainted = true;
  }
  return estimateTokens(row.content);
}

const refused = (call: PlannedCall, why: string): StepCall => ({
  call_id: call.id,
  tool: call.tool,
  mode: "refused",
  status: "refused",
  proposal_id: null,
  untrusted: false,
  detail: why.slice(0, 500),
});

export async function actOnStep(kernel: StepHost, turn: turns.TurnRow, idx: number): Promise<ActOutcome> {
  const { db, registry, now } = kernel.ports;
  const step = await turns.stepAt(db, turn.id, idx);
  if (!step) throw new Error(`act before plan: ${turn.id}#${idx}`);
  const results = turns.callsOf(step);
  const waitingOn = () =>
    results
      .filter((r) => r?.mode === "proposal" && !proposals.isSettled(r.status))
      .map((r) => r?.proposal_id ?? "");
  if (step.status !== "planned") {
    const waiting = waitingOn();
    return waiting.length ? { kind: "waiting", proposals: waiting } : { kind: "continue" };
  }
  if (!turns.LIVE_STATES.includes(turn.state)) return { kind: "stopped" };
  const plan = turns.planOf(step);
  const calls = callsOfPlan(plan);
  // Taint is the context's: what the model planned from, or untrusted content this turn has read since
  // (a read earlier in this step; a checkpoint from before the context's taint was recorded).
  let taint = plan.taint ?? (turn.tainted ? "untrusted content" : null);
  const started = now();
  let toolTokens = step.toolTokens;
  const hub = kernel.ports.hub(turn.userId);
  const actor = turn.jobId ? `job:${turn.jobId}` : `chat:${turn.threadId}`;
  for (const [position, call] of calls.entries()) {
    if (results[position]) continue;
    const fresh = await turns.turnById(db, turn.id);
    if (fresh?.cancelRequestedAt != null) {
      await kernel.finish(turn, "cancelled", { code: "CANCELLED", message: "Cancelled between tool calls." });
      return { kind: "stopped" };
    }
    const tool = registry.get(call.tool);
    const parsed = tool?.schema.safeParse(call.args);
    let result: StepCall;
    if (!tool || !parsed?.success) {
      const why =
        !tool || !parsed?.error
          ? `no tool ${call.tool}`
          : `invalid args: ${fieldProblems(parsed.error)
              .map((p) => `${p.path}: ${p.message}`)
              .join("; ")}`;
      result = refused(call, why);
      toolTokens += await record(kernel, turn, idx, position, call, `Refused: ${why}`, false);
    } else {
      const args = parsed.data as Record<string, unknown>;
      const riskClass = tool.riskClass(args);
      const effect = turnEffect({
        riskClass,
        external: tool.external,
        taint,
        background: turn.kind === "job",
      });
      if (effect.mode === "inline" && call.mode === "inline") {
        const verdict = proposalGate({
          tool: call.tool,
          riskClass,
          external: tool.external,
          grant: undefined,
          grantCoversHigh: false,
          untrustedSource: false,
          emergency: await hub.emergency(),
        });
        if (verdict.action === "deny") {
          result = refused(call, verdict.reason);
          toolTokens += await record(kernel, turn, idx, position, call, `Refused: ${verdict.reason}`, false);
        } else {
          const ran = await kernel.ports.executor.execute({
            ownerId: turn.userId,
            tool: call.tool,
            key: `turn:${turn.id}:${idx}:${position}`,
            args,
            proposalId: null,
            identity: call.identity,
            actor,
          });
          kernel.ports.fault?.("after_inline_call");
          const shown = ran.ok
            ? envelopeText(ran.envelope)
            : { text: `Not run: ${ran.message}`, untrusted: false };
          result = {
            call_id: call.id,
            tool: call.tool,
            mode: "inline",
            status: ran.ok ? ran.envelope.status : "refused",
            proposal_id: null,
            untrusted: shown.untrusted,
            detail: shown.text.split("\n")[0]?.slice(0, 300) ?? "",
          };
          toolTokens += await record(kernel, turn, idx, position, call, shown.text, shown.untrusted);
        }
      } else if (call.mode === "inline") {
        result = refused(call, `${call.tool} is not a read here: propose it with propose_action`);
        toolTokens += await record(kernel, turn, idx, position, call, `Refused: ${result.detail}`, false);
      } else {
        const kind = turn.jobId ? ((await kernel.jobSourceKind(turn.jobId)) ?? "job") : "chat";
        const proposed = await hub.propose(
          {
            tool: call.tool,
            identity: call.identity,
            args,
            idempotency_key: `turn:${turn.id}:${idx}:${position}`,
            justification: call.justification,
            expires_in_s: TURN_PROPOSAL_TTL_S,
          },
          {
            kind,
            ref: turn.jobId ?? turn.threadId,
            actor,
            ...(effect.mode === "propose" && effect.personOnly ? { personOnly: effect.personOnly } : {}),
          },
        );
        if (!proposed.ok) {
          result = refused(call, `${proposed.code}: ${proposed.message}`);
          toolTokens += await record(kernel, turn, idx, position, call, `Refused: ${result.detail}`, false);
        } else {
          const view = proposed.view;
          await turns.linkProposal(db, {
            proposalId: view.id,
            turnId: turn.id,
            idx,
            position,
            userId: turn.userId,
          });
          kernel.ports.fault?.("after_proposal");
          result = {
            call_id: call.id,
            tool: call.tool,
            mode: "proposal",
            status: view.state,
            proposal_id: view.id,
            untrusted: false,
            detail: `${view.summary.what} (${view.gate})`,
          };
          if (proposals.isSettled(view.state)) {
            const shown = proposalText(view);
            result.untrusted = shown.untrusted;
            toolTokens += await record(kernel, turn, idx, position, call, shown.text, shown.untrusted);
          } else if (turn.jobId) await interventionNotice(kernel.ports, turn, view);
        }
      }
    }
    results[position] = result;
    if (taint === null && result.untrusted) taint = sourceOfCall(call.tool, call.args);
    await turns.saveCalls(db, turn.id, idx, results, { toolTokens });
  }
  const waiting = waitingOn();
  await turns.saveCalls(db, turn.id, idx, results, {
    status: waiting.length ? "waiting" : "done",
    workMs: step.workMs + (now() - started),
  });
  if (waiting.length) {
    await turns.moveTurn(db, turn.id, ["running"], "waiting");
    await kernel.announce(turn.id);
    return { kind: "waiting", proposals: waiting };
  }
  return { kind: "continue" };
}

/** After the waits: each proposal's outcome becomes its call's result message, then the turn goes on. */
export async function settleStep(kernel: StepHost, turn: turns.TurnRow, idx: number): Promise<ActOutcome> {
  const { db } = kernel.ports;
  const step = await turns.stepAt(db, turn.id, idx);
  if (!step) throw new Error(`settle before plan: ${turn.id}#${idx}`);
  if (step.status === "done") return { kind: "continue" };
  const results = turns.callsOf(step);
  const calls = callsOfPlan(turns.planOf(step));
  let toolTokens = step.toolTokens;
  for (const [position, result] of results.entries()) {
    const call = calls[position];
    if (
      !result ||
      !call ||
      result.mode !== "proposal" ||
      proposals.isSettled(result.status) ||
      !result.proposal_id
    )
      continue;
    const row = await proposals.byId(db, turn.userId, result.proposal_id);
    if (!row) continue;
    const view = proposals.proposalView(row);
    if (!proposals.isSettled(view.state) && turns.LIVE_STATES.includes(turn.state))
      return { kind: "waiting", proposals: [view.id] };
    const shown = proposalText(view);
    toolTokens += await record(kernel, turn, idx, position, call, shown.text, shown.untrusted);
    results[position] = { ...result, status: view.state, untrusted: shown.untrusted };
    await turns.saveCalls(db, turn.id, idx, results, { toolTokens });
  }
  await turns.saveCalls(db, turn.id, idx, results, { status: "done" });
  if (await turns.moveTurn(db, turn.id, ["waiting"], "running")) await kernel.announce(turn.id);
  return { kind: "continue" };
}
