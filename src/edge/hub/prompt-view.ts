// Renders stored prompts and calls as the capability-prompt spec's events.
import { Capability, PromptDecision, Risk, type ScopeView } from "../../protocol/capability.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../protocol/prompts.ts";
import { type CallRow, type PromptRow, parseAgent } from "./prompt-store.ts";

/** The spec shows up to three representative scopes, then "+N more". */
export const SHOWN_SCOPES = 3;
/** Every call of a batch is listed on the card, up to this many (the rest are counted in `moreCalls`). */
export const MAX_PROMPT_CALLS = 200;

function distinctScopes(calls: CallRow[]): ScopeView[] {
  const seen = new Map<string, ScopeView>();
  for (const call of calls) {
    if (!seen.has(call.scope_hash)) {
      seen.set(call.scope_hash, { kind: call.scope_kind as ScopeView["kind"], summary: call.scope_summary });
    }
  }
  return [...seen.values()];
}

export function promptView(prompt: PromptRow, calls: CallRow[]): CapabilityPrompt {
  const agent = parseAgent(prompt.agent);
  const scopes = distinctScopes(calls);
  return {
    promptId: prompt.id,
    callIds: calls.map((c) => c.call_id),
    agent,
    extension: agent,
    sessionIds: [...new Set(calls.map((c) => c.session_id))],
    capability: Capability.parse(prompt.capability),
    method: prompt.method,
    risk: Risk.parse(prompt.risk),
    justification: prompt.justification,
    scopes: scopes.slice(0, SHOWN_SCOPES),
    moreScopes: Math.max(0, scopes.length - SHOWN_SCOPES),
    options: [...PromptDecision.options],
    timeoutMs: prompt.timeout_ms,
    createdAt: new Date(prompt.created_at).toISOString(),
    expiresAt: new Date(prompt.expires_at).toISOString(),
    requiresConfirmation: prompt.risk === "high",
    calls: calls.slice(0, MAX_PROMPT_CALLS).map((c) => ({
      callId: c.call_id,
      summary: c.scope_summary,
      cwd: c.cwd ?? null,
      description: c.description ?? null,
    })),
    moreCalls: Math.max(0, calls.length - MAX_PROMPT_CALLS),
  };
}

export function resolvedView(prompt: PromptRow, calls: CallRow[]): ResolvedPrompt {
  return {
    ...promptView(prompt, calls),
    resolution: prompt.resolution ?? "deny_timeout",
    resolvedAt: new Date(prompt.resolved_at ?? prompt.expires_at).toISOString(),
    decidedBy: { actor: prompt.decided_by_actor ?? "timeout", deviceId: prompt.decided_by_device },
  };
}

/** Canonical summary of a prompt's scopes, hashed to bind confirmation tokens to what the person saw. */
export function scopesFingerprint(calls: CallRow[]): string {
  return [...new Set(calls.map((c) => c.scope_hash))].sort().join(",");
}
