// Renders stored prompts and calls as the capability-prompt spec's events, with the grant choices a card offers.
import { grantOffer, MAX_SHOWN_GRANT_PATTERNS, type StoredUnit } from "../../policy/index.ts";
import { Capability, PromptDecision, Risk, type ScopeView } from "../../protocol/capability.ts";
import type { PromptGrantChoices } from "../../protocol/grants.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../protocol/prompts.ts";
import { type CallRow, unitsOf } from "./call-store.ts";
import { type PromptRow, parseAgent } from "./prompt-store.ts";

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

/** Every distinct unit of the calls, in call order. */
export function unitsOfCalls(calls: CallRow[]): StoredUnit[] {
  const seen = new Map<string, StoredUnit>();
  for (const call of calls) for (const u of unitsOf(call)) if (!seen.has(u.hash)) seen.set(u.hash, u);
  return [...seen.values()];
}

/** What the card offers for these calls at this risk (src/policy/grant-offer.ts). */
export function offerOf(prompt: Pick<PromptRow, "risk">, calls: CallRow[]) {
  return grantOffer(Risk.parse(prompt.risk), unitsOfCalls(calls));
}

export function grantChoices(calls: CallRow[], prompt: Pick<PromptRow, "risk">): PromptGrantChoices {
  const units = unitsOfCalls(calls);
  const offer = offerOf(prompt, calls);
  return {
    exact: units
      .slice(0, MAX_SHOWN_GRANT_PATTERNS)
      .map((u) => ({ capability: u.capability, pattern: u.display })),
    moreExact: Math.max(0, units.length - MAX_SHOWN_GRANT_PATTERNS),
    wider: offer.wider,
    ...(offer.why !== null ? { why: offer.why } : {}),
    ...(offer.rule !== null ? { rule: offer.rule } : {}),
  };
}

/** "Session" is offered when a grant could cover these calls again; "always" also needs the risk below high. */
function optionsFor(prompt: PromptRow, calls: CallRow[]): PromptDecision[] {
  const offer = offerOf(prompt, calls);
  return PromptDecision.options.filter(
    (d) => (d !== "allow_session" || offer.session) && (d !== "allow_always" || offer.always),
  );
}

/**
 * What one prompt may carry of its calls' shown text, so a listing of open prompts stays bounded
 * (200 prompts × 32 KiB) however many long calls a batch holds; a call past the budget is clipped further
 * and its `chars` tells the card how much is not shown.
 */
export const PROMPT_TEXT_BUDGET = 32 * 1024;

function callViews(calls: CallRow[]): NonNullable<CapabilityPrompt["calls"]> {
  let budget = PROMPT_TEXT_BUDGET;
  return calls.map((c) => {
    const view = {
      callId: c.call_id,
      summary: c.scope_summary,
      cwd: c.cwd ?? null,
      deviceId: c.device_id,
      description: c.description ?? null,
    };
    const text = c.shown_text;
    // A short call's summary already is its text: send it once.
    if (text === null || text === c.scope_summary) return view;
    // Past the budget a call keeps only its summary (an empty text); `chars` says how much is not shown.
    const shown = text.length <= budget ? text : budget > 1 ? `${text.slice(0, budget - 1)}…` : "";
    budget = Math.max(0, budget - shown.length);
    return { ...view, text: shown, chars: Math.max(c.shown_chars ?? 0, text.length) };
  });
}

/** `calls`: the calls the card is about (for an open prompt, the ones still waiting). */
export function promptView(prompt: PromptRow, calls: CallRow[]): CapabilityPrompt {
  const agent = parseAgent(prompt.agent);
  const scopes = distinctScopes(calls);
  return {
    promptId: prompt.id,
    callIds: calls.slice(0, MAX_PROMPT_CALLS).map((c) => c.call_id),
    agent,
    extension: agent,
    sessionIds: [...new Set(calls.map((c) => c.session_id))].slice(0, MAX_PROMPT_CALLS),
    capability: Capability.parse(prompt.capability),
    method: prompt.method,
    risk: Risk.parse(prompt.risk),
    justification: prompt.justification,
    scopes: scopes.slice(0, SHOWN_SCOPES),
    moreScopes: Math.max(0, scopes.length - SHOWN_SCOPES),
    options: optionsFor(prompt, calls),
    timeoutMs: prompt.timeout_ms,
    createdAt: new Date(prompt.created_at).toISOString(),
    expiresAt: new Date(prompt.expires_at).toISOString(),
    requiresConfirmation: prompt.risk === "high",
    calls: callViews(calls.slice(0, MAX_PROMPT_CALLS)),
    moreCalls: Math.max(0, calls.length - MAX_PROMPT_CALLS),
    grant: grantChoices(calls, prompt),
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
