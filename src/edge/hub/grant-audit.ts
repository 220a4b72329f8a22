// The audit rows of a grant's life: created (by whom, from which card), used (what it covered), revoked.
// Each is written in the transaction of the change it records, through the outbox.
import type { AuditEntry } from "../audit/audit-log.ts";
import { isConveyorGrant } from "./grant-store.ts";
import type { Caller, HubContext } from "./hub-context.ts";

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

/** A saved grant a companion decided by locally, as its reported decision names it. */
export interface LocalGrantUse {
  id: string;
  call_id: string;
  at: number;
}

/**
 * Records a companion's local uses of saved agent-call grants: each grant's last use and a grant.used row.
 * Unknown ids (revoked meanwhile, not this account's, or proposal grants) are skipped.
 */
export async function recordLocalGrantUses(
  ctx: HubContext,
  caller: Caller,
  uses: readonly LocalGrantUse[],
): Promise<number> {
  await ctx.grants.load();
  const now = Date.now();
  const actor = `companion:${caller.deviceId}`;
  const recorded = ctx.ports.transaction(() => {
    let n = 0;
    for (const use of uses) {
      const g = ctx.grants.get(use.id);
      if (!g || isConveyorGrant(g)) continue;
      // A report's clock is the companion's: never a use in the future.
      const at = Math.min(Number.isFinite(use.at) ? use.at : now, now);
      ctx.grants.touch(g.id, at);
      ctx.audit([{ ...grantUsedAudit(g, "agent", use.call_id, at), actor, deviceId: caller.deviceId }], now);
      n += 1;
    }
    return n;
  });
  if (recorded) ctx.flushSoon(now);
  return recorded;
}
