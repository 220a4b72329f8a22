// The outbox: D1 writes (audit rows, saved grants) that follow a hub state change are committed in the
// same SQLite transaction as that change, then drained to D1 — at once, and by the alarm with backoff
// until D1 takes them. Every row keeps its own id, so a retry after a partial failure writes nothing twice.
import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { outboxRetryAt } from "../../policy/deadlines.ts";
import type { auditRow } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { auditLog, grants } from "../db/schema.ts";

export type AuditRow = ReturnType<typeof auditRow>;
export type GrantRow = typeof grants.$inferSelect;

const nullable = z.string().nullable();
const AuditRowSchema = z.object({
  id: z.string(),
  at: z.number(),
  userId: nullable,
  deviceId: nullable,
  actor: z.string(),
  event: z.string(),
  target: nullable,
  agentId: nullable,
  decision: nullable,
  details: z.string(),
});
const GrantRowSchema = z.object({
  id: z.string(),
  userId: z.string(),
  agentId: z.string(),
  capability: z.string(),
  match: z.enum(["exact", "prefix", "legacy"]),
  scopePattern: nullable,
  scopeHash: nullable,
  versionRange: nullable,
  effect: z.enum(["allow", "deny"]),
  createdAt: z.number(),
  createdByDevice: nullable,
  promptId: nullable,
  // Rows queued before proposal grants named their class and identity carry neither.
  riskClass: z.enum(["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"]).nullable().default(null),
  identity: z.enum(["user", "bot"]).nullable().default(null),
});
const OutboxItemSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("audit"), row: AuditRowSchema }),
  z.object({ kind: z.literal("grant.add"), row: GrantRowSchema }),
  z.object({ kind: z.literal("grant.delete"), id: z.string(), userId: z.string() }),
]);
export type OutboxItem = z.infer<typeof OutboxItemSchema>;

interface OutboxRow extends Record<string, SqlStorageValue> {
  id: string;
  payload: string;
  attempts: number;
}

/** Fresh rows are also due this soon, so the alarm drains them if the immediate attempt never runs. */
export const SAFETY_DELAY_MS = 1_000;
const BATCH = 50;
/** D1 binds at most 100 parameters per statement; an audit row has 10 columns. */
const AUDIT_ROWS_PER_INSERT = 9;
/** How long a drain waits for more rows to join its batch. */
const COALESCE_MS = 5;
/** Recently added row ids remembered for `sendSince` (a person's change adds a handful). */
const MAX_TRACKED = 2_000;

export class Outbox {
  private readonly sql: SqlStorage;
  private readonly db: Db;
  private running: Promise<void> | undefined;
  private again = false;
  private soon: ReturnType<typeof setTimeout> | undefined;
  /** Ids of rows added lately, in order: the person's writes are sent ahead of a companion's backlog. */
  private added: string[] = [];
  private addedBase = 0;

  /** Called after every drain: what the alarm was armed to guard may be sent now (HubContext relaxes it). */
  private readonly drained: () => Promise<void>;

  constructor(sql: SqlStorage, db: Db, drained: () => Promise<void> = async () => {}) {
    this.sql = sql;
    this.db = db;
    this.drained = drained;
  }

  /** Call inside the transaction that changes the state these writes follow. */
  add(items: readonly OutboxItem[], now: number): void {
    for (const item of items) {
      const id = newId("obx");
      this.added.push(id);
      this.sql.exec(
        `INSERT INTO outbox (id, kind, payload, created_at, attempts, next_attempt_at) VALUES (?, ?, ?, ?, 0, ?)`,
        id,
        item.kind,
        JSON.stringify(item),
        now,
        now + SAFETY_DELAY_MS,
      );
    }
  }

  /** A position in the rows added so far; `sendSince` sends what was added after it. */
  mark(): number {
    if (this.added.length > MAX_TRACKED) {
      const cut = this.added.length - MAX_TRACKED / 2;
      this.added = this.added.slice(cut);
      this.addedBase += cut;
    }
    return this.addedBase + this.added.length;
  }

  /**
   * Sends the rows added since `mark` now, as one batch, without waiting for a drain that is busy with a
   * companion's backlog: the person's change reaches D1 in one round trip. A row the running drain sends
   * too is written once (every insert ignores a known id). A row D1 refuses waits for the drain's retry.
   */
  async sendSince(mark: number): Promise<void> {
    await this.sendIds(this.idsSince(mark));
  }

  /** Ids of the rows added since `mark`. */
  idsSince(mark: number): string[] {
    return this.added.slice(Math.max(0, mark - this.addedBase));
  }

  /** Sends these rows now (those a drain already sent are skipped), as one batch. */
  async sendIds(all: readonly string[]): Promise<void> {
    const ids = all.slice(0, BATCH);
    if (ids.length === 0) return;
    const rows = this.rowsOf(ids);
    if (rows.length > 0) await this.sendRows(rows, Date.now());
  }

  pending(): number {
    return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM outbox`).toArray()[0]?.n ?? 0;
  }

  nextAttempt(): number | null {
    return (
      this.sql.exec<{ next: number | null }>(`SELECT MIN(next_attempt_at) AS next FROM outbox`).toArray()[0]
        ?.next ?? null
    );
  }

  /**
   * Drains a moment from now, so the rows of many concurrent decisions go to D1 as one batch (and leave the
   * outbox in one write) instead of one each. The alarm still drains them if this never runs.
   */
  drainSoon(): Promise<void> {
    if (!this.soon) {
      this.soon = setTimeout(() => {
        this.soon = undefined;
        this.drain().catch((error: unknown) => console.error("[UserHub.outbox]", error));
      }, COALESCE_MS);
    }
    return Promise.resolve();
  }

  /** Sends what is due to D1; concurrent callers share one drain (and a pass for rows added meanwhile). */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (await this.drainBatch(Date.now())) {
          // keep going while full batches succeed
        }
      } while (this.again);
      await this.drained();
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** One batch; true when it was full and fully sent (there may be more). */
  private async drainBatch(now: number): Promise<boolean> {
    // Two index lookups, not one OR: under a burst the outbox holds thousands of rows, and a scan and sort
    // of all of them per batch made draining quadratic (half the hub's time at 300 decisions/s). Retries
    // that are due go first, so an older write never lands after a newer one it was queued before.
    const rows = this.sql
      .exec<OutboxRow>(
        `SELECT id, payload, attempts FROM outbox WHERE attempts > 0 AND next_attempt_at <= ?
         ORDER BY next_attempt_at LIMIT ?`,
        now,
        BATCH,
      )
      .toArray();
    if (rows.length < BATCH) {
      rows.push(
        ...this.sql
          .exec<OutboxRow>(
            `SELECT id, payload, attempts FROM outbox WHERE attempts = 0 ORDER BY created_at, id LIMIT ?`,
            BATCH - rows.length,
          )
          .toArray(),
      );
    }
    if (rows.length === 0) return false;
    return (await this.sendRows(rows, now)) && rows.length === BATCH;
  }

  /** The rows still waiting under these ids, oldest first: the order a drain would send them in. */
  private rowsOf(ids: readonly string[]): OutboxRow[] {
    return this.sql
      .exec<OutboxRow>(
        `SELECT id, payload, attempts FROM outbox WHERE id IN (${ids.map(() => "?").join(", ")})
         ORDER BY created_at, id`,
        ...ids,
      )
      .toArray();
  }

  /** Sends rows as one batch; if D1 refuses it, row by row, so one bad row holds back only itself. */
  private async sendRows(rows: OutboxRow[], now: number): Promise<boolean> {
    try {
      await this.send(rows);
      this.remove(rows);
      return true;
    } catch {
      // Find the rows D1 refuses; the others still go now.
      for (const row of rows) {
        try {
          await this.send([row]);
          this.remove([row]);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          console.error("[UserHub.outbox] D1 write failed, will retry", row.id, message);
          this.sql.exec(
            `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?`,
            outboxRetryAt(now, row.attempts),
            message.slice(0, 500),
            row.id,
          );
        }
      }
      return false;
    }
  }

  private statement(item: OutboxItem) {
    switch (item.kind) {
      case "audit":
        return this.db.insert(auditLog).values(item.row).onConflictDoNothing();
      case "grant.add":
        return this.db.insert(grants).values(item.row).onConflictDoNothing();
      case "grant.delete":
        return this.db.delete(grants).where(and(eq(grants.id, item.id), eq(grants.userId, item.userId)));
    }
  }

  /**
   * These rows' D1 writes, unsent, to ride in a batch with another write (a run's end): `sent` removes
   * them once that batch has landed. Until then they stay here, and a drain would send them (each insert
   * ignores a known id, so nothing is written twice).
   */
  take(all: readonly string[]): { statements: BatchItem<"sqlite">[]; sent: () => void } {
    const ids = all.slice(0, BATCH);
    if (ids.length === 0) return { statements: [], sent: () => {} };
    const rows = this.rowsOf(ids);
    return { statements: this.statements(rows), sent: () => this.remove(rows) };
  }

  private async send(rows: readonly OutboxRow[]): Promise<void> {
    const [first, ...rest] = this.statements(rows);
    if (first) await this.db.batch([first, ...rest]);
  }

  private statements(rows: readonly OutboxRow[]): BatchItem<"sqlite">[] {
    const items = rows.map((r) => OutboxItemSchema.parse(JSON.parse(r.payload)));
    const statements: BatchItem<"sqlite">[] = [];
    // Neighbouring audit rows go as one multi-row INSERT (building a query per row was most of a drain);
    // everything else keeps its place in the order.
    let audits: AuditRow[] = [];
    const flushAudits = () => {
      if (audits.length) statements.push(this.db.insert(auditLog).values(audits).onConflictDoNothing());
      audits = [];
    };
    for (const item of items) {
      if (item.kind === "audit") {
        audits.push(item.row);
        if (audits.length === AUDIT_ROWS_PER_INSERT) flushAudits();
        continue;
      }
      flushAudits();
      statements.push(this.statement(item));
    }
    flushAudits();
    return statements;
  }

  private remove(rows: readonly OutboxRow[]): void {
    if (rows.length === 0) return;
    this.sql.exec(
      `DELETE FROM outbox WHERE id IN (${rows.map(() => "?").join(", ")})`,
      ...rows.map((r) => r.id),
    );
  }
}
