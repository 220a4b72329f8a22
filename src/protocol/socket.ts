// Every websocket message between UserHub and its clients (companions and dashboards), parsed on both ends.
// Casing: camelCase, as the capability-prompt spec's RPC mode (the wire style is in ./index.ts).
import { z } from "zod";
import { EmergencyControls, PromptDecision } from "./capability.ts";
import { ProposalView } from "./conveyor.ts";
import { DecisionRequest, DecisionResponse } from "./decisions.ts";
import { GrantRuleView } from "./grants.ts";
import { CapabilityPrompt, GrantPatternChoice, ResolvedPrompt } from "./prompts.ts";
import { DeviceRole } from "./roles.ts";
import { RuntimeServerMessage } from "./runtime.ts";

/** A socket's role is its device's role (src/protocol/roles.ts); `dashboard` was the approver's old name. */
export const ClientRole = DeviceRole;
export type ClientRole = z.infer<typeof ClientRole>;

// The session's rules (close codes, ping and pong deadlines, backoff, the hello → welcome → resume → sync sequence)
// are in ./session.ts, without zod so the dashboard's first view can follow them; they are part of this wire.
export * from "./session.ts";

/** The longest undo window a client may ask the hub to hold an answer for. */
export const MAX_UNDO_MS = 10_000;

/** An answer the hub holds for its undo window: it is settled at `commitAt` unless undone first. */
export const HeldDecision = z.object({
  held: z.literal(true),
  promptId: z.string(),
  decision: PromptDecision,
  /** When the hub settles it (ISO 8601, the hub's clock). */
  commitAt: z.string(),
});
export type HeldDecision = z.infer<typeof HeldDecision>;

/** Client → hub. */
export const ClientMessage = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("hello"),
    client: z.strictObject({ name: z.string().max(100), version: z.string().max(50).optional() }),
    /** Call ids the client is still waiting on (a companion resuming after a reconnect). */
    resume: z.array(z.string().max(200)).max(1000).optional(),
  }),
  z.strictObject({ type: z.literal("ping"), id: z.string().max(100).optional() }),
  z.strictObject({
    type: z.literal("tool_request"),
    id: z.string().max(100).optional(),
    request: DecisionRequest,
  }),
  z.strictObject({
    type: z.literal("capability_decision"),
    id: z.string().max(100).optional(),
    promptId: z.string().max(200),
    decision: PromptDecision,
    confirmationToken: z.string().max(200).optional(),
    /** With a deny: a message for the agent. */
    message: z.string().trim().max(500).optional(),
    /** A wider grant pattern from the prompt's `grant.wider` (session/always answers only). */
    pattern: GrantPatternChoice.optional(),
    /**
     * An undo window: the hub checks the answer now, holds it this long (never past the prompt's deadline) and
     * settles it then, unless `undo_decision` cancels it first. The reply's data is a `HeldDecision`.
     */
    undoMs: z.number().int().min(0).max(MAX_UNDO_MS).optional(),
  }),
  /** Cancels an answer still held in its undo window; refused once it has been settled. */
  z.strictObject({
    type: z.literal("undo_decision"),
    id: z.string().max(100).optional(),
    promptId: z.string().max(200),
  }),
  /** A companion that stopped waiting for these calls withdraws them (each is denied as `abandoned`). */
  z.strictObject({
    type: z.literal("withdraw"),
    id: z.string().max(100).optional(),
    callIds: z.array(z.string().min(1).max(200)).min(1).max(100),
  }),
  /** A companion's answer to `companion_run` (the conveyor's companion.run tool). */
  z.strictObject({
    type: z.literal("companion_run_result"),
    runId: z.string().max(300),
    decision: z.enum(["allow", "deny"]),
    reason: z.string().max(2000),
    exitCode: z.number().int().nullable(),
    stdout: z.string().max(70_000),
    stderr: z.string().max(70_000),
    truncated: z.boolean(),
    timedOut: z.boolean(),
  }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** Hub → client. */
export const ServerMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("welcome"),
    role: ClientRole,
    deviceId: z.string(),
    serverTime: z.string(),
    emergency: EmergencyControls,
  }),
  z.object({ type: z.literal("pong"), id: z.string().optional(), serverTime: z.string() }),
  z.object({
    type: z.literal("error"),
    id: z.string().optional(),
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
  z.object({
    type: z.literal("response"),
    id: z.string().optional(),
    command: z.string(),
    success: z.boolean(),
    data: z.unknown().nullable(),
    error: z.string().nullable(),
    /** The error code when `success` is false (`prompt_expired`, `conflict`, `confirmation_required` …). */
    code: z.string().optional(),
  }),
  z.object({ type: z.literal("capability_prompt"), data: CapabilityPrompt }),
  z.object({ type: z.literal("prompt_updated"), data: CapabilityPrompt }),
  z.object({ type: z.literal("prompt_resolved"), data: ResolvedPrompt }),
  z.object({ type: z.literal("capability_decision"), id: z.string().optional(), data: DecisionResponse }),
  z.object({
    type: z.literal("decision_pending"),
    id: z.string().optional(),
    callId: z.string(),
    promptId: z.string(),
    /** When the prompt times out (ISO 8601); the companion needs no timer of its own beyond it. */
    expiresAt: z.string().optional(),
  }),
  z.object({ type: z.literal("emergency_updated"), data: EmergencyControls }),
  /** To one companion: run an approved companion.run proposal, judged by the companion's local policy. */
  z.object({
    type: z.literal("companion_run"),
    runId: z.string(),
    command: z.string(),
    cwd: z.string(),
    timeoutMs: z.number().int().positive(),
  }),
  /**
   * To companions: the person revoked grants. Saved grants by id (drop them from the cache now), session
   * grants by session, agent and rule (a companion learned those from decisions, without ids).
   */
  z.object({
    type: z.literal("grants_revoked"),
    data: z.object({
      ids: z.array(z.string()),
      session: z
        .array(z.object({ session_id: z.string(), agent_id: z.string(), rule: GrantRuleView }))
        .default([]),
    }),
  }),
  /** A proposal changed state (approved, rejected, expired, executed, failed). */
  z.object({ type: z.literal("proposal_updated"), data: ProposalView }),
  /** The notify tool: an in-app notification for the person. */
  z.object({
    type: z.literal("notification"),
    data: z.object({ id: z.string(), title: z.string(), body: z.string() }),
  }),
  // The hosted runtime: chat replies as they are written, stored chat messages, job progress.
  ...RuntimeServerMessage.options,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
