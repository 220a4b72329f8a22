// How Airlock's verdict meets the agent's own permission check, written once for the companion and the edge:
// the stricter of the two, call by call. An agent that asks about a call (Claude Code's PermissionRequest, Codex's
// approval request) gets a person, whatever Airlock's policy or a grant would allow; Airlock's own deny still
// wins. Only `mode: sole` (compile.ts: the user's files or the account policy) makes Airlock the only judge.
import type { Verdict } from "./verdict.ts";

/** What a person reads on the card when the agent itself asks: "<agent> asks about this: <its reason>". */
export function agentAskJustification(agentName: string, reason: string): string {
  return `${agentName} asks about this: ${reason}`;
}

/**
 * The verdict once the agent's own ask is counted. `agentAsks` is the agent's reason (absent when the agent
 * did not ask). A deny (policy, grant or emergency) stays a deny; anything else goes to a person, because an
 * agent's ask is never answered by Airlock's policy or a grant made for Airlock's own questions.
 */
export function withAgentAsk(verdict: Verdict, agentName: string, agentAsks: string | undefined): Verdict {
  if (agentAsks === undefined || verdict.action === "deny") return verdict;
  const record = {
    ...verdict.record,
    action: "ask" as const,
    justification: agentAskJustification(agentName, agentAsks),
  };
  return { action: "ask", record };
}

/** Shown first on a card for a call judged under `mode: sole`, so the person knows the agent's own check is off. */
export const SOLE_MARK = "Airlock alone decides (mode: sole): the agent's own permission check is off.";

export function soleMarked(justification: string): string {
  return `${SOLE_MARK} ${justification}`;
}

/**
 * Whether an Airlock allow may pre-approve the call for the agent (skipping the agent's own check). Only in
 * `mode: sole`; in the default composed mode an allow leaves the agent's own check in force.
 */
export function allowPreApproves(soleFrom: string | null): boolean {
  return soleFrom !== null;
}
