// SQL access to UserHub's calls: one row per call_id, bound to its fingerprint, holding redacted scopes,
// grant-unit hashes and the answer the caller was given (never the raw input).
import { z } from "zod";
import type { StoredUnit } from "../../policy/index.ts";
import type { Resolution } from "../../protocol/capability.ts";
import type { DecisionResponse, DecisionSource } from "../../protocol/decisions.ts";
import { GrantRuleView } from "../../protocol/grants.ts";

export type Holder = "socket" | "wait" | "poll";

export interface CallRow {
  call_id: string;
  session_id: string;
  agent_id: string;
  agent_version: string | null;
  device_id: string | null;
  prompt_id: string | null;
  tool: string;
  capability: string;
  risk: string;
  scope_kind: string;
  scope_summary: string;
  scope_group: string;
  scope_hash: string;
  status: "pending" | "decided";
  decision: "allow" | "deny" | null;
  reason: string | null;
  source: DecisionSource | null;
  rule: string | null;
  created_at: number;
  decided_at: number | null;
  /** The call's working directory, redacted and bounded (the card shows it). */
  cwd: string | null;
  /** The agent's own words for the call (Claude Code's Bash `description`), redacted; untrusted text. */
  description: string | null;
  fingerprint: string | null;
  /** JSON StoredUnit[]. */
  units: string | null;
  holder: Holder | null;
  held_until: number | null;
  resolution: Resolution | null;
  /** JSON of the decision's `grants` (the rules the answer created). */
  grants: string | null;
  /** The call as the card shows it (shownCall): redacted, controls visible, clipped; null on older rows. */
  shown_text: string | null;
  /** Length of the shown text before clipping. */
  shown_chars: number | null;
  /** Why it went to a person (src/policy/ask-reason.ts); null when it was answered at once. */
  ask_reason: string | null;
}

type Row = Record<string, SqlStorageValue>;

const StoredUnits = z.array(
  z.object({
    capability: z.enum(["read", "write", "exec", "http", "session", "ui", "tool"]),
    hash: z.string(),
    display: z.string(),
    coverable: z.boolean(),
    wider: z.array(z.string()),
    why: z.string().optional(),
    rule: z.string().optional(),
  }),
);
const DecisionGrants = z.object({ scope: z.enum(["session", "always"]), rules: z.array(GrantRuleView) });

export function unitsOf(call: CallRow): StoredUnit[] {
  if (!call.units) return [];
  const parsed = StoredUnits.safeParse(JSON.parse(call.units));
  return parsed.success ? parsed.data : [];
}

export function insertRow(sql: SqlStorage, table: string, row: object): void {
  const entries = Object.entries(row) as [string, SqlStorageValue][];
  sql.exec(
    `INSERT INTO ${table} (${entries.map(([k]) => k).join(", ")}) VALUES (${entries.map(() => "?").join(", ")})`,
    ...entries.map(([, v]) => v),
  );
}

export class CallStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  private all(query: string, ...bindings: SqlStorageValue[]): CallRow[] {
    return this.sql.exec<Row>(query, ...bindings).toArray() as unknown as CallRow[];
  }

  get(callId: string): CallRow | undefined {
    return this.all(`SELECT * FROM calls WHERE call_id = ?`, callId)[0];
  }

  insert(row: CallRow): void {
    insertRow(this.sql, "calls", row);
  }

  ofPrompt(promptId: string): CallRow[] {
    return this.all(`SELECT * FROM calls WHERE prompt_id = ? ORDER BY created_at, call_id`, promptId);
  }

  pendingOfPrompt(promptId: string): CallRow[] {
    return this.all(
      `SELECT * FROM calls WHERE prompt_id = ? AND status = 'pending' ORDER BY created_at, call_id`,
      promptId,
    );
  }

  countOfPrompt(promptId: string): number {
    return (
      this.sql
        .exec<{ n: number }>(`SELECT count(*) AS n FROM calls WHERE prompt_id = ?`, promptId)
        .toArray()[0]?.n ?? 0
    );
  }

  /** Records the answer a pending call was given; false when it was already decided. */
  decide(callId: string, response: DecisionResponse, at: number): boolean {
    const cursor = this.sql.exec(
      `UPDATE calls SET status = 'decided', decision = ?, reason = ?, source = ?, rule = ?, resolution = ?,
         grants = ?, decided_at = ?, held_until = NULL
       WHERE call_id = ? AND status = 'pending'`,
      response.decision,
      response.reason,
      response.source,
      response.rule ?? null,
      response.resolution ?? null,
      response.grants ? JSON.stringify(response.grants) : null,
      at,
      callId,
    );
    return cursor.rowsWritten > 0;
  }

  /** Marks who holds a pending call and until when (null: until its prompt expires). */
  hold(callId: string, holder: Holder, until: number | null): void {
    this.sql.exec(
      `UPDATE calls SET holder = ?, held_until = ? WHERE call_id = ? AND status = 'pending'`,
      holder,
      until,
      callId,
    );
  }

  /** Socket-held calls of a device whose sockets are all gone get until `until` to be resumed. */
  releaseSocketHolds(deviceId: string, until: number): void {
    this.sql.exec(
      `UPDATE calls SET held_until = ? WHERE device_id = ? AND status = 'pending' AND holder = 'socket'
         AND held_until IS NULL`,
      until,
      deviceId,
    );
  }

  devicesHoldingBySocket(): string[] {
    return this.sql
      .exec<{ device_id: string }>(
        `SELECT DISTINCT device_id FROM calls WHERE status = 'pending' AND holder = 'socket'
           AND held_until IS NULL AND device_id IS NOT NULL`,
      )
      .toArray()
      .map((r) => r.device_id);
  }

  lapsedHolds(now: number): CallRow[] {
    return this.all(
      `SELECT * FROM calls WHERE status = 'pending' AND held_until IS NOT NULL AND held_until <= ?`,
      now,
    );
  }

  nextHoldLapse(): number | null {
    return (
      this.sql
        .exec<{ next: number | null }>(
          `SELECT MIN(held_until) AS next FROM calls WHERE status = 'pending' AND held_until IS NOT NULL`,
        )
        .toArray()[0]?.next ?? null
    );
  }

  oldestDecided(): number | null {
    return (
      this.sql
        .exec<{ oldest: number | null }>(
          `SELECT MIN(decided_at) AS oldest FROM calls WHERE status = 'decided'`,
        )
        .toArray()[0]?.oldest ?? null
    );
  }

  prune(olderThan: number): void {
    this.sql.exec(`DELETE FROM calls WHERE status = 'decided' AND decided_at < ?`, olderThan);
  }
}

export function responseOf(call: CallRow): DecisionResponse | undefined {
  if (call.status !== "decided" || !call.decision || !call.source) return undefined;
  const grants = call.grants ? DecisionGrants.safeParse(JSON.parse(call.grants)) : undefined;
  return {
    call_id: call.call_id,
    decision: call.decision,
    reason: call.reason ?? "",
    source: call.source,
    ...(call.prompt_id ? { prompt_id: call.prompt_id } : {}),
    ...(call.rule ? { rule: call.rule } : {}),
    ...(call.resolution ? { resolution: call.resolution } : {}),
    ...(grants?.success ? { grants: grants.data } : {}),
  };
}
