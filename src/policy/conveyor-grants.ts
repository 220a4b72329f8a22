// The conveyor's grant matcher: which saved grant covers a proposed side effect. A grant is keyed by
// (tool, scope, risk class, identity); the scope is the tool's exact grant scope (for http.request: method,
// host and path). An allow covers only its own key: never a higher or other risk class, never the other
// identity. A deny holds for its tool and scope whatever the class or identity (deny is never narrower).
import type { RiskClass } from "./risk-class.ts";

export type ConveyorIdentity = "user" | "bot";

/** What one proposal would need a grant for. */
export interface ConveyorGrantKey {
  tool: string;
  /** The tool's grantScope of the arguments, exactly as the card showed it. */
  scope: string;
  riskClass: RiskClass;
  identity: ConveyorIdentity;
}

export interface ConveyorGrantRule {
  id: string;
  tool: string;
  scope: string;
  /** Null on a grant saved before grants knew their class: such an allow covers nothing. */
  riskClass: RiskClass | null;
  identity: ConveyorIdentity | null;
  effect: "allow" | "deny";
}

export interface ConveyorGrantHit {
  effect: "allow" | "deny";
  rule: ConveyorGrantRule;
}

/** Whether one rule covers one proposal's key. */
export function conveyorGrantCovers(rule: ConveyorGrantRule, key: ConveyorGrantKey): boolean {
  if (rule.tool !== key.tool || rule.scope !== key.scope) return false;
  if (rule.effect === "deny") return true;
  return rule.riskClass === key.riskClass && rule.identity === key.identity;
}

/** Deny beats allow; undefined when nothing covers the key. */
export function matchConveyorGrants(
  rules: readonly ConveyorGrantRule[],
  key: ConveyorGrantKey,
): ConveyorGrantHit | undefined {
  const covering = rules.filter((r) => conveyorGrantCovers(r, key));
  const deny = covering.find((r) => r.effect === "deny");
  if (deny) return { effect: "deny", rule: deny };
  const allow = covering[0];
  return allow ? { effect: "allow", rule: allow } : undefined;
}

/** What a grant covers, in words for the Grants view and the CLI. */
export function describeConveyorGrant(rule: Omit<ConveyorGrantRule, "id">): string {
  const verb = rule.effect === "allow" ? "Allows" : "Denies";
  if (rule.effect === "deny") return `${verb} ${rule.tool} ${rule.scope}, any risk class, either identity`;
  if (rule.riskClass === null || rule.identity === null)
    return `${verb} nothing any more: ${rule.tool} ${rule.scope} was saved before grants named their risk class`;
  return `${verb} ${rule.tool} ${rule.scope} as ${rule.identity}, ${rule.riskClass} only`;
}
