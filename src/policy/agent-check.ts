// How Airlock's verdict meets the agent's own permission check, written once for the companion and the edge:
// the stricter of the two, call by call. An agent that asks about a call (Claude Code's PermissionRequest, Codex's
// approval request) gets a person, whatever Airlock's policy or a grant would allow; Airlock's own deny still
// wins. Only `mode: sole` (compile.ts: the user's files or the account policy) makes Airlock the only judge.
import { agentAskJustification } from "./agent-marks.ts";
import type { Verdict } from "./verdict.ts";

export { agentAskJustification, cardMarkerOf, SOLE_MARK, soleMarked } from "./agent-marks.ts";

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
