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

/**
 * A saved agent-call grant as a matcher rule: what the companion caches to decide offline (GET
 * /v1/grants/rules). No metadata: who saved it, when and from which card is for the person only.
 * `match` and `scope_hash` default for an edge that predates them.
 */
export const GrantRuleEntry = z.object({
  id: z.string(),
  agent_id: z.string(),
  capability: Capability,
  match: GrantMatch.default("legacy"),
  scope_pattern: z.string().nullable(),
  scope_hash: z.string().nullable().default(null),
  version_range: z.string().nullable(),
  effect: z.enum(["allow", "deny"]),
});
export type GrantRuleEntry = z.infer<typeof GrantRuleEntry>;

/** Who saved a grant, when, from which card, and when it last covered something (every kind lists these). */
const GrantProvenance = {
  /** What the grant covers, in words. */
  covers: z.string(),
  created_at: z.string(),
  /** The device that saved it (the approver that answered the card). */
  created_by: z.string().nullable(),
  /** The card it was saved from: a prompt id. */
  prompt_id: z.string().nullable(),
  last_used_at: z.string().nullable(),
};

/** One saved agent-call grant (GET /v1/grants, approvers only). */
export const GrantView = GrantRuleEntry.extend(GrantProvenance);
export type GrantView = z.infer<typeof GrantView>;

/** A grant a person saved on a proposal card: one tool's exact scope, risk class and identity (docs/conveyor.md). */
export const ConveyorGrantView = z.object({
  id: z.string(),
  tool: z.string(),
  scope: z.string(),
  /** Null: saved before grants named their class; such an allow covers nothing, a deny still holds. */
  risk_class: z.enum(["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"]).nullable(),
  identity: z.enum(["user", "bot"]).nullable(),
  effect: z.enum(["allow", "deny"]),
  ...GrantProvenance,
});
export type ConveyorGrantView = z.infer<typeof ConveyorGrantView>;

/** An allow_session grant: bound to one agent session, gone with it or after a day unused. */
export const SessionGrantView = z.object({
  id: z.string(),
  session_id: z.string(),
  agent_id: z.string(),
  capability: z.string(),
  scope_pattern: z.string().nullable(),
  ...GrantProvenance,
  last_used_at: z.string(),
});
export type SessionGrantView = z.infer<typeof SessionGrantView>;

/** GET /v1/grants: every grant of the account, each kind in its own list; each id revocable by DELETE. */
export const GrantList = z.object({
  grants: z.array(GrantView),
  conveyor_grants: z.array(ConveyorGrantView),
  session_grants: z.array(SessionGrantView),
});
export type GrantList = z.infer<typeof GrantList>;
export const GrantRuleList = z.object({ grants: z.array(GrantRuleEntry) });

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
  /** Why the card offers no "always" (not understood, a concern, high risk …): one line; absent when it does. */
  why: z.string().optional(),
  /** A permissions.yaml rule that would allow the call, where a rule can (one YAML line). */
  rule: z.string().optional(),
});
export type PromptGrantChoices = z.infer<typeof PromptGrantChoices>;
