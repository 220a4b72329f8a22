// allow_session grants: bound to one agent session, ended with it or after 24 h without use.
import { newId } from "../auth/crypto.ts";
import { patternCovers } from "./grant-match.ts";

export const SESSION_IDLE_MS = 24 * 3600 * 1000;

interface SessionGrantRow {
  id: string;
  session_id: string;
  agent_id: string;
  capability: string;
  scope_pattern: string | null;
}

export class SessionGrants {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  add(
    sessionId: string,
    agentId: string,
    capability: string,
    scopePattern: string | null,
    now: number,
  ): void {
    this.sql.exec(
      `INSERT INTO session_grants (id, session_id, agent_id, capability, scope_pattern, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      newId("sg"),
      sessionId,
      agentId,
      capability,
      scopePattern,
      now,
      now,
    );
  }

  /** Finds a live grant for the call and marks it used (sliding the 24 h idle window). */
  match(sessionId: string, agentId: string, capability: string, group: string, now: number): boolean {
    const rows = this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, scope_pattern FROM session_grants
         WHERE session_id = ? AND agent_id = ? AND capability = ? AND last_used_at > ?`,
        sessionId,
        agentId,
        capability,
        now - SESSION_IDLE_MS,
      )
      .toArray() as unknown as SessionGrantRow[];
    const hit = rows.find((r) => patternCovers(r.scope_pattern, capability, group));
    if (!hit) return false;
    this.sql.exec(`UPDATE session_grants SET last_used_at = ? WHERE id = ?`, now, hit.id);
    return true;
  }

  /** Live session grants (used within the idle window), newest first, for the dashboard's Grants view. */
  list(now: number): (SessionGrantRow & { created_at: number; last_used_at: number })[] {
    return this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, scope_pattern, created_at, last_used_at FROM session_grants
         WHERE last_used_at > ? ORDER BY created_at DESC`,
        now - SESSION_IDLE_MS,
      )
      .toArray() as unknown as (SessionGrantRow & { created_at: number; last_used_at: number })[];
  }

  /** Removes one session grant; the row it was, or undefined if there is none. */
  remove(id: string): SessionGrantRow | undefined {
    const row = this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, scope_pattern FROM session_grants WHERE id = ?`,
        id,
      )
      .toArray()[0] as unknown as SessionGrantRow | undefined;
    if (row) this.sql.exec(`DELETE FROM session_grants WHERE id = ?`, id);
    return row;
  }

  endSession(sessionId: string): number {
    return this.sql.exec(`DELETE FROM session_grants WHERE session_id = ?`, sessionId).rowsWritten;
  }

  pruneIdle(now: number): void {
    this.sql.exec(`DELETE FROM session_grants WHERE last_used_at <= ?`, now - SESSION_IDLE_MS);
  }

  nextIdleExpiry(): number | null {
    const row = this.sql
      .exec<{ oldest: number | null }>(`SELECT MIN(last_used_at) AS oldest FROM session_grants`)
      .toArray()[0];
    return row?.oldest == null ? null : row.oldest + SESSION_IDLE_MS;
  }
}
