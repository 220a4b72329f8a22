// Capabilities, risks and the five decisions of the capability-prompt spec.
import { z } from "zod";
import { carriesSecret, redactText } from "../policy/redact.ts";

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
/**
 * How a prompt ended: a person's decision, `deny_timeout` when nobody answered in time (the prompt
 * expired), or `abandoned` when every caller stopped waiting (withdrew, or vanished and did not come back).
 */
export const Resolution = z.enum([...PromptDecision.options, "deny_timeout", "abandoned"]);
export type Resolution = z.infer<typeof Resolution>;

/** A client-chosen label that Airlock stores and shows: refused when it looks like a credential. */
const label = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !carriesSecret(s), "must not carry a credential (it would be stored and shown)");

export const AgentIdentity = z.strictObject({
  id: label(200).min(1),
  name: label(200).min(1),
  version: label(100).optional(),
  /** Where the agent's extension came from (a path or URL): stored and shown, so redacted on the way in. */
  source: z.string().max(500).transform(redactText).optional(),
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
