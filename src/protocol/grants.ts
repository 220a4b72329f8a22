// Grant wire shapes: saved grants (GET /v1/grants), the rules an answer created, the choices a prompt offers.
import { z } from "zod";
import { Capability } from "./capability.ts";

/**
 * `exact`: covers one unit (one simple command, path, URL or exact tool input) whose sha256 is
 * `scope_hash`; `scope_pattern` is how the person saw it (redacted). `prefix`: a wider pattern the person
 * picked on the card, verbatim (`git status *`, `/work/repo/src/**`, `GET https://api.github.com/*`).
 * `legacy`: saved before grants were exact; only a legacy deny still counts.
 */
export const GrantMatch = z.enum(["exact", "prefix", "legacy"]);
export type GrantMatch = z.infer<typeof GrantMatch>;

/** One saved grant (GET /v1/grants). `match` and `scope_hash` default for an edge that predates them. */
export const GrantView = z.object({
  id: z.string(),
  agent_id: z.string(),
  capability: Capability,
  match: GrantMatch.default("legacy"),
  scope_pattern: z.string().nullable(),
  scope_hash: z.string().nullable().default(null),
  version_range: z.string().nullable(),
  effect: z.enum(["allow", "deny"]),
  created_at: z.string(),
  created_by: z.string().nullable(),
  prompt_id: z.string().nullable(),
});
export type GrantView = z.infer<typeof GrantView>;

/** A grant rule an answer created, sent with the decision so the companion learns it without asking. */
export const GrantRuleView = z.object({
  capability: Capability,
  match: z.enum(["exact", "prefix"]),
  pattern: z.string().nullable(),
  scope_hash: z.string().nullable(),
  version_range: z.string().nullable(),
  effect: z.enum(["allow", "deny"]),
});
export type GrantRuleView = z.infer<typeof GrantRuleView>;

/** What allow_session/allow_always/deny_always would save, shown on the card verbatim. */
export const PromptGrantChoices = z.object({
  /** The default: the exact units of every call in the prompt, as the person sees them (redacted). */
  exact: z.array(z.object({ capability: Capability, pattern: z.string() })),
  /** Exact units not listed (the card says "+N more"). */
  moreExact: z.number().int().nonnegative(),
  /**
   * Wider patterns the person may pick instead, each covering every call shown; send the chosen one as
   * `pattern` with the decision. Never spans read-only and mutating subcommands; empty when none is safe.
   */
  wider: z.array(z.string()),
});
export type PromptGrantChoices = z.infer<typeof PromptGrantChoices>;
