// The one question precognition asks policy, at warm time and again at serve time: would this call be
// allowed right now without asking anyone? Answered by the companion's decision core (policy and emergency
// controls; a grant is a person's answer to an ask, so it never makes a warm happen). Nothing here re-codes
// a rule, and nothing is audited: no agent call happens here.
import type { EmergencyControls } from "../../policy/index.ts";
import type { AgentToolCall } from "../control/tool-call.ts";
import { decideLocally } from "../deciding/decide.ts";
import type { PolicyState } from "../local-policy/load.ts";
import type { PolicyCheck } from "./serve.ts";

export interface PolicyGateDeps {
  policy: (cwd: string) => PolicyState;
  emergency?: () => EmergencyControls | undefined;
}

const AGENT = { id: "airlock-precog", name: "Airlock precognition" };

export function policyGate(deps: PolicyGateDeps): (cwd: string) => PolicyCheck {
  return (cwd) => (tool, input) => {
    const call: AgentToolCall = {
      callId: "precog",
      sessionId: "precog",
      agent: AGENT,
      tool,
      input,
      cwd,
      hasUI: false,
    };
    const local = decideLocally(call, {
      policy: deps.policy,
      ...(deps.emergency ? { emergency: deps.emergency } : {}),
      // Never used: an `ask` is simply "no".
      promptTimeoutMs: 1,
      unpairedReason: "precognition never asks",
    });
    return "decision" in local && local.decision.decision === "allow";
  };
}
