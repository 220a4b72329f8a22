// Which answers a question offers beyond "once": "for the session", "always", a wider pattern. Any ask the
// engine can describe exactly can be granted exactly; where it cannot, or the risk is high, the card says why
// in one line and, where a rule could allow it, shows that rule. Used by the edge's cards and checked again
// when an answer arrives, so an "always" the card did not offer is refused.

import type { StoredUnit } from "./grant-units.ts";
import { offeredPatterns } from "./grants.ts";
import type { Risk } from "./types.ts";

export interface GrantOffer {
  /** allow_session: the units can all be covered. */
  session: boolean;
  /** allow_always: coverable and not high risk (high never offers "always"). */
  always: boolean;
  /** Wider patterns (never for high risk). */
  wider: string[];
  /** One line: why there is no "always", or null when there is. */
  why: string | null;
  /** A permissions.yaml rule that would allow the call, where one can; null otherwise. */
  rule: string | null;
}

export const HIGH_RISK_WHY =
  'High risk: this cannot be undone or leaves this machine, so each time needs you (no "always").';

export function grantOffer(risk: Risk, units: readonly StoredUnit[]): GrantOffer {
  // A rule for one command allows the call only when that command is all of it (no file it also writes).
  const rule = units.length === 1 ? (units[0]?.rule ?? null) : null;
  if (units.length === 0)
    return { session: false, always: false, wider: [], why: "There is nothing exact to grant.", rule: null };
  const blocked = units.find((u) => !u.coverable);
  if (blocked !== undefined) {
    const why = blocked.why ?? "what it does is not known exactly";
    const tail = rule !== null ? "; a rule can allow it" : "";
    return { session: false, always: false, wider: [], why: `No grant can cover this: ${why}${tail}.`, rule };
  }
  if (risk === "high") return { session: true, always: false, wider: [], why: HIGH_RISK_WHY, rule };
  return { session: true, always: true, wider: offeredPatterns(units), why: null, rule: null };
}
