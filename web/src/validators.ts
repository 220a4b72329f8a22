// Everything the first view parses with, in one lazy chunk (see load-validators.ts): the zod runtime is about half
// of what the Approvals view would otherwise download before its first paint. The wire shapes are src/protocol's
// own (re-exported, never redefined); the few shapes here are the dashboard's own readings of an answer.
import "./zod-config.ts";
import { z } from "zod";
import { ProposalView } from "../../src/protocol/conveyor.ts";
import { ResolvedPrompt } from "../../src/protocol/prompts.ts";

export { ProposalView } from "../../src/protocol/conveyor.ts";
export { ErrorEnvelope } from "../../src/protocol/errors.ts";
export { DeviceList } from "../../src/protocol/pairing.ts";
export { PolicySuggestionList, SuggestionAccepted } from "../../src/protocol/policy-insights.ts";
export { ConfirmationToken, ResolvedPrompt } from "../../src/protocol/prompts.ts";
export { HeldDecision, ServerMessage } from "../../src/protocol/socket.ts";
// The outbox restores queued decisions from sessionStorage through its own schema, so it travels with zod.
export { DecisionOutbox, sessionOutboxStore } from "./decision-outbox.ts";

/** `GET /v1/approvals?status=resolved`. */
export const ResolvedList = z.object({ approvals: z.array(ResolvedPrompt) });
/** `GET /v1/proposals/{id}`. */
export const ProposalOne = z.object({ proposal: ProposalView });

/**
 * The grant scope choices a prompt may offer (src/protocol/grants.ts PromptGrantChoices), read loosely so a hub
 * that sends none (or an older shape) leaves the card as it was (web/src/grant-choices.ts).
 */
export const GrantChoices = z.object({
  exact: z.array(z.object({ capability: z.string(), pattern: z.string() })),
  moreExact: z.number().int().nonnegative().default(0),
  wider: z.array(z.string()),
  /** Why no "always" is offered (one line), and the rule that would allow the call where one can. */
  why: z.string().optional(),
  rule: z.string().optional(),
});
export type GrantChoices = z.infer<typeof GrantChoices>;
