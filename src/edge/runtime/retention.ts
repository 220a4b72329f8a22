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
] as const;
type RetentionClass = (typeof RETENTION_CLASSES)[number];
export type RetentionDays = Record<RetentionClass, number>;

export const DEFAULT_RETENTION_DAYS: RetentionDays = {
  idempotency: 90,
  audit: 90,
  artifacts: 90,
  webhook_deliveries: 90,
  messages: 30,
};

/** Each table a class covers: its time column and any extra condition (only finished idempotency records). */
const TABLES: Record<RetentionClass, { table: string; column: string; where?: string }[]> = {
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

async function deleteOlder(db: Db, t: { table: string; column: string; where?: string }, cutoff: number) {
  let removed = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const extra = t.where ? ` AND ${t.where}` : "";
    // Names come from TABLES above, never from input.
    const result = await db.run(
      sql.raw(
        `DELETE FROM ${t.table} WHERE rowid IN (SELECT rowid FROM ${t.table} WHERE ${t.column} < ${Math.floor(cutoff)}${extra} LIMIT ${RETENTION_BATCH})`,
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
