// Wire shapes of the side-effect conveyor: proposals, their execution envelope, webhook hooks.
import { z } from "zod";
import { Task } from "./task.ts";

export const RiskClass = z.enum(["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"]);
export type RiskClass = z.infer<typeof RiskClass>;

export const ProposalState = z.enum([
  "PENDING",
  "APPROVED",
  "REJECTED",
  "EXPIRED",
  "EXECUTED",
  "FAILED",
  "PARTIAL",
]);
export type ProposalState = z.infer<typeof ProposalState>;

/**
 * Who started a proposal; `ref` names the job, hook, device or chat thread. A hosted job's proposals say
 * what started the job: `job` (the API), `schedule` or `webhook` (then `ref` is the job id). `mcp`: a remote
 * MCP client's tool call (`ref` is its OAuth client id; docs/mcp.md).
 */
export const ProposalSourceKind = z.enum(["job", "webhook", "api", "companion", "schedule", "chat", "mcp"]);
export type ProposalSourceKind = z.infer<typeof ProposalSourceKind>;

/** Terminal safety spec, execution envelope: why a run did not complete. */
export const FailureClass = z.enum([
  "permission_denied",
  "tool_unavailable",
  "command_error",
  "timeout",
  "partial_execution",
]);
export type FailureClass = z.infer<typeof FailureClass>;

/** Deterministic, backend-rendered: what happens, where, and what it changes. */
export const ProposalSummary = z.object({ what: z.string(), where: z.string(), impact: z.string() });
export type ProposalSummary = z.infer<typeof ProposalSummary>;

export const Verification = z.object({
  outcome: z.enum(["passed", "failed", "not_applicable"]),
  detail: z.string(),
});
export type Verification = z.infer<typeof Verification>;

/** What the executor records for one run (input redacted). */
export const ExecutionEnvelope = z.object({
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  started_at: z.string(),
  finished_at: z.string(),
  status: z.enum(["executed", "failed", "partial"]),
  attempt: z.number().int().positive(),
  result: z.unknown().optional(),
  failure: z
    .object({ class: FailureClass, message: z.string(), remediation: z.string().optional() })
    .optional(),
  verification: Verification,
});
export type ExecutionEnvelope = z.infer<typeof ExecutionEnvelope>;

const IdempotencyKey = z
  .string()
  .min(8, "use at least 8 characters (a UUID is a good key)")
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces");

export const CreateProposalRequest = z.strictObject({
  tool: z.string().min(1).max(100),
  /** Explicit on every integration call: act as the person, or as Airlock's bot identity. */
  identity: z.enum(["user", "bot"]),
  args: z.record(z.string(), z.unknown()),
  idempotency_key: IdempotencyKey,
  justification: z.string().trim().min(1).max(1000),
  /** How long the person has to decide (default 1 hour, at most 7 days). */
  expires_in_s: z
    .number()
    .int()
    .min(10)
    .max(7 * 24 * 3600)
    .optional(),
});
export type CreateProposalRequest = z.infer<typeof CreateProposalRequest>;

export const ProposalListQuery = z.object({
  state: ProposalState.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The proposal as the API and the dashboard show it. */
export const ProposalView = z.object({
  id: z.string(),
  tool: z.string(),
  identity: z.enum(["user", "bot"]),
  risk_class: RiskClass,
  state: ProposalState,
  /** `none`: policy or a grant let it run; `ask`: a person approves; `ask_confirm`: with a confirmation token. */
  gate: z.enum(["none", "ask", "ask_confirm"]),
  /** Why the gate answered so: for a person, why they must decide ("this thread read https://… earlier"). */
  gate_reason: z.string().nullable(),
  summary: ProposalSummary,
  justification: z.string(),
  /** Validated arguments, redacted. */
  args: z.record(z.string(), z.unknown()),
  idempotency_key: z.string(),
  source: z.object({ kind: ProposalSourceKind, ref: z.string().nullable() }),
  prompt_id: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  finished_at: z.string().nullable(),
  envelope: ExecutionEnvelope.nullable(),
});
export type ProposalView = z.infer<typeof ProposalView>;

/**
 * What a proposal's prompt card shows (the `proposal` field of a capability prompt): plain fields only,
 * the arguments as redacted JSON text, so the prompt stays a fixed shape on every wire.
 */
export const ProposalCard = z.object({
  id: z.string(),
  tool: z.string(),
  identity: z.enum(["user", "bot"]),
  risk_class: RiskClass,
  gate: z.enum(["none", "ask", "ask_confirm"]),
  /** Why a person must decide (older cards have none). */
  gate_reason: z.string().nullable().default(null),
  summary: ProposalSummary,
  justification: z.string(),
  /** Redacted arguments, JSON text, at most 2,000 characters. */
  args_text: z.string(),
  source: z.object({ kind: ProposalSourceKind, ref: z.string().nullable() }),
  expires_at: z.string(),
});
export type ProposalCard = z.infer<typeof ProposalCard>;

/**
 * Arguments as card text: long strings (a mail's body) are shortened first so the text stays valid JSON a
 * card can render field by field; only if that is still too long is the text itself cut.
 */
function cardArgsText(args: Record<string, unknown>): string {
  const full = JSON.stringify(args);
  if (full.length <= 2000) return full;
  return JSON.stringify(args, (_key, value: unknown) =>
    typeof value === "string" && value.length > 600 ? `${value.slice(0, 599)}…` : value,
  );
}

export function proposalCard(view: ProposalView): ProposalCard {
  const args = cardArgsText(view.args);
  return {
    id: view.id,
    tool: view.tool,
    identity: view.identity,
    risk_class: view.risk_class,
    gate: view.gate,
    gate_reason: view.gate_reason,
    summary: view.summary,
    justification: view.justification,
    args_text: args.length > 2000 ? `${args.slice(0, 1999)}…` : args,
    source: view.source,
    expires_at: view.expires_at,
  };
}

// ---- idempotent targets ----

/** A target the person declared idempotent: after a crash mid-send it may be sent to again. */
export const IdempotentTarget = z.object({
  tool: z.string(),
  /** http.request: the URL's host (with its port when not the default). */
  target: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
});
export type IdempotentTarget = z.infer<typeof IdempotentTarget>;

export const DeclareIdempotentTarget = z.strictObject({
  tool: z.string().min(1).max(100),
  target: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(300)
    .regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/, "a host, optionally with :port"),
});

// ---- webhooks ----

/** A verified delivery proposes a fixed action (the body is only context: hashed, never spliced in). */
export const HookProposalAction = z.strictObject({
  type: z.literal("proposal"),
  tool: z.string().min(1).max(100),
  identity: z.enum(["user", "bot"]).default("bot"),
  args: z.record(z.string(), z.unknown()),
  justification: z.string().trim().min(1).max(1000),
});
/** A verified delivery starts a hosted job; the body is the job's input, labelled untrusted. */
export const HookJobAction = z.strictObject({ type: z.literal("job"), task: Task });
export const HookAction = z.discriminatedUnion("type", [HookProposalAction, HookJobAction]);
export type HookAction = z.infer<typeof HookAction>;

export const CreateHookRequest = z.strictObject({
  name: z.string().trim().min(1).max(100),
  action: HookAction.optional(),
});

export const RotateHookRequest = z.strictObject({
  /** How long the previous secret keeps verifying (default 24 h, at most 7 days; 0 ends it now). */
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(24 * 3600),
});

export const HookView = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  action: HookAction.nullable(),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  previous_secret_valid_until: z.string().nullable(),
});
export type HookView = z.infer<typeof HookView>;

/** `POST /v1/hooks` and `/rotate`: the only time the `whsec_` secret is ever shown. */
export const HookWithSecret = HookView.extend({ secret: z.string().startsWith("whsec_") });
export type HookWithSecret = z.infer<typeof HookWithSecret>;

/** `POST /v1/hooks/{id}` answer to a verified delivery. */
export const DeliveryAccepted = z.object({
  delivery_id: z.string(),
  hook_id: z.string(),
  proposal_id: z.string().nullable(),
  /** The job a `job` action started (null otherwise). */
  job_id: z.string().nullable(),
  duplicate: z.boolean(),
});
export type DeliveryAccepted = z.infer<typeof DeliveryAccepted>;
