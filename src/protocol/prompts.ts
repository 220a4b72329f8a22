// Capability prompts as the capability-prompt spec shapes them (RPC events), shared by hub, dashboard and JSONL clients.
import { z } from "zod";
import { AgentIdentity, Capability, PromptDecision, Resolution, Risk, ScopeView } from "./capability.ts";
import { ProposalCard } from "./conveyor.ts";
import { PromptGrantChoices } from "./grants.ts";

/** One call of a batch as the card lists it: every call is shown before anyone approves the batch. */
export const PromptCall = z.object({
  callId: z.string(),
  /** The redacted scope summary (command, path, host…). */
  summary: z.string(),
  cwd: z.string().nullable().optional(),
  /** The companion device that sent the call (the card names the machine by the device's name). */
  deviceId: z.string().nullable().optional(),
  /** The agent's own words for the call ("Reinstall deps"), redacted; untrusted text. */
  description: z.string().nullable().optional(),
  /**
   * The call as it will run: redacted, newlines kept, control and bidi characters made visible, clipped to
   * 8 KiB. Cards show this, never only the summary (which folds whitespace and is clipped at 300).
   */
  text: z.string().optional(),
  /** Length of `text` before clipping: when larger, the card says how much is not shown. */
  chars: z.number().int().nonnegative().optional(),
});
export type PromptCall = z.infer<typeof PromptCall>;

export const CapabilityPrompt = z.object({
  promptId: z.string(),
  callIds: z.array(z.string()),
  agent: AgentIdentity,
  /** The spec's name for the requester; same value as `agent`, kept so spec-following JSONL clients work unchanged. */
  extension: AgentIdentity,
  sessionIds: z.array(z.string()),
  capability: Capability,
  method: z.string(),
  risk: Risk,
  justification: z.string(),
  /** Up to 3 representative redacted scopes; `moreScopes` counts the rest ("+N more"). */
  scopes: z.array(ScopeView),
  moreScopes: z.number().int().nonnegative(),
  options: z.array(PromptDecision),
  timeoutMs: z.number().int().positive(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** High-risk prompts need a confirmation token before an allow is accepted. */
  requiresConfirmation: z.boolean(),
  /** Set when the prompt asks about a proposed side effect (the conveyor) instead of agent calls. */
  proposal: ProposalCard.optional(),
  /** Every call of the batch (up to MAX_PROMPT_CALLS; `moreCalls` counts the rest). */
  calls: z.array(PromptCall).optional(),
  moreCalls: z.number().int().nonnegative().optional(),
  /**
   * What "session"/"always" answers save: the exact scopes by default, or one wider pattern the person picks.
   * The hub sends it on every prompt of agent calls (a proposal's prompt has none).
   */
  grant: PromptGrantChoices.optional(),
});
export type CapabilityPrompt = z.infer<typeof CapabilityPrompt>;

export const ResolvedPrompt = CapabilityPrompt.extend({
  resolution: Resolution,
  resolvedAt: z.string(),
  decidedBy: z.object({ actor: z.string(), deviceId: z.string().nullable() }),
});
export type ResolvedPrompt = z.infer<typeof ResolvedPrompt>;

/** A wider grant pattern the person picked on the card: one of the prompt's `grant.wider`, verbatim. */
export const GrantPatternChoice = z.string().min(1).max(400);

export const ApproveRequest = z.strictObject({
  scope: z.enum(["once", "session", "always"]).default("once"),
  confirmation_token: z.string().min(1).max(200).optional(),
  pattern: GrantPatternChoice.optional(),
});
/** A deny may carry a short message for the agent ("use pnpm instead"); it reaches the agent in the reason. */
export const DenyMessage = z.string().trim().max(500);
export const RejectRequest = z.strictObject({
  scope: z.enum(["once", "always"]).default("once"),
  message: DenyMessage.optional(),
  pattern: GrantPatternChoice.optional(),
});
export const ConfirmationToken = z.object({
  token: z.string(),
  expires_at: z.string(),
  prompt_id: z.string(),
});
