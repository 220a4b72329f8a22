// An ungated session (`/permissions off` in Pi): its calls skip the local layers (agent, user, project
// files) and their hidden tools; the account layer still decides when it matches, and emergency controls,
// saved deny grants and the built-in concerns (secrets, code run from data) still apply as for any call.
import type { CompiledPolicy } from "./compiled.ts";
import { makeRuleSet } from "./compiled.ts";

export const UNGATED_DEFAULT_FROM = "permissions are off for this session (/permissions off)";

const derived = new WeakMap<CompiledPolicy, CompiledPolicy>();

/** The policy an ungated session's calls are judged by; null when a layer forbids ungated sessions. */
export function ungatedPolicy(policy: CompiledPolicy): CompiledPolicy | null {
  if (!policy.allowUngated) return null;
  const cached = derived.get(policy);
  if (cached) return cached;
  const out: CompiledPolicy = {
    ...policy,
    local: makeRuleSet([]),
    project: null,
    defaultAction: "allow",
    defaultFrom: UNGATED_DEFAULT_FROM,
    hiddenTools: new Map([...policy.hiddenTools].filter(([, by]) => by.layer === "account")),
  };
  derived.set(policy, out);
  return out;
}
