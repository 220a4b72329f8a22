// Saved grants: the hub keeps its user's grants in its own SQLite (it is their only writer) and mirrors
// every change to D1 through the outbox, in the same transaction. The first use imports what D1 holds.
import { eq } from "drizzle-orm";
import type { GrantRule, NewGrantRule } from "../../policy/index.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { grants } from "../db/schema.ts";
import type { GrantRow, OutboxItem } from "./outbox.ts";

type Row = Record<string, SqlStorageValue>;

interface LocalGrantRow {
  id: string;
  agent_id: string;
  capability: string;
  match: GrantRule["match"];
  scope_pattern: string | null;
  scope_hash: string | null;
  version_range: string | null;
  effect: GrantRule["effect"];
  created_at: number;
  created_by_device: string | null;
  prompt_id: string | null;
}

function toGrantRow(r: LocalGrantRow, userId: string): GrantRow {
  return {
    id: r.id,
    userId,
    agentId: r.agent_id,
    capability: r.capability,
    match: r.match,
    scopePattern: r.scope_pattern,
    scopeHash: r.scope_hash,
    versionRange: r.version_range,
    effect: r.effect,
    createdAt: r.created_at,
    createdByDevice: r.created_by_device,
    promptId: r.prompt_id,
  };
}

export function ruleOf(g: GrantRow): GrantRule {
  return {
    id: g.id,
    agentId: g.agentId,
    capability: g.capability,
    match: g.match,
    pattern: g.scopePattern,
    scopeHash: g.scopeHash,
    versionRange: g.versionRange,
    effect: g.effect,
  };
}

export class GrantStore {
  private readonly sql: SqlStorage;
  private readonly db: Db;
  private readonly userId: () => string;
  /** The import ran (checked once per instance, not per decision). */
  private imported = false;
  /**
   * The matcher's rules, read once and dropped on every write here (the hub is the table's only writer); a
   * rolled-back transaction leaves it dropped, so the next read comes from SQLite again.
   */
  private rules: readonly GrantRule[] | null = null;

  constructor(sql: SqlStorage, db: Db, userId: () => string) {
    this.sql = sql;
    this.db = db;
    this.userId = userId;
  }

  /** Imports the user's D1 grants once (hubs that predate the local copy, or a fresh hub for an old user). */
  async load(): Promise<void> {
    if (this.imported) return;
    const done = this.sql
      .exec<{ value: string }>(`SELECT value FROM hub_meta WHERE key = 'grants_imported'`)
      .toArray()[0];
    if (done) {
      this.imported = true;
      return;
    }
    const userId = this.userId();
    const rows = await this.db.select().from(grants).where(eq(grants.userId, userId));
    this.rules = null;
    this.sql.exec(`INSERT OR IGNORE INTO hub_meta (key, value) VALUES ('grants_imported', '1')`);
    for (const g of rows) {
      this.insert(g, "OR IGNORE");
    }
  }

  private insert(g: GrantRow, conflict: "" | "OR IGNORE"): void {
    this.sql.exec(
      `INSERT ${conflict} INTO grants (id, agent_id, capability, match, scope_pattern, scope_hash, version_range,
         effect, created_at, created_by_device, prompt_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      g.id,
      g.agentId,
      g.capability,
      g.match,
      g.scopePattern,
      g.scopeHash,
      g.versionRange,
      g.effect,
      g.createdAt,
      g.createdByDevice,
      g.promptId,
    );
  }

  /** Forgets what it read (after SQLite was written other than through this store). */
  forget(): void {
    this.imported = false;
    this.rules = null;
  }

  private rows(): LocalGrantRow[] {
    return this.sql
      .exec<Row>(`SELECT * FROM grants ORDER BY created_at, id`)
      .toArray() as unknown as LocalGrantRow[];
  }

  list(): GrantRow[] {
    const userId = this.userId();
    return this.rows().map((r) => toGrantRow(r, userId));
  }

  /** The rules the matcher reads (straight from the hub's SQLite: a local read, never stale). */
  all(): readonly GrantRule[] {
    this.rules ??= Object.freeze(this.list().map(ruleOf));
    return this.rules;
  }

  /** Inside a transaction: saves the rules locally and returns their D1 writes for the outbox. */
  add(
    rules: readonly NewGrantRule[],
    meta: { createdAt: number; createdByDevice: string | null; promptId: string | null },
  ): { rows: GrantRow[]; outbox: OutboxItem[] } {
    const userId = this.userId();
    const rows: GrantRow[] = rules.map((r) => ({
      id: newId("grt"),
      userId,
      agentId: r.agentId,
      capability: r.capability,
      match: r.match,
      scopePattern: r.pattern,
      scopeHash: r.scopeHash,
      versionRange: r.versionRange,
      effect: r.effect,
      ...meta,
    }));
    this.rules = null;
    for (const g of rows) {
      this.insert(g, "");
    }
    return { rows, outbox: rows.map((row) => ({ kind: "grant.add", row })) };
  }

  /** Inside a transaction: removes a grant locally and returns its D1 delete for the outbox. */
  remove(id: string): { removed: GrantRow; outbox: OutboxItem[] } | undefined {
    const row = this.sql.exec<Row>(`SELECT * FROM grants WHERE id = ?`, id).toArray()[0] as unknown as
      | LocalGrantRow
      | undefined;
    if (!row) return undefined;
    this.rules = null;
    this.sql.exec(`DELETE FROM grants WHERE id = ?`, id);
    const userId = this.userId();
    return { removed: toGrantRow(row, userId), outbox: [{ kind: "grant.delete", id, userId }] };
  }
}
