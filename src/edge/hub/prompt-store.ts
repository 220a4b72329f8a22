// SQL access to UserHub's prompts: open from creation (announced at once) until resolved, expired or abandoned.
import { AgentIdentity, type Resolution } from "../../protocol/capability.ts";
import { insertRow } from "./call-store.ts";

/** An agent's calls waiting for a person, or one proposal of the conveyor (hub/proposal-prompts.ts). */
export type PromptKind = "calls" | "proposal";

export interface PromptRow {
  id: string;
  /** Stored, so the approval path knows a proposal's prompt without looking for its proposal. */
  kind: PromptKind;
  prompt_key: string;
  status: "open" | "resolved";
  agent: string;
  capability: string;
  risk: string;
  method: string;
  scope_group: string;
  justification: string;
  created_at: number;
  opens_at: number;
  announced: number;
  expires_at: number;
  timeout_ms: number;
  resolution: Resolution | null;
  resolved_at: number | null;
  decided_by_actor: string | null;
  decided_by_device: string | null;
  join_until: number;
}

type Row = Record<string, SqlStorageValue>;

export class PromptStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  private all(query: string, ...bindings: SqlStorageValue[]): PromptRow[] {
    return this.sql.exec<Row>(query, ...bindings).toArray() as unknown as PromptRow[];
  }

  get(id: string): PromptRow | undefined {
    return this.all(`SELECT * FROM prompts WHERE id = ?`, id)[0];
  }

  /** The newest open prompt with this key (a call may join it while its batch window lasts). */
  newestOpen(key: string): PromptRow | undefined {
    return this.all(
      `SELECT * FROM prompts WHERE prompt_key = ? AND status = 'open' ORDER BY created_at DESC LIMIT 1`,
      key,
    )[0];
  }

  insert(row: PromptRow): void {
    insertRow(this.sql, "prompts", row);
  }

  open(): PromptRow[] {
    return this.all(`SELECT * FROM prompts WHERE status = 'open' ORDER BY created_at`);
  }

  openCount(): number {
    return (
      this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM prompts WHERE status = 'open'`).toArray()[0]
        ?.n ?? 0
    );
  }

  resolved(limit: number): PromptRow[] {
    return this.all(
      `SELECT * FROM prompts WHERE status = 'resolved' ORDER BY resolved_at DESC LIMIT ?`,
      limit,
    );
  }

  expired(now: number): PromptRow[] {
    return this.all(`SELECT * FROM prompts WHERE status = 'open' AND expires_at <= ?`, now);
  }

  nextExpiry(): number | null {
    return (
      this.sql
        .exec<{ next: number | null }>(`SELECT MIN(expires_at) AS next FROM prompts WHERE status = 'open'`)
        .toArray()[0]?.next ?? null
    );
  }

  /** Flips an open prompt to resolved; false if something else resolved it first. */
  resolve(id: string, resolution: Resolution, at: number, actor: string, deviceId: string | null): boolean {
    const cursor = this.sql.exec(
      `UPDATE prompts SET status = 'resolved', resolution = ?, resolved_at = ?, decided_by_actor = ?,
         decided_by_device = ?
       WHERE id = ? AND status = 'open'`,
      resolution,
      at,
      actor,
      deviceId,
      id,
    );
    return cursor.rowsWritten > 0;
  }

  prune(olderThan: number): void {
    this.sql.exec(`DELETE FROM prompts WHERE status = 'resolved' AND resolved_at < ?`, olderThan);
  }
}

export function parseAgent(json: string): AgentIdentity {
  return AgentIdentity.parse(JSON.parse(json));
}
