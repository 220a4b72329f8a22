// The retention sweep (a Worker cron trigger, daily): deletes rows past their retention in batches, and
// records what it removed (retention_runs and an audit event). Seed 003 §6.2 defaults, configurable.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { writeAudit } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import { type Db, openDb } from "../db/client.ts";
import { retentionRuns } from "../db/schema.ts";

const DAY_MS = 86_400_000;
/** Rows per DELETE statement, and statements per table per sweep (the rest waits for tomorrow). */
export const RETENTION_BATCH = 500;
const MAX_BATCHES = 100;

export const RETENTION_CLASSES = [
  "idempotency",
  "audit",
  "artifacts",
  "webhook_deliveries",
  "messages",
  "history",
] as const;
type RetentionClass = (typeof RETENTION_CLASSES)[number];
export type RetentionDays = Record<RetentionClass, number>;

export const DEFAULT_RETENTION_DAYS: RetentionDays = {
  idempotency: 90,
  audit: 90,
  artifacts: 90,
  webhook_deliveries: 90,
  messages: 30,
  history: 90,
};

/**
 * Each table a class covers, in the order swept: its time column (none for a link row that goes with its
 * parent) and any extra condition (only finished idempotency records, proposals and turns).
 */
interface SweptTable {
  table: string;
  column?: string;
  where?: string;
}
const TABLES: Record<RetentionClass, SweptTable[]> = {
  idempotency: [{ table: "idempotency", column: "finished_at", where: "state IN ('executed', 'failed')" }],
  audit: [{ table: "audit_log", column: "at" }],
  artifacts: [{ table: "artifacts", column: "created_at" }],
  webhook_deliveries: [{ table: "webhook_deliveries", column: "received_at" }],
  // A turn's checkpoint holds the same conversation, so it goes with the messages.
  messages: [
    { table: "messages", column: "created_at" },
    { table: "turn_steps", column: "created_at" },
    { table: "turn_calls", column: "created_at" },
  ],
  // Per-user history that was kept for ever (docs/scale.md: D1 size was the first bottleneck). Only what is
  // over: a proposal in a final state, a finished turn, a job whose turn finished (or is gone); jobs go
  // before turns so that check still sees the turn. Link rows and job threads go once their parent has.
  history: [
    {
      table: "proposed_actions",
      column: "created_at",
      where: "state IN ('EXECUTED', 'FAILED', 'PARTIAL', 'REJECTED', 'EXPIRED')",
    },
    {
      table: "jobs",
      column: "created_at",
      where: "NOT EXISTS (SELECT 1 FROM turns t WHERE t.id = jobs.turn_id AND t.finished_at IS NULL)",
    },
    { table: "turns", column: "created_at", where: "finished_at IS NOT NULL" },
    {
      table: "turn_proposals",
      where: "NOT EXISTS (SELECT 1 FROM turns t WHERE t.id = turn_proposals.turn_id)",
    },
    {
      table: "threads",
      column: "updated_at",
      where: "job_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = threads.job_id)",
    },
  ],
};

/** `AIRLOCK_RETENTION_DAYS`, e.g. "audit=90,messages=30"; classes not named keep their default. */
export function retentionDays(text: string | undefined): RetentionDays {
  const days = { ...DEFAULT_RETENTION_DAYS };
  for (const part of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value] = part.split("=");
    const cls = z.enum(RETENTION_CLASSES).safeParse(name?.trim());
    const n = z.coerce.number().int().min(1).max(3650).safeParse(value?.trim());
    if (cls.success && n.success) days[cls.data] = n.data;
    else console.warn(`[airlock] AIRLOCK_RETENTION_DAYS: ignoring "${part}"`);
  }
  return days;
}

async function deleteOlder(db: Db, t: SweptTable, cutoff: number) {
  let removed = 0;
  const conditions = [t.column && `${t.column} < ${Math.floor(cutoff)}`, t.where].filter(Boolean);
  for (let i = 0; i < MAX_BATCHES; i++) {
    // Names and conditions come from TABLES above, never from input.
    const result = await db.run(
      sql.raw(
        `DELETE FROM ${t.table} WHERE rowid IN (SELECT rowid FROM ${t.table} WHERE ${conditions.join(" AND ")} LIMIT ${RETENTION_BATCH})`,
      ),
    );
    const n = result.meta.changes ?? 0;
    removed += n;
    if (n < RETENTION_BATCH) return { removed, more: false };
  }
  return { removed, more: true };
}

export interface RetentionReport {
  removed: Record<string, number>;
  /** Tables with rows still past retention (the batch cap was reached); the next sweep continues. */
  more: string[];
  cutoffs: Record<string, string>;
}

export async function sweep(db: Db, days: RetentionDays, now: number): Promise<RetentionReport> {
  const report: RetentionReport = { removed: {}, more: [], cutoffs: {} };
  for (const cls of RETENTION_CLASSES) {
    const cutoff = now - days[cls] * DAY_MS;
    report.cutoffs[cls] = new Date(cutoff).toISOString();
    for (const t of TABLES[cls]) {
      const { removed, more } = await deleteOlder(db, t, cutoff);
      report.removed[t.table] = removed;
      if (more) report.more.push(t.table);
    }
  }
  await db.insert(retentionRuns).values({
    id: newId("ret"),
    startedAt: now,
    finishedAt: Date.now(),
    removed: JSON.stringify(report),
  });
  await writeAudit(db, { userId: null, actor: "system", event: "retention.removed", details: { ...report } });
  return report;
}

export function sweepRetention(env: Env, scheduledTime: number): Promise<RetentionReport> {
  return sweep(openDb(env.DB), retentionDays(env.AIRLOCK_RETENTION_DAYS), scheduledTime);
}
