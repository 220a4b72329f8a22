// The audit rows of a grant's life: created (by whom, from which card), used (what it covered), revoked.
// Each is written in the transaction of the change it records, through the outbox.
import type { AuditEntry } from "../audit/audit-log.ts";

export type GrantKind = "agent" | "session" | "proposal";

/** What the audit keeps of a grant: its key, never more than the card showed (patterns are redacted). */
export interface AuditedGrant {
  id: string;
  userId: string;
  agentId: string;
  capability: string;
  match: string;
  scopePattern: string | null;
  effect: "allow" | "deny";
  riskClass?: string | null;
  identity?: string | null;
  promptId: string | null;
  sessionId?: string;
}

function keyOf(g: AuditedGrant) {
  return {
    capability: g.capability,
    match: g.match,
    scope_pattern: g.scopePattern,
    effect: g.effect,
    ...(g.riskClass ? { risk_class: g.riskClass } : {}),
    ...(g.identity ? { identity: g.identity } : {}),
    ...(g.sessionId ? { session_id: g.sessionId } : {}),
  };
}

export function grantCreatedAudit(
  g: AuditedGrant,
  kind: GrantKind,
  by: { actor: string; deviceId: string | null },
  now: number,
): AuditEntry {
  return {
    userId: g.userId,
    deviceId: by.deviceId,
    actor: by.actor,
    event: "grant.created",
    target: g.id,
    agentId: g.agentId,
    details: { kind, ...keyOf(g), prompt_id: g.promptId },
    at: now,
  };
}

/** `what`: the call id or proposal id the grant answered for. */
export function grantUsedAudit(
  g: Pick<AuditedGrant, "id" | "userId" | "agentId" | "effect">,
  kind: GrantKind,
  what: string,
  now: number,
): AuditEntry {
  return {
    userId: g.userId,
    actor: kind === "session" ? "session_grant" : "grant",
    event: "grant.used",
    target: g.id,
    agentId: g.agentId,
    decision: g.effect,
    details: { kind, covered: what },
    at: now,
  };
}
