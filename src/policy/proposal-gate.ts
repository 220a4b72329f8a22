// Whether a proposed side effect runs at once, waits for a person (with or without a confirmation
// token), or never runs. The one place these rules live: emergency controls first, then deny grants,
// then the risk class (seed 003 §8, terminal safety spec §4). An allow grant stands in for the person only
// when it was saved for this very risk class (src/policy/conveyor-grants.ts matches the rest of its key).
import { toolBlocked } from "./emergency.ts";
import { planRiskOf, type RiskClass } from "./risk-class.ts";
import type { EmergencyControls } from "./types.ts";

export type ProposalGate = "none" | "ask" | "ask_confirm";
/** `byGrant`: a saved grant decided (the conveyor records its use). */
export type GateVerdict =
  | { action: "deny"; reason: string; byGrant?: true }
  | { action: "allow" | "ask"; gate: ProposalGate; reason: string; byGrant?: true };

export interface GateInput {
  tool: string;
  riskClass: RiskClass;
  /** True when the effect leaves Airlock (HTTP to a third party, a command on a machine). */
  external: boolean;
  /** A covering persisted grant's effect, if any. */
  grant: "allow" | "deny" | undefined;
  /**
   * The risk class the covering grant was saved for (null: none, or a grant from before grants knew
   * their class; absent reads as null). An allow for another class never stands in: WRITE never covers
   * EXFILTRATION.
   */
  grantClass?: RiskClass | null;
  /** HIGH tools whose grants may stand in for the confirmation (companion.run); others never. */
  grantCoversHigh: boolean;
  /** Started by untrusted input (a webhook delivery): grants never stand in for the person then. */
  untrustedSource: boolean;
  /**
   * Set by the hosted runtime (turnEffect in turn-safety.ts) when only a person may approve: a background
   * job's external write, or any turn that ingested web or webhook content. The reason is recorded.
   */
  personOnly?: string;
  emergency: EmergencyControls;
}

export function proposalGate(input: GateInput): GateVerdict {
  const { tool, riskClass, emergency } = input;
  const blocked = toolBlocked(tool, emergency.blockedTools);
  if (blocked !== undefined)
    return { action: "deny", reason: `emergency control: tool ${tool} is blocked (${blocked})` };
  if (emergency.readOnly && riskClass !== "READ") {
    return { action: "deny", reason: `emergency control: read-only mode denies ${riskClass}` };
  }
  if (emergency.disableHighImpact && (riskClass === "HIGH" || riskClass === "DESTRUCTIVE")) {
    return { action: "deny", reason: "emergency control: high-impact actions are disabled" };
  }
  if (input.grant === "deny") return { action: "deny", reason: "denied by a saved grant", byGrant: true };
  const exact = input.grant === "allow" && input.grantClass === riskClass;
  const grant = input.untrustedSource || input.personOnly || !exact ? undefined : input.grant;
  if (riskClass === "HIGH" || riskClass === "DESTRUCTIVE") {
    // DESTRUCTIVE needs the confirmation token unless a grant for exactly that class exists; HIGH also
    // needs a tool whose grants may stand in (companion.run).
    if (grant === "allow" && (riskClass === "DESTRUCTIVE" || input.grantCoversHigh)) {
      return {
        action: "allow",
        gate: "none",
        reason: `allowed by a saved ${riskClass} grant`,
        byGrant: true,
      };
    }
    return {
      action: "ask",
      gate: "ask_confirm",
      reason: `${riskClass} needs a person and a confirmation token`,
    };
  }
  if (input.external && (riskClass === "WRITE" || riskClass === "EXFILTRATION")) {
    if (grant === "allow")
      return {
        action: "allow",
        gate: "none",
        reason: `allowed by a saved ${riskClass} grant`,
        byGrant: true,
      };
    if (input.personOnly) {
      const gate = planRiskOf(riskClass) === "high" ? "ask_confirm" : "ask";
      return { action: "ask", gate, reason: `only a person may approve: ${input.personOnly}` };
    }
    // The terminal safety spec's high risk (data leaving) gets the deliberate second step too.
    const gate = planRiskOf(riskClass) === "high" ? "ask_confirm" : "ask";
    return { action: "ask", gate, reason: `an external ${riskClass} needs a person's approval` };
  }
  return {
    action: "allow",
    gate: "none",
    reason: input.external ? "a read needs no approval" : "internal to Airlock",
  };
}
