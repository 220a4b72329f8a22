// The decision API: a tool call in, allow or deny out (POST /v1/decisions and the socket's tool_request).
import { z } from "zod";
import { carriesSecret, redactText } from "../policy/redact.ts";
import { AgentIdentity, Capability, Resolution, Risk } from "./capability.ts";
import { GrantRuleView } from "./grants.ts";
import { MAX_COMMAND_CHARS, MAX_JSON_DEPTH, MAX_PATH_CHARS, MAX_URL_CHARS, valueDepth } from "./limits.ts";

/**
 * An identifier Airlock stores and echoes (call ids, session ids, tool names). One that looks like a
 * credential is refused rather than stored: redacting it would break every lookup by it.
 */
export const WireId = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !carriesSecret(s), "must not carry a credential (it would be stored and shown)");

/** The fields policy judges, each bounded: past these a call is refused before any rule runs. */
const judged: [key: string, max: number][] = [
  ["command", MAX_COMMAND_CHARS],
  ["path", MAX_PATH_CHARS],
  ["file_path", MAX_PATH_CHARS],
  ["notebook_path", MAX_PATH_CHARS],
  ["url", MAX_URL_CHARS],
  ["method", 20],
];

/** A tool's input: any JSON object, nested at most MAX_JSON_DEPTH deep, with bounded judged fields. */
export const ToolInput = z.record(z.string().max(200), z.unknown()).superRefine((input, ctx) => {
  if (Object.keys(input).length > 200) ctx.addIssue({ code: "custom", message: "at most 200 fields" });
  if (valueDepth(input) > MAX_JSON_DEPTH) {
    ctx.addIssue({ code: "custom", message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
  }
  for (const [key, max] of judged) {
    const value = input[key];
    if (typeof value === "string" && value.length > max) {
      ctx.addIssue({ code: "custom", path: [key], message: `longer than ${max} characters` });
    }
  }
});

/**
 * The content a command of the call that runs project code is pinned to (docs/policy.md "Causal grants"):
 * the companion reads the files; an exact grant covers the command only with the same pin.
 */
export const CausalPinWire = z.strictObject({
  /** The absolute directory the command runs in. */
  dir: z.string().max(MAX_PATH_CHARS),
  /** The runner: `npm-script:test`, `make::check`, `tool:tsc` (src/policy/causal-runners.ts). */
  key: z.string().min(1).max(300),
  pin: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * Earlier contents this machine pinned for the same command, newest first, each with what changed since
   * (lines `- was`, `+ now`): where a saved grant was pinned to one of them, the card shows that change.
   * Repository content, so redacted on the way in.
   */
  earlier: z
    .array(
      z.strictObject({
        pin: z.string().regex(/^[0-9a-f]{64}$/),
        changed: z.string().max(1000).transform(redactText),
      }),
    )
    .max(4)
    .optional(),
});
export type CausalPinWire = z.infer<typeof CausalPinWire>;

export const DecisionRequest = z.strictObject({
  call_id: WireId,
  session_id: WireId,
  agent: AgentIdentity,
  tool: WireId,
  input: ToolInput,
  cwd: z.string().max(MAX_PATH_CHARS).optional(),
  /** Set by a companion that already judged the call locally and is only asking a person. */
  local: z
    .strictObject({
      action: z.enum(["allow", "deny", "ask", "hidden"]),
      /** The companion's rule name: stored and shown, so redacted on the way in. */
      rule: z.string().max(500).transform(redactText).nullable(),
      capability: Capability,
      risk: Risk,
      /**
       * What the companion found on disk (a symlink to a secret, a hard link, another git repository) or
       * in fields no mapping knows: one line each. They only ever make the edge stricter (at least ask, no
       * allow grant covers the call), so a companion may state them for its own calls. Redacted on the way in.
       */
      facts: z.array(z.string().max(500).transform(redactText)).max(8).optional(),
    })
    .optional(),
  /**
   * The agent's own permission check asks about this call (its reason): the call goes to a person unless
   * Airlock denies it, whatever the policy or a grant would allow (src/policy/agent-check.ts). Shown, so redacted.
   */
  agent_asks: z.string().min(1).max(500).transform(redactText).optional(),
  /** The companion's policy is in `mode: sole` (Airlock is the agent's only judge): the card says so. */
  sole: z.literal(true).optional(),
  causal: z.array(CausalPinWire).max(16).optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequest>;

/** `abandoned`: the caller withdrew the call, or stopped waiting and did not come back before its hold lapsed. */
export const DecisionSource = z.enum([
  "policy",
  "grant",
  "session_grant",
  "user",
  "timeout",
  "emergency",
  "abandoned",
]);
export type DecisionSource = z.infer<typeof DecisionSource>;

export const DecisionResponse = z.object({
  call_id: z.string(),
  decision: z.enum(["allow", "deny"]),
  reason: z.string(),
  source: DecisionSource,
  prompt_id: z.string().optional(),
  rule: z.string().optional(),
  /** How the prompt was resolved, when a person (or the deadline) decided. */
  resolution: Resolution.optional(),
  /** The grant rules this answer created (allow_session / allow_always / deny_always), so the companion learns them. */
  grants: z
    .object({ scope: z.enum(["session", "always"]), rules: z.array(GrantRuleView).max(100) })
    .optional(),
});
export type DecisionResponse = z.infer<typeof DecisionResponse>;

/** 202 answer of `POST /v1/decisions?wait=false` while a person has not decided yet. */
export const DecisionPending = z.object({
  call_id: z.string(),
  status: z.literal("pending"),
  prompt_id: z.string(),
  /** When the prompt times out (ISO 8601); an answer after it is refused and the call is denied. */
  expires_at: z.string().optional(),
});
export type DecisionPending = z.infer<typeof DecisionPending>;
