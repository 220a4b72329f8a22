// Saved grants of every kind (agent calls, proposals, connectors as conveyor tools): the hub's own SQLite is
// the one store. The hub is the only writer and the only reader (listing, matching, revoking); every change
// goes to D1 through the outbox in the same transaction, as a mirror nobody decides from. The first use
// imports what D1 holds (hubs that predate the local copy, and proposal grants written there directly
// before every kind went through this store).
import { eq } from "drizzle-orm";
import type {
  ConveyorGrantKey,
  ConveyorGrantRule,
  ConveyorIdentity,
  GrantRule,
  NewGrantRule,
  RiskClass,
} from "../../policy/index.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { grants } from "../db/schema.ts";
import type { GrantRow, OutboxItem } from "./outbox.ts";
import { CONVEYOR_AGENT_ID } from "./proposal-prompts.ts";

type Row = Record<string, SqlStorageValue>;

/** Proposal grants: agent "conveyor" (as proposal cards show it), capability "conveyor:<tool>", which no agent call can carry. */
export const CONVEYOR_AGENT = CONVEYOR_AGENT_ID;
const CONVEYOR_PREFIX = "conveyor:";
/** Bumped when D1 may hold grants this hub never imported (2: proposal grants were written to D1 only). */
const IMPORT_VERSION = "2";

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
  risk_class: RiskClass | null;
  identity: ConveyorIdentity | null;
  last_used_at: number | null;
}

/** A saved grant as the store lists it: its D1 row and when it last covered a call or a proposal. */
export type StoredGrant = GrantRow & { lastUsedAt: number | null };

export interface GrantMeta {
  createdAt: number;
  createdByDevice: string | null;
  /** The card the person answered (a prompt id). */
  promptId: string | null;
}

function stored(r: LocalGrantRow, userId: string): StoredGrant {
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
    riskClass: r.risk_class,
    identity: r.identity,
    lastUsedAt: r.last_used_at,
  };
}

export const isConveyorGrant = (g: Pick<GrantRow, "agentId" | "capability">): boolean =>
  g.agentId === CONVEYOR_AGENT && g.capability.startsWith(CONVEYOR_PREFIX);

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

export function conveyorRuleOf(g: GrantRow): ConveyorGrantRule {
  return {
    id: g.id,
    tool: g.capability.slice(CONVEYOR_PREFIX.length),
    scope: g.scopePattern ?? "",
    riskClass: g.riskClass,
    identity: g.identity,
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
   * The matchers' rules, read once and dropped on every write here (the hub is the table's only writer);
   * a rolled-back transaction leaves them dropped, so the next read comes from SQLite again.
   */
  private rules: { agent: readonly GrantRule[]; conveyor: readonly ConveyorGrantRule[] } | null = null;

  constructor(sql: SqlStorage, db: Db, userId: () => string) {
    this.sql = sql;
    this.db = db;
    this.userId = userId;
  }

  /** Imports the user's D1 grants once per import version; grants revoked here but not yet in D1 stay out. */
  async load(): Promise<void> {
    if (this.imported) return;
    const done = this.sql
      .exec<{ value: string }>(`SELECT value FROM hub_meta WHERE key = 'grants_imported'`)
      .toArray()[0];
    if (done?.value === IMPORT_VERSION) {
      this.imported = true;
      return;
    }
    const userId = this.userId();
    const rows = await this.db.select().from(grants).where(eq(grants.userId, userId));
    const deleting = new Set(
      this.sql
        .exec<{ payload: string }>(`SELECT payload FROM outbox WHERE kind = 'grant.delete'`)
        .toArray()
        .map((r) => (JSON.parse(r.payload) as { id?: string }).id),
    );
    this.rules = null;
    this.sql.exec(
      `INSERT INTO hub_meta (key, value) VALUES ('grants_imported', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      IMPORT_VERSION,
    );
    for (const g of rows) {
      if (!deleting.has(g.id)) this.insert(g, "OR IGNORE");
    }
    this.imported = true;
  }

  private insert(g: GrantRow, conflict: "" | "OR IGNORE"): void {
    this.sql.exec(
      `INSERT ${conflict} INTO grants (id, agent_id, capability, match, scope_pattern, scope_hash, version_range,
         effect, created_at, created_by_device, prompt_id, risk_class, identity)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      g.riskClass ?? null,
      g.identity ?? null,
    );
  }

  /** Forgets what it read (after SQLite was written other than through this store). */
  forget(): void {
    this.imported = false;
    this.rules = null;
  }

  /** Every saved grant, oldest first: exactly what the matchers read. */
  list(): StoredGrant[] {
    const userId = this.userId();
    const rows = this.sql
      .exec<Row>(`SELECT * FROM grants ORDER BY created_at, id`)
      .toArray() as unknown as LocalGrantRow[];
    return rows.map((r) => stored(r, userId));
  }

  get(id: string): StoredGrant | undefined {
    const row = this.sql.exec<Row>(`SELECT * FROM grants WHERE id = ?`, id).toArray()[0] as unknown as
      | LocalGrantRow
      | undefined;
    return row ? stored(row, this.userId()) : undefined;
  }

  private read(): { agent: readonly GrantRule[]; conveyor: readonly ConveyorGrantRule[] } {
    if (!this.rules) {
      const all = this.list();
      this.rules = {
        agent: Object.freeze(all.filter((g) => !isConveyorGrant(g)).map(ruleOf)),
        conveyor: Object.freeze(all.filter(isConveyorGrant).map(conveyorRuleOf)),
      };
    }
    return this.rules;
  }

  /** The agent-call matcher's rules (straight from the hub's SQLite: a local read, never stale). */
  all(): readonly GrantRule[] {
    return this.read().agent;
  }

  /** The conveyor matcher's rules. */
  conveyorRules(): readonly ConveyorGrantRule[] {
    return this.read().conveyor;
  }

  private save(rows: GrantRow[]): { rows: GrantRow[]; outbox: OutboxItem[] } {
    this.rules = null;
    for (const g of rows) this.insert(g, "");
    return { rows, outbox: rows.map((row) => ({ kind: "grant.add", row })) };
  }

  /** Inside a transaction: saves an agent answer's rules and returns their D1 writes for the outbox. */
  add(rules: readonly NewGrantRule[], meta: GrantMeta): { rows: GrantRow[]; outbox: OutboxItem[] } {
    const userId = this.userId();
    return this.save(
      rules.map((r) => ({
        id: newId("grt"),
        userId,
        agentId: r.agentId,
        capability: r.capability,
        match: r.match,
        scopePattern: r.pattern,
        scopeHash: r.scopeHash,
        versionRange: r.versionRange,
        effect: r.effect,
        riskClass: null,
        identity: null,
        ...meta,
      })),
    );
  }

  /** Inside a transaction: saves a proposal card's "always" answer for exactly its key. */
  addConveyor(
    key: ConveyorGrantKey,
    effect: "allow" | "deny",
    meta: GrantMeta,
  ): { rows: GrantRow[]; outbox: OutboxItem[] } {
    return this.save([
      {
        id: newId("grt"),
        userId: this.userId(),
        agentId: CONVEYOR_AGENT,
        capability: `${CONVEYOR_PREFIX}${key.tool}`,
        match: "exact",
        scopePattern: key.scope,
        scopeHash: null,
        versionRange: null,
        effect,
        riskClass: key.riskClass,
        identity: key.identity,
        ...meta,
      },
    ]);
  }

  /** Records a use (hub-local: the Grants view shows it; D1 is not written per use). */
  touch(id: string, now: number): void {
    // Reports arrive late and out of order (a companion's queue): the latest use wins.
    this.sql.exec(`UPDATE grants SET last_used_at = MAX(COALESCE(last_used_at, 0), ?) WHERE id = ?`, now, id);
  }

  /** Inside a transaction: removes a grant locally and returns its D1 delete for the outbox. */
  remove(id: string): { removed: StoredGrant; outbox: OutboxItem[] } | undefined {
    const removed = this.get(id);
    if (!removed) return undefined;
    this.rules = null;
    this.sql.exec(`DELETE FROM grants WHERE id = ?`, id);
    return { removed, outbox: [{ kind: "grant.delete", id, userId: removed.userId }] };
  }
}
