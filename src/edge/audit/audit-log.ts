// Appends redacted events to the D1 audit log.
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
    target: entry.target ?? null,
    details: JSON.stringify(redact(entry.details ?? {})),
  };
}

export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRow(entry));
}
