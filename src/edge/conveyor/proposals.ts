// Proposals in D1: creation keyed by (user, tool, idempotency key), the state machine's guarded
// transitions (each an UPDATE … WHERE state = from, so two deciders cannot both win), and views.
import { and, desc, eq, exists, inArray, lte, sql } from "drizzle-orm";
import {
  ExecutionEnvelope,
  type ProposalSourceKind,
  type ProposalState,
  ProposalSummary,
  type ProposalView,
  type RiskClass,
} from "../../protocol/conveyor.ts";
import { type AuditEntry, auditInsertWhere } from "../audit/audit-log.ts";
import { redact } from "../audit/redact.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { idempotency, proposedActions } from "../db/schema.ts";

export type ProposalRow = typeof proposedActions.$inferSelect;
export type Gate = "none" | "ask" | "ask_confirm";

export const DEFAULT_PROPOSAL_TTL_S = 3600;

/** Which states may follow which: the whole lifecycle in one table. */
export const TRANSITIONS: Record<ProposalState, readonly ProposalState[]> = {
  PENDING: ["APPROVED", "REJECTED", "EXPIRED"],
  APPROVED: ["EXECUTED", "FAILED", "PARTIAL"],
  REJECTED: [],
  EXPIRED: [],
  EXECUTED: [],
  FAILED: [],
  PARTIAL: [],
};

/** A state nothing follows: the proposal is settled, and whatever waited on it stops waiting. */
export function isSettled(state: string): boolean {
  return Object.hasOwn(TRANSITIONS, state) && TRANSITIONS[state as ProposalState].length === 0;
}

export interface NewProposal {
  userId: string;
  tool: string;
  identity: "user" | "bot";
  idempotencyKey: string;
  argsHash: string;
  args: unknown;
  riskClass: RiskClass;
  justification: string;
  summary: ProposalSummary;
  source: { kind: ProposalSourceKind; ref: string | null };
  gate: Gate;
  /** Why the gate answered as it did (shown on the card when a person must decide). */
  gateReason: string | null;
  /** PENDING when a person decides; APPROVED when policy or a grant allowed; REJECTED when denied. */
  state: "PENDING" | "APPROVED" | "REJECTED";
  decidedBy: string | null;
  createdAt: number;
  expiresAt: number;
  createdByDevice: string | null;
  /** The prompt a PENDING proposal will open, named before the insert so no second write sets it. */
  promptId?: string | null;
}

export type Inserted = { created: true; row: ProposalRow } | { created: false; row: ProposalRow };

/**
 * Inserts the proposal and, in the same D1 batch, its audit (`audit` gets the new row's id): the audit rows
 * are written only if this insert created the row, not when the key named an existing proposal.
 */
export async function insertProposal(
  db: Db,
  p: NewProposal,
  audit: (id: string) => AuditEntry[] = () => [],
): Promise<Inserted> {
  const row: ProposalRow = {
    id: newId("prp"),
    userId: p.userId,
    tool: p.tool,
    identity: p.identity,
    idempotencyKey: p.idempotencyKey,
    argsHash: p.argsHash,
    args: JSON.stringify(p.args),
    riskClass: p.riskClass,
    justification: p.justification,
    summary: JSON.stringify(p.summary),
    sourceKind: p.source.kind,
    sourceRef: p.source.ref,
    state: p.state,
    gate: p.gate,
    gateReason: p.gateReason,
    promptId: p.promptId ?? null,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    decidedAt: p.state === "PENDING" ? null : p.createdAt,
    decidedBy: p.decidedBy,
    finishedAt: null,
    envelope: null,
    createdByDevice: p.createdByDevice,
  };
  const created = sql`EXISTS (SELECT 1 FROM proposed_actions WHERE id = ${row.id})`;
  const [inserted] = await db.batch([
    db.insert(proposedActions).values(row).onConflictDoNothing().returning(),
    ...audit(row.id).map((entry) => auditInsertWhere(db, entry, created)),
  ]);
  if (inserted[0]) return { created: true, row: inserted[0] };
  const existing = await byKey(db, p.userId, p.tool, p.idempotencyKey);
  if (!existing) throw new Error("proposal vanished between insert and read");
  return { created: false, row: existing };
}

export async function byKey(
  db: Db,
  userId: string,
  tool: string,
  key: string,
): Promise<ProposalRow | undefined> {
  return (
    await db
      .select()
      .from(proposedActions)
      .where(
        and(
          eq(proposedActions.userId, userId),
          eq(proposedActions.tool, tool),
          eq(proposedActions.idempotencyKey, key),
        ),
      )
  )[0];
}

export async function byId(db: Db, userId: string, id: string): Promise<ProposalRow | undefined> {
  return (
    await db
      .select()
      .from(proposedActions)
      .where(and(eq(proposedActions.userId, userId), eq(proposedActions.id, id)))
  )[0];
}

export async function list(
  db: Db,
  userId: string,
  state: ProposalState | undefined,
  limit: number,
): Promise<ProposalRow[]> {
  const where = state
    ? and(eq(proposedActions.userId, userId), eq(proposedActions.state, state))
    : eq(proposedActions.userId, userId);
  return db
    .select()
    .from(proposedActions)
    .where(where)
    .orderBy(desc(proposedActions.createdAt), desc(proposedActions.id))
    .limit(limit);
}

/** Moves one proposal from `from` to `to`; false if it was not in `from` (someone else moved it first). */
export async function transition(
  db: Db,
  id: string,
  from: ProposalState,
  to: ProposalState,
  set: Partial<Pick<ProposalRow, "decidedAt" | "decidedBy" | "finishedAt" | "envelope" | "promptId">> = {},
): Promise<boolean> {
  if (!TRANSITIONS[from].includes(to)) throw new Error(`illegal proposal transition ${from} → ${to}`);
  const moved = await db
    .update(proposedActions)
    .set({ state: to, ...set })
    .where(and(eq(proposedActions.id, id), eq(proposedActions.state, from)))
    .returning({ id: proposedActions.id });
  return moved.length === 1;
}

/**
 * A person's (or the deadline's) answer on a PENDING proposal, decided and recorded in one statement: an
 * allow that comes after the proposal's own expiry expires it instead. Undefined if it was not PENDING.
 */
export async function decide(
  db: Db,
  userId: string,
  id: string,
  allow: boolean,
  timedOut: boolean,
  actor: string,
  now: number,
): Promise<ProposalRow | undefined> {
  const late = sql`${proposedActions.expiresAt} <= ${now}`;
  const set = timedOut
    ? { state: "EXPIRED" as const, decidedBy: "timeout" }
    : allow
      ? {
          state: sql<ProposalState>`CASE WHEN ${late} THEN 'EXPIRED' ELSE 'APPROVED' END`,
          decidedBy: sql<string>`CASE WHEN ${late} THEN 'timeout' ELSE ${actor} END`,
        }
      : { state: "REJECTED" as const, decidedBy: actor };
  return (
    await db
      .update(proposedActions)
      .set({ ...set, decidedAt: now })
      .where(
        and(
          eq(proposedActions.userId, userId),
          eq(proposedActions.id, id),
          eq(proposedActions.state, "PENDING"),
        ),
      )
      .returning()
  )[0];
}

/**
 * An approved proposal's end, unsent, to ride in the batch that stores its run's result: it moves only if
 * that run's own attempt is the stored record (a run taken over after a crash leaves it to the new one).
 */
export function finishQuery(
  db: Db,
  row: ProposalRow,
  to: "EXECUTED" | "FAILED" | "PARTIAL",
  attempt: number,
  envelope: string,
  now: number,
) {
  return db
    .update(proposedActions)
    .set({ state: to, finishedAt: now, envelope })
    .where(
      and(
        eq(proposedActions.id, row.id),
        eq(proposedActions.state, "APPROVED"),
        exists(
          db
            .select({ one: sql`1` })
            .from(idempotency)
            .where(
              and(
                eq(idempotency.ownerId, row.userId),
                eq(idempotency.toolName, row.tool),
                eq(idempotency.key, row.idempotencyKey),
                eq(idempotency.attempt, attempt),
              ),
            ),
        ),
      ),
    )
    .returning({ id: proposedActions.id });
}

export async function dueForExpiry(db: Db, userId: string, now: number): Promise<ProposalRow[]> {
  return db
    .select()
    .from(proposedActions)
    .where(
      and(
        eq(proposedActions.userId, userId),
        eq(proposedActions.state, "PENDING"),
        lte(proposedActions.expiresAt, now),
      ),
    );
}

export async function approvedUnfinished(db: Db, userId: string): Promise<ProposalRow[]> {
  return db
    .select()
    .from(proposedActions)
    .where(and(eq(proposedActions.userId, userId), inArray(proposedActions.state, ["APPROVED"])));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The view of a row. `envelope`: the run's envelope when the caller holds it already parsed (the executor
 * built it with ExecutionEnvelope.parse), so it is not parsed from the row's JSON a second time.
 */
export function proposalView(row: ProposalRow, envelope?: ExecutionEnvelope): ProposalView {
  return {
    id: row.id,
    tool: row.tool,
    identity: row.identity,
    risk_class: row.riskClass as RiskClass,
    state: row.state,
    gate: row.gate as Gate,
    gate_reason: row.gateReason,
    summary: ProposalSummary.parse(JSON.parse(row.summary)),
    justification: row.justification,
    args: redact(JSON.parse(row.args)) as Record<string, unknown>,
    idempotency_key: row.idempotencyKey,
    source: { kind: row.sourceKind, ref: row.sourceRef },
    prompt_id: row.promptId,
    created_at: new Date(row.createdAt).toISOString(),
    expires_at: new Date(row.expiresAt).toISOString(),
    decided_at: iso(row.decidedAt),
    decided_by: row.decidedBy,
    finished_at: iso(row.finishedAt),
    envelope: envelope ?? (row.envelope ? ExecutionEnvelope.parse(JSON.parse(row.envelope)) : null),
  };
}
