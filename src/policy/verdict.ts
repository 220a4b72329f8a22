// The verdict order, written once and used by the companion and the edge alike:
//   1. emergency controls (read-only, high impact off, blocked tools) deny, whatever else says;
//   2. the policy's deny or hidden denies, its allow allows;
//   3. for an ask: a deny grant on any unit denies; saved allow grants, then the session's, allow when
//      together they cover every unit;
//   4. otherwise a person decides.
import { applyEmergency } from "./emergency.ts";
import type { GrantUnit } from "./grant-units.ts";
import { type GrantHit, type GrantRule, matchGrants } from "./grants.ts";
import type { DecisionRecord, EmergencyControls, PolicyMode } from "./types.ts";

export type VerdictSource = "emergency" | "policy" | "grant" | "session_grant";

export type Verdict =
  | { action: "allow" | "deny"; source: VerdictSource; record: DecisionRecord; grant?: GrantRule }
  | { action: "ask"; record: DecisionRecord };

export interface VerdictInputs {
  /** The policy's judgement of the call (without emergency controls). */
  record: DecisionRecord;
  emergency: EmergencyControls | undefined;
  agent: { id: string; version?: string | undefined };
  units: readonly GrantUnit[];
  /** Saved grants (allow_always / deny_always). */
  grants: readonly GrantRule[];
  /** This session's grants (allow_session). */
  sessionGrants: readonly GrantRule[];
  /** The policy's mode: what an ask no grant settled becomes (default prompt: a person decides). */
  mode?: PolicyMode;
}

function fromGrant(hit: GrantHit, source: "grant" | "session_grant", record: DecisionRecord): Verdict {
  return { action: hit.effect, source, record, grant: hit.rule };
}

export function verdictOf(inputs: VerdictInputs): Verdict {
  const record =
    inputs.emergency && inputs.record.layer !== "emergency"
      ? applyEmergency(inputs.record, inputs.emergency)
      : inputs.record;
  if (record.layer === "emergency" && record.action !== "hidden")
    return { action: "deny", source: "emergency", record };
  if (record.action === "deny" || record.action === "hidden")
    return { action: "deny", source: "policy", record };
  if (record.action === "allow") return { action: "allow", source: "policy", record };

  const subject = { agentId: inputs.agent.id, agentVersion: inputs.agent.version, units: inputs.units };
  // A deny anywhere (saved or session) wins before any allow is considered.
  const saved = matchGrants(inputs.grants, subject);
  const session = matchGrants(inputs.sessionGrants, subject);
  if (saved?.effect === "deny") return fromGrant(saved, "grant", record);
  if (session?.effect === "deny") return fromGrant(session, "session_grant", record);
  if (saved) return fromGrant(saved, "grant", record);
  if (session) return fromGrant(session, "session_grant", record);
  // Saved and session grants together may cover what neither covers alone.
  const both = matchGrants([...inputs.grants, ...inputs.sessionGrants], subject);
  if (both?.effect === "allow") return fromGrant(both, "session_grant", record);
  return inMode(record, inputs.mode ?? "prompt", inputs.units);
}

/**
 * Seed 004's modes, applied to an ask nothing else settled: strict denies without asking; permissive runs
 * it unprompted unless it is high risk (no high-impact action without explicit confirmation, seed 001 §2).
 */
/**
 * What a hidden tool answers (pi.hitl hidden_tools): it looks absent, never "blocked", so the model falls
 * back to other tools instead of arguing with a rule. The companion and the edge both answer this.
 */
export function hiddenToolReason(tool: string): string {
  return `Tool ${tool} is not available in this session.`;
}

/** The rule name a permissive-mode allow carries (audited as decision `allow_permissive`). */
export const PERMISSIVE_RULE = "mode: permissive";

function inMode(record: DecisionRecord, mode: PolicyMode, units: readonly GrantUnit[]): Verdict {
  if (mode === "strict")
    return {
      action: "deny",
      source: "policy",
      record: {
        ...record,
        action: "deny",
        rule: "mode: strict",
        message: "Denied: the policy mode is strict and no rule or grant allows this call.",
      },
    };
  // Permissive runs only what a grant could cover: a call not understood (medium since issue 21) or with a
  // concern a rule must name still asks, as it would with any grant.
  if (mode === "permissive" && record.risk !== "high" && units.length > 0 && units.every((u) => u.coverable))
    return {
      action: "allow",
      source: "policy",
      record: {
        ...record,
        action: "allow",
        rule: PERMISSIVE_RULE,
        message: "Allowed without asking: the policy mode is permissive (allow_permissive).",
      },
    };
  return { action: "ask", record };
}
