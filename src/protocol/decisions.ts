// The decision API: a tool call in, allow or deny out (POST /v1/decisions and the socket's tool_request).
import { z } from "zod";
import { AgentIdentity, Capability, Risk } from "./capability.ts";

export const DecisionRequest = z.strictObject({
  call_id: z.string().min(1).max(200),
  session_id: z.string().min(1).max(200),
  agent: AgentIdentity,
  tool: z.string().min(1).max(200),
  input: z.record(z.string(), z.unknown()),
  cwd: z.string().max(4096).optional(),
  /** Set by a companion that already judged the call locally and is only asking a person. */
  local: z
    .strictObject({
      action: z.enum(["allow", "deny", "ask", "hidden"]),
      rule: z.string().nullable(),
      capability: Capability,
      risk: Risk,
    })
    .optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequest>;

export const DecisionSource = z.enum(["policy", "grant", "session_grant", "user", "timeout", "emergency"]);
export type DecisionSource = z.infer<typeof DecisionSource>;

export const DecisionResponse = z.object({
  call_id: z.string(),
  decision: z.enum(["allow", "deny"]),
  reason: z.string(),
  source: DecisionSource,
  prompt_id: z.string().optional(),
  rule: z.string().optional(),
});
export type DecisionResponse = z.infer<typeof DecisionResponse>;

/** 202 answer of `POST /v1/decisions?wait=false` while a person has not decided yet. */
export const DecisionPending = z.object({
  call_id: z.string(),
  status: z.literal("pending"),
  prompt_id: z.string(),
});
export type DecisionPending = z.infer<typeof DecisionPending>;
