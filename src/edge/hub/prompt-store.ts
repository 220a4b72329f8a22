// SQL access to UserHub's prompts and calls. Rows hold redacted scopes and hashes only.
import { AgentIdentity, type Resolution } from "../../protocol/capability.ts";
import type { DecisionResponse, DecisionSource } from "../../protocol/decisions.ts";

export interface PromptRow {
  id: string;
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
}

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
  cwd: string | null;
  description: string | null;
}

type Row = Record<string, SqlStorageValue>;

export class PromptStore {
  readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  private all<T>(query: string, ...bindings: SqlStorageValue[]): T[] {
    return this.sql.exec<Row>(query, ...bindings).toArray() as unknown as T[];
  }

  call(callId: string): CallRow | undefined {
    return this.all<CallRow>(`SELECT * FROM calls WHERE call_id = ?`, callId)[0];
  }

  insertCall(row: CallRow): void {
    this.sql.exec(
      `INSERT INTO calls (call_id, session_id, agent_id, agent_version, device_id, prompt_id, tool, capability, risk,
        scope_kind, scope_summary, scope_group, scope_hash, status, decision, reason, source, rule, created_at, decided_at,
        cwd, description)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.call_id,
      row.session_id,
      row.agent_id,
      row.agent_version,
      row.device_id,
      row.prompt_id,
      row.tool,
      row.capability,
      row.risk,
      row.scope_kind,
      row.scope_summary,
      row.scope_group,
      row.scope_hash,
      row.status,
      row.decision,
      row.reason,
      row.source,
      row.rule,
      row.created_at,
      row.decided_at,
      row.cwd,
      row.description,
    );
  }

  prompt(id: string): PromptRow | undefined {
    return this.all<PromptRow>(`SELECT * FROM prompts WHERE id = ?`, id)[0];
  }

  openPromptByKey(key: string): PromptRow | undefined {
    return this.all<PromptRow>(
      `SELECT * FROM prompts WHERE prompt_key = ? AND status = 'open' ORDER BY created_at LIMIT 1`,
      key,
    )[0];
  }

  insertPrompt(
    row: Omit<PromptRow, "resolution" | "resolved_at" | "decided_by_actor" | "decided_by_device">,
  ): void {
    this.sql.exec(
      `INSERT INTO prompts (id, prompt_key, status, agent, capability, risk, method, scope_group, justification,
        created_at, opens_at, announced, expires_at, timeout_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.prompt_key,
      row.status,
      row.agent,
      row.capability,
      row.risk,
      row.method,
      row.scope_group,
      row.justification,
      row.created_at,
      row.opens_at,
      row.announced,
      row.expires_at,
      row.timeout_ms,
    );
  }

  callsOfPrompt(promptId: string): CallRow[] {
    return this.all<CallRow>(
      `SELECT * FROM calls WHERE prompt_id = ? ORDER BY created_at, call_id`,
      promptId,
    );
  }

  openPrompts(): PromptRow[] {
    return this.all<PromptRow>(`SELECT * FROM prompts WHERE status = 'open' ORDER BY created_at`);
  }

  resolvedPrompts(limit: number): PromptRow[] {
    return this.all<PromptRow>(
      `SELECT * FROM prompts WHERE status = 'resolved' ORDER BY resolved_at DESC LIMIT ?`,
      limit,
    );
  }

  duePrompts(now: number): { announce: PromptRow[]; expire: PromptRow[] } {
    return {
      announce: this.all<PromptRow>(
        `SELECT * FROM prompts WHERE status = 'open' AND announced = 0 AND opens_at <= ?`,
        now,
      ),
      expire: this.all<PromptRow>(`SELECT * FROM prompts WHERE status = 'open' AND expires_at <= ?`, now),
    };
  }

  markAnnounced(id: string): void {
    this.sql.exec(`UPDATE prompts SET announced = 1 WHERE id = ?`, id);
  }

  /** Flips an open prompt to resolved; false if someone else resolved it first. */
  resolvePrompt(
    id: string,
    resolution: Resolution,
    at: number,
    actor: string,
    deviceId: string | null,
  ): boolean {
    const cursor = this.sql.exec(
      `UPDATE prompts SET status = 'resolved', resolution = ?, resolved_at = ?, decided_by_actor = ?, decided_by_device = ?
       WHERE id = ? AND status = 'open'`,
      resolution,
      at,
      actor,
      deviceId,
      id,
    );
    return cursor.rowsWritten > 0;
  }

  decideCall(callId: string, response: DecisionResponse, at: number): void {
    this.sql.exec(
      `UPDATE calls SET status = 'decided', decision = ?, reason = ?, source = ?, rule = ?, decided_at = ?
       WHERE call_id = ? AND status = 'pending'`,
      response.decision,
      response.reason,
      response.source,
      response.rule ?? null,
      at,
      callId,
    );
  }

  nextDeadline(): number | null {
    const row = this.all<{ next: number | null }>(
      `SELECT MIN(CASE WHEN announced = 0 AND opens_at < expires_at THEN opens_at ELSE expires_at END) AS next
       FROM prompts WHERE status = 'open'`,
    )[0];
    return row?.next ?? null;
  }

  /** Forgets decided calls and resolved prompts older than the retention window. */
  prune(olderThan: number): void {
    this.sql.exec(`DELETE FROM calls WHERE status = 'decided' AND decided_at < ?`, olderThan);
    this.sql.exec(`DELETE FROM prompts WHERE status = 'resolved' AND resolved_at < ?`, olderThan);
  }
}

export function parseAgent(json: string): AgentIdentity {
  return AgentIdentity.parse(JSON.parse(json));
}

export function responseOf(call: CallRow): DecisionResponse | undefined {
  if (call.status !== "decided" || !call.decision || !call.source) return undefined;
  return {
    call_id: call.call_id,
    decision: call.decision,
    reason: call.reason ?? "",
    source: call.source,
    ...(call.prompt_id ? { prompt_id: call.prompt_id } : {}),
    ...(call.rule ? { rule: call.rule } : {}),
  };
}
