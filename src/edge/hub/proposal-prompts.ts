// Proposals in the approval queue: a PENDING proposal becomes a prompt of its own kind (one proposal,
// no agent calls), shown with the proposal's backend-rendered summary; resolving it calls the conveyor.
import { planRiskOf } from "../../policy/risk-class.ts";
import { ProposalCard, type ProposalView, proposalCard } from "../../protocol/conveyor.ts";
import type { CapabilityPrompt } from "../../protocol/prompts.ts";
import type { PromptRow, PromptStore } from "./prompt-store.ts";

/** The agent a proposal prompt shows: the conveyor, named by what started the proposal. */
export const CONVEYOR_AGENT_ID = "conveyor";

/** Proposals take no session (there is none): once or always. */
export const PROPOSAL_OPTIONS = ["allow_once", "allow_always", "deny_once", "deny_always"] as const;

function capabilityOf(tool: string): CapabilityPrompt["capability"] {
  if (tool === "web.fetch" || tool === "http.request") return "http";
  if (tool === "companion.run") return "exec";
  return "tool";
}

const sourceName: Record<ProposalView["source"]["kind"], string> = {
  job: "Hosted job",
  webhook: "Webhook",
  api: "API",
  companion: "Companion",
  schedule: "Scheduled job",
  chat: "Chat",
  mcp: "MCP client",
};

export function migrateProposalPrompts(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS proposal_prompts (
    prompt_id TEXT PRIMARY KEY,
    proposal_id TEXT NOT NULL UNIQUE,
    view TEXT NOT NULL
  )`);
  sql.exec(`CREATE TABLE IF NOT EXISTS conveyor_wakeups (at INTEGER NOT NULL)`);
}

export function insertProposalPrompt(
  sql: SqlStorage,
  store: PromptStore,
  view: ProposalView,
  promptId: string,
  now: number,
): PromptRow {
  const expiresAt = Date.parse(view.expires_at);
  const prompt: PromptRow = {
    id: promptId,
    kind: "proposal",
    prompt_key: `proposal:${view.id}`,
    status: "open",
    agent: JSON.stringify({
      id: CONVEYOR_AGENT_ID,
      name: `${sourceName[view.source.kind]}${view.source.ref ? ` ${view.source.ref}` : ""}`,
    }),
    capability: capabilityOf(view.tool),
    risk: planRiskOf(view.risk_class),
    method: view.tool,
    scope_group: view.summary.where,
    justification: `${view.summary.what}. ${view.justification}`,
    created_at: now,
    // Announced at once: a proposal is never batched with anything (its batch window is already over).
    opens_at: now,
    announced: 1,
    join_until: now,
    expires_at: expiresAt,
    timeout_ms: Math.max(1, expiresAt - now),
    resolution: null,
    resolved_at: null,
    decided_by_actor: null,
    decided_by_device: null,
  };
  store.insert(prompt);
  sql.exec(
    `INSERT INTO proposal_prompts (prompt_id, proposal_id, view) VALUES (?, ?, ?)`,
    promptId,
    view.id,
    JSON.stringify(proposalCard(view)),
  );
  return prompt;
}

export function proposalOfPrompt(sql: SqlStorage, promptId: string): ProposalCard | undefined {
  const row = sql
    .exec<{ view: string }>(`SELECT view FROM proposal_prompts WHERE prompt_id = ?`, promptId)
    .toArray()[0];
  return row ? ProposalCard.parse(JSON.parse(row.view)) : undefined;
}

export function promptOfProposal(sql: SqlStorage, proposalId: string): string | undefined {
  return sql
    .exec<{ prompt_id: string }>(`SELECT prompt_id FROM proposal_prompts WHERE proposal_id = ?`, proposalId)
    .toArray()[0]?.prompt_id;
}

/** The prompt as the dashboard renders it: the proposal's summary as scopes, the proposal attached. */
export function proposalPromptView(base: CapabilityPrompt, view: ProposalCard): CapabilityPrompt {
  return {
    ...base,
    callIds: [view.id],
    sessionIds: [],
    scopes: [
      { kind: "operation", summary: view.summary.where },
      { kind: "operation", summary: view.summary.impact },
    ],
    moreScopes: 0,
    options: [...PROPOSAL_OPTIONS],
    proposal: view,
  };
}

export function addWakeup(sql: SqlStorage, at: number): void {
  sql.exec(`INSERT INTO conveyor_wakeups (at) VALUES (?)`, at);
}

/**
 * Removes one wakeup asked for at `at` (wakeups are counted, not named: another run's wakeup at the same instant
 * still stands, and serves both).
 */
export function removeWakeup(sql: SqlStorage, at: number): void {
  sql.exec(
    `DELETE FROM conveyor_wakeups WHERE rowid = (SELECT rowid FROM conveyor_wakeups WHERE at = ? LIMIT 1)`,
    at,
  );
}

/** The earliest pending wakeup; due ones are consumed by takeDueWakeups. */
export function nextWakeup(sql: SqlStorage): number | null {
  return (
    sql.exec<{ at: number | null }>(`SELECT MIN(at) AS at FROM conveyor_wakeups`).toArray()[0]?.at ?? null
  );
}

export function takeDueWakeups(sql: SqlStorage, now: number): number {
  return sql.exec(`DELETE FROM conveyor_wakeups WHERE at <= ?`, now).rowsWritten;
}
