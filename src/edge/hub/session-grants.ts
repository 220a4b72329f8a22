// allow_session grants: exact rules (or the wider pattern the person picked) bound to one agent session,
// ended with it or after a day without use (the deadline comes from policy/deadlines.ts).
import {
  type GrantRule,
  type NewGrantRule,
  SESSION_GRANT_IDLE_MS,
  sessionGrantExpiresAt,
} from "../../policy/index.ts";
import { newId } from "../auth/crypto.ts";

interface SessionGrantRow {
  id: string;
  session_id: string;
  agent_id: string;
  capability: string;
  match: "exact" | "prefix";
  scope_pattern: string | null;
  scope_hash: string | null;
  effect: "allow" | "deny";
}

/** A live session grant as the Grants view lists it. */
export type ListedSessionGrant = SessionGrantRow & {
  created_at: number;
  last_used_at: number;
  prompt_id: string | null;
  created_by_device: string | null;
};

export class SessionGrants {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Saves the rules for one session; answers the ids it gave them (in the order of `rules`, legacy skipped). */
  add(
    sessionId: string,
    rules: readonly NewGrantRule[],
    now: number,
    from: { promptId: string | null; deviceId: string | null } = { promptId: null, deviceId: null },
  ): string[] {
    const ids: string[] = [];
    for (const r of rules) {
      if (r.match === "legacy") continue;
      const id = newId("sg");
      ids.push(id);
      this.sql.exec(
        `INSERT INTO session_grants (id, session_id, agent_id, capability, match, scope_pattern, scope_hash, effect,
           created_at, last_used_at, prompt_id, created_by_device) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        sessionId,
        r.agentId,
        r.capability,
        r.match,
        r.pattern,
        r.scopeHash,
        r.effect,
        now,
        now,
        from.promptId,
        from.deviceId,
      );
    }
    return ids;
  }

  /** The live rules of one session and agent (a session grant holds for the agent version that asked). */
  rules(sessionId: string, agentId: string, now: number): GrantRule[] {
    const rows = this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, match, scope_pattern, scope_hash, effect FROM session_grants
         WHERE session_id = ? AND agent_id = ? AND last_used_at > ?`,
        sessionId,
        agentId,
        now - SESSION_GRANT_IDLE_MS,
      )
      .toArray() as unknown as SessionGrantRow[];
    return rows.map((r) => ({
      id: r.id,
      agentId: r.agent_id,
      capability: r.capability,
      match: r.match,
      pattern: r.scope_pattern,
      scopeHash: r.scope_hash,
      versionRange: null,
      effect: r.effect,
    }));
  }

  /** Slides a used grant's idle window. */
  touch(id: string, now: number): void {
    this.sql.exec(`UPDATE session_grants SET last_used_at = ? WHERE id = ?`, now, id);
  }

  /** Live session grants (used within the idle window), newest first, for the dashboard's Grants view. */
  list(now: number): ListedSessionGrant[] {
    return this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, match, scope_pattern, scope_hash, effect, created_at,
           last_used_at, prompt_id, created_by_device FROM session_grants
         WHERE last_used_at > ? ORDER BY created_at DESC`,
        now - SESSION_GRANT_IDLE_MS,
      )
      .toArray() as unknown as ListedSessionGrant[];
  }

  /** Removes one session grant; the row it was, or undefined if there is none. */
  remove(id: string): SessionGrantRow | undefined {
    const row = this.sql
      .exec<Record<string, SqlStorageValue>>(
        `SELECT id, session_id, agent_id, capability, match, scope_pattern, scope_hash, effect
         FROM session_grants WHERE id = ?`,
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
    this.sql.exec(`DELETE FROM session_grants WHERE last_used_at <= ?`, now - SESSION_GRANT_IDLE_MS);
  }

  nextIdleExpiry(): number | null {
    const row = this.sql
      .exec<{ oldest: number | null }>(`SELECT MIN(last_used_at) AS oldest FROM session_grants`)
      .toArray()[0];
    return row?.oldest == null ? null : sessionGrantExpiresAt(row.oldest);
  }
}
