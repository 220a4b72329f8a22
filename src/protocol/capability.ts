// Capabilities, risks and the five decisions of the capability-prompt spec.
import { z } from "zod";

export const Capability = z.enum(["read", "write", "exec", "http", "session", "ui", "tool"]);
export const Risk = z.enum(["low", "medium", "high"]);
export const PromptDecision = z.enum([
  "allow_once",
  "allow_session",
  "allow_always",
  "deny_once",
  "deny_always",
]);
export type PromptDecision = z.infer<typeof PromptDecision>;
/** What a resolved call records: a person's decision, or `deny_timeout` when nobody answered in time. */
export const Resolution = z.enum([...PromptDecision.options, "deny_timeout"]);
export type Resolution = z.infer<typeof Resolution>;

export const AgentIdentity = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  version: z.string().max(100).optional(),
  source: z.string().max(500).optional(),
});
export type AgentIdentity = z.infer<typeof AgentIdentity>;

export const ScopeView = z.object({
  kind: z.enum(["path", "host", "command", "operation", "tool"]),
  summary: z.string(),
});
export type ScopeView = z.infer<typeof ScopeView>;

export const EmergencyControls = z.strictObject({
  readOnly: z.boolean(),
  disableHighImpact: z.boolean(),
  blockedTools: z.array(z.string().min(1).max(200)).max(500),
});
export type EmergencyControls = z.infer<typeof EmergencyControls>;
