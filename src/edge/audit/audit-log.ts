// Appends redacted events to the D1 audit log.

import { type SQL, sql } from "drizzle-orm";
import { redactText } from "../../policy/redact.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";
import { redact } from "./redact.ts";

export interface AuditEntry {
  userId: string | null;
  deviceId?: string | null;
  /** Who decided or acted: `device:<id>`, `admin`, `system`, `anonymous`, `policy`, `timeout`. */
  actor: string;
  event: string;
  target?: string | null;
  details?: Record<string, unknown>;
  agentId?: string | null;
  decision?: string | null;
  at?: number;
}

export function auditRow(entry: AuditEntry) {
  return {
    id: newId("aud"),
    at: entry.at ?? Date.now(),
    userId: entry.userId,
    deviceId: entry.deviceId ?? null,
    actor: entry.actor,
    event: entry.event,
    // Targets and agent ids are ids, but ids reach here from clients: mask anything secret-shaped.
    target: entry.target == null ? null : redactText(entry.target),
    agentId: entry.agentId == null ? null : redactText(entry.agentId),
    decision: entry.decision ?? null,
    details: JSON.stringify(redact(entry.details ?? {})),
  };
}

export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRow(entry));
}

/**
 * One entry's insert, written only if `condition` holds when it runs, unsent: it rides in a D1 batch after
 * the write it records (a proposal's insert that may have met an existing key).
 */
export function auditInsertWhere(db: Db, entry: AuditEntry, condition: SQL) {
  const r = auditRow(entry);
  return db
    .insert(auditLog)
    .select(
      sql`SELECT ${r.id}, ${r.at}, ${r.userId}, ${r.deviceId}, ${r.actor}, ${r.event}, ${r.target}, ${r.agentId}, ${r.decision}, ${r.details} WHERE ${condition}`,
    );
}

/** Several entries in one batch (one round trip to D1). */
export async function writeAuditBatch(db: Db, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // D1 limits bound parameters per statement; 10 rows of 10 columns stays well inside it.
  for (let i = 0; i < entries.length; i += 10) {
    await db.insert(auditLog).values(entries.slice(i, i + 10).map(auditRow));
  }
}
