// Audit wire shapes: the query of GET /v1/audit and the local decisions a companion reports.
import { z } from "zod";
import { Capability, Risk } from "./capability.ts";

export const LocalDecisionEvent = z.strictObject({
  call_id: z.string().min(1).max(200),
  session_id: z.string().min(1).max(200),
  agent_id: z.string().min(1).max(200),
  tool: z.string().min(1).max(200),
  capability: Capability,
  risk: Risk,
  action: z.enum(["allow", "deny", "ask", "hidden"]),
  layer: z.string().max(50),
  rule: z.string().max(500).nullable(),
  scope_hash: z.string().regex(/^[0-9a-f]{64}$/),
  source: z.enum(["policy", "grant", "session_grant", "emergency", "local_ui"]).default("policy"),
  /** With source `grant`: the saved grant that decided (its last use and a grant.used row at the edge). */
  grant_id: z.string().max(100).optional(),
  /** Decided for a session that turned gating off (Pi's `/permissions off`): the local layers were skipped. */
  ungated: z.boolean().optional(),
  /** The local policy's mode (seed 004); older companions send none, which reads as prompt. */
  policy_mode: z.enum(["strict", "prompt", "permissive"]).optional(),
  at: z.string().datetime(),
});
export type LocalDecisionEvent = z.infer<typeof LocalDecisionEvent>;

export const LocalDecisionBatch = z.strictObject({ events: z.array(LocalDecisionEvent).min(1).max(500) });

export const AuditQuery = z.object({
  from: z.string().datetime().optional(),
  to: z.string().datetime().optional(),
  event: z.string().max(100).optional(),
  agent: z.string().max(200).optional(),
  decision: z.string().max(50).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(["json", "ndjson"]).default("json"),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEvent = z.object({
  id: z.string(),
  at: z.string(),
  device_id: z.string().nullable(),
  actor: z.string(),
  event: z.string(),
  target: z.string().nullable(),
  agent_id: z.string().nullable(),
  decision: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditPage = z.object({ events: z.array(AuditEvent), next_cursor: z.string().nullable() });
