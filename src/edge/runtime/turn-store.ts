// Turns in D1: the checkpoint a resumed turn continues from. Steps are inserted once (first writer wins),
// calls are recorded as each lands, state moves by guarded updates, and spend is summed from the records.
import { and, asc, count, eq, gt, inArray, sql, sum } from "drizzle-orm";
import { z } from "zod";
import type { VerifiedOutcome } from "../../domain/turn-outcome.ts";
import { PlannerOutput } from "../../protocol/planner.ts";
import { Budgets, RuntimeError, type Spend, StepCall, type TurnStep } from "../../protocol/runtime.ts";
import type { Db } from "../db/client.ts";
import { turnCalls, turnProposals, turnSteps, turns } from "../db/schema.ts";
import type { ModelCallRecord, PlanRecord } from "./planner.ts";

export type TurnRow = typeof turns.$inferSelect;
export type StepRow = typeof turnSteps.$inferSelect;
export type TurnState = TurnRow["state"];

export const LIVE_STATES: TurnState[] = ["queued", "running", "waiting"];

const PlanRecordSchema = z.object({
  output: PlannerOutput,
  callIds: z.array(z.string()),
  model: z.string(),
  attempt: z.enum(["first", "repair", "fallback"]),
  /** The taint of the context the model planned from (older checkpoints have none recorded). */
  taint: z.string().nullable().default(null),
});
const StepCalls = z.array(StepCall.nullable());

export function planOf(row: StepRow): PlanRecord {
  return PlanRecordSchema.parse(JSON.parse(row.plan));
}
export function callsOf(row: StepRow): (StepCall | null)[] {
  return StepCalls.parse(JSON.parse(row.calls));
}
export function budgetsOf(row: TurnRow): Budgets {
  return Budgets.parse(JSON.parse(row.budgets));
}
const Outcome = z.object({ state: z.enum(["succeeded", "failed", "partial"]), summary: z.string() });
export function outcomeOf(row: TurnRow): VerifiedOutcome | null {
  return row.outcome ? Outcome.parse(JSON.parse(row.outcome)) : null;
}
export function errorOf(row: TurnRow): RuntimeError | null {
  return row.error ? RuntimeError.parse(JSON.parse(row.error)) : null;
}

export interface NewTurn {
  id: string;
  userId: string;
  threadId: string;
  jobId: string | null;
  kind: TurnRow["kind"];
  budgets: Budgets;
  triggerMessageId: string;
  tainted: boolean;
  now: number;
}

export async function createTurn(db: Db, t: NewTurn): Promise<TurnRow> {
  await createTurnWrite(db, t);
  const row = await turnById(db, t.id);
  if (!row) throw new Error(`turn ${t.id} was not stored`);
  return row;
}

/** createTurn's insert, unsent, to ride in a D1 batch (a job's creation). */
export function createTurnWrite(db: Db, t: NewTurn) {
  return db
    .insert(turns)
    .values({
      id: t.id,
      userId: t.userId,
      threadId: t.threadId,
      jobId: t.jobId,
      kind: t.kind,
      state: "queued",
      budgets: JSON.stringify(t.budgets),
      tainted: t.tainted,
      triggerMessageId: t.triggerMessageId,
      createdAt: t.now,
    })
    .onConflictDoNothing();
}

export async function turnById(db: Db, id: string): Promise<TurnRow | undefined> {
  return (await db.select().from(turns).where(eq(turns.id, id)))[0];
}

/** The thread's turn still in progress, if any (a thread answers one message at a time). */
export async function liveTurnOf(db: Db, threadId: string): Promise<TurnRow | undefined> {
  return (
    await db
      .select()
      .from(turns)
      .where(and(eq(turns.threadId, threadId), inArray(turns.state, LIVE_STATES)))
      .limit(1)
  )[0];
}

/** Moves a live turn to `to`; false when it had already ended (or was not in one of `from`). */
export async function moveTurn(
  db: Db,
  id: string,
  from: TurnState[],
  to: TurnState,
  set: Partial<Pick<TurnRow, "startedAt" | "finishedAt" | "error" | "result" | "outcome" | "tainted">> = {},
): Promise<boolean> {
  const moved = await db
    .update(turns)
    .set({ state: to, ...set })
    .where(and(eq(turns.id, id), inArray(turns.state, from)))
    .returning({ id: turns.id });
  return moved.length === 1;
}

export async function markTainted(db: Db, id: string): Promise<void> {
  await db.update(turns).set({ tainted: true }).where(eq(turns.id, id));
}

export async function requestCancel(db: Db, id: string, now: number): Promise<void> {
  await db
    .update(turns)
    .set({ cancelRequestedAt: now })
    .where(and(eq(turns.id, id), sql`${turns.cancelRequestedAt} IS NULL`));
}

export async function stepAt(db: Db, turnId: string, idx: number): Promise<StepRow | undefined> {
  return (
    await db
      .select()
      .from(turnSteps)
      .where(and(eq(turnSteps.turnId, turnId), eq(turnSteps.idx, idx)))
  )[0];
}

export function stepsOf(db: Db, turnId: string): Promise<StepRow[]> {
  return db.select().from(turnSteps).where(eq(turnSteps.turnId, turnId)).orderBy(asc(turnSteps.idx));
}

/** Stores step `idx`'s plan unless one is stored already; answers the stored step either way. */
export async function insertStep(
  db: Db,
  turnId: string,
  idx: number,
  plan: PlanRecord,
  usage: { tokensIn: number; tokensOut: number },
  now: number,
): Promise<{ row: StepRow; created: boolean }> {
  const calls = plan.callIds.length;
  const inserted = await db
    .insert(turnSteps)
    .values({
      turnId,
      idx,
      plan: JSON.stringify(plan),
      calls: JSON.stringify(plan.callIds.map(() => null)),
      status: calls === 0 ? "done" : "planned",
      callCount: calls,
      tokensIn: usage.tokensIn,
      tokensOut: usage.tokensOut,
      workMs: 0,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const row = await stepAt(db, turnId, idx);
  if (!row) throw new Error(`step ${turnId}#${idx} vanished`);
  return { row, created: false };
}

export async function saveCalls(
  db: Db,
  turnId: string,
  idx: number,
  calls: (StepCall | null)[],
  set: Partial<Pick<StepRow, "status" | "toolTokens" | "workMs">> = {},
): Promise<void> {
  await db
    .update(turnSteps)
    .set({ calls: JSON.stringify(calls), ...set })
    .where(and(eq(turnSteps.turnId, turnId), eq(turnSteps.idx, idx)));
}

export async function recordModelCalls(
  db: Db,
  turnId: string,
  idx: number,
  calls: ModelCallRecord[],
  now: number,
): Promise<void> {
  if (calls.length === 0) return;
  await db.insert(turnCalls).values(
    calls.map((c) => ({
      id: `${turnId}:${idx}:${crypto.randomUUID()}`,
      turnId,
      idx,
      model: c.model,
      outcome: `${c.attempt}:${c.outcome}`,
      tokensIn: c.tokensIn,
      tokensOut: c.tokensOut,
      costUsd: c.costUsd,
      workMs: c.latencyMs,
      createdAt: now,
    })),
  );
}

export async function linkProposal(
  db: Db,
  link: { proposalId: string; turnId: string; idx: number; position: number; userId: string },
): Promise<void> {
  await db.insert(turnProposals).values(link).onConflictDoNothing();
}

export async function turnOfProposal(db: Db, proposalId: string) {
  return (await db.select().from(turnProposals).where(eq(turnProposals.proposalId, proposalId)))[0];
}

export async function proposalsOfTurn(db: Db, turnId: string) {
  return db
    .select()
    .from(turnProposals)
    .where(eq(turnProposals.turnId, turnId))
    .orderBy(asc(turnProposals.idx));
}

/** What the turn has used: model calls (every attempt counts), tool steps, tool tokens, working time. */
export async function spendOf(db: Db, turnId: string): Promise<Spend> {
  return (await spendOfTurns(db, [turnId])).get(turnId) ?? spendFrom(undefined, undefined);
}

/** D1 binds at most 100 parameters per statement. */
const TURNS_PER_QUERY = 90;

/** `spendOf` for many turns in two grouped queries per 90 turns (a page of jobs), not two per turn. */
export async function spendOfTurns(db: Db, turnIds: readonly string[]): Promise<Map<string, Spend>> {
  const out = new Map<string, Spend>();
  for (let i = 0; i < turnIds.length; i += TURNS_PER_QUERY) {
    const ids = turnIds.slice(i, i + TURNS_PER_QUERY);
    const models = await db
      .select({
        turnId: turnCalls.turnId,
        n: count(),
        tokensIn: sum(turnCalls.tokensIn),
        tokensOut: sum(turnCalls.tokensOut),
        cost: sum(turnCalls.costUsd),
        ms: sum(turnCalls.workMs),
      })
      .from(turnCalls)
      .where(inArray(turnCalls.turnId, ids))
      .groupBy(turnCalls.turnId);
    const tools = await db
      .select({
        turnId: turnSteps.turnId,
        steps: count(),
        toolTokens: sum(turnSteps.toolTokens),
        ms: sum(turnSteps.workMs),
      })
      .from(turnSteps)
      .where(and(inArray(turnSteps.turnId, ids), gt(turnSteps.callCount, 0)))
      .groupBy(turnSteps.turnId);
    for (const id of ids) {
      out.set(
        id,
        spendFrom(
          models.find((m) => m.turnId === id),
          tools.find((t) => t.turnId === id),
        ),
      );
    }
  }
  return out;
}

type Sum = string | number | null;

function spendFrom(
  model: { n: number; tokensIn: Sum; tokensOut: Sum; cost: Sum; ms: Sum } | undefined,
  tools: { steps: number; toolTokens: Sum; ms: Sum } | undefined,
): Spend {
  return {
    steps: tools?.steps ?? 0,
    model_calls: model?.n ?? 0,
    tokens_in: Number(model?.tokensIn ?? 0),
    tokens_out: Number(model?.tokensOut ?? 0),
    tool_tokens: Number(tools?.toolTokens ?? 0),
    cost_usd: Math.round(Number(model?.cost ?? 0) * 1e6) / 1e6,
    wall_clock_ms: Number(model?.ms ?? 0) + Number(tools?.ms ?? 0),
  };
}

export function stepView(row: StepRow): TurnStep {
  const plan = planOf(row);
  return {
    index: row.idx,
    model: plan.model,
    attempt: plan.attempt,
    tokens_in: row.tokensIn,
    tokens_out: row.tokensOut,
    status: row.status,
    calls: callsOf(row).filter((c): c is StepCall => c !== null),
    at: new Date(row.createdAt).toISOString(),
  };
}
