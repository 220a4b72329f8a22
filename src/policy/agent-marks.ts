// The words a card shows about who is judging a call: the agent's own ask, or Airlock alone under mode: sole.
// No imports, so the dashboard can read a card's marker without loading the policy engine.

/** What a person reads on the card when the agent itself asks: "<agent> asks about this: <its reason>". */
export function agentAskJustification(agentName: string, reason: string): string {
  return `${agentName} asks about this: ${reason}`;
}

/** Shown first on a card for a call judged under `mode: sole`, so the person knows the agent's own check is off. */
export const SOLE_MARK = "Airlock alone decides (mode: sole): the agent's own permission check is off.";

export function soleMarked(justification: string): string {
  return `${SOLE_MARK} ${justification}`;
}

/** What a card marks about who asks: the agent's own check ("Claude Code asks about this: …"), or mode: sole. */
export function cardMarkerOf(justification: string): "sole" | "agent_asks" | null {
  if (justification.startsWith(SOLE_MARK)) return "sole";
  return / asks about this: /.test(justification) ? "agent_asks" : null;
}
