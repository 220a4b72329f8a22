// What every agent adapter hands the companion (AgentToolCall) and what it gets back (CompanionDecision).
import { z } from "zod";
import { AgentIdentity } from "../../protocol/capability.ts";
import { CausalPinWire, DecisionSource } from "../../protocol/decisions.ts";

export const AgentToolCall = z.object({
  /** Stable per call (Claude Code's tool_use_id); a retry of the same call reuses it and gets the same answer. */
  callId: z.string().min(1).max(200),
  sessionId: z.string().min(1).max(200),
  agent: AgentIdentity,
  /** Canonical Pi tool name: read, write, edit, bash, grep, find, ls, webfetch, or any other tool's own name. */
  tool: z.string().min(1).max(200),
  input: z.record(z.string(), z.unknown()),
  cwd: z.string().min(1).max(4096),
  /**
   * The session's project directory when the agent reports it apart from `cwd` (Claude Code's
   * CLAUDE_PROJECT_DIR): a cwd its shell kept after a `cd` is judged inside this workspace, or not understood.
   */
  workspace: z.string().min(1).max(4096).optional(),
  /** The agent itself can show a prompt (the phone can always be asked when the edge is reachable). */
  hasUI: z.boolean(),
  /**
   * The session turned gating off (Pi's `/permissions off`): the local layers are skipped unless a layer
   * forbids it (`sessions.allow_ungated: false`); audit and emergency controls apply as ever.
   */
  ungated: z.boolean().optional(),
  /**
   * Set when the agent's own permission check asks about this call (Claude Code's PermissionRequest, Codex's
   * approval request): its reason. Such a call goes to a person unless Airlock denies it (src/policy/agent-check.ts).
   */
  agentAsks: z.string().min(1).max(500).optional(),
  /** Set by the companion (never by an adapter's own judgement) when the policy is in `mode: sole`: cards say so. */
  sole: z.literal(true).optional(),
  /** Set by the companion: the pins of the call's commands that run project code (sent to the edge with an ask). */
  causal: z.array(CausalPinWire).max(16).optional(),
});
export type AgentToolCall = z.infer<typeof AgentToolCall>;

/** The edge's decision sources, and the two only the companion answers with: no one could be asked, or it failed. */
export const DecisionSourceName = z.enum([...DecisionSource.options, "unavailable", "error"]);
export type DecisionSourceName = z.infer<typeof DecisionSourceName>;

/** The local policy's judgement, kept on the decision so adapters and audit can show why. */
export const DecisionRecordView = z.object({
  action: z.enum(["allow", "deny", "ask", "hidden"]),
  layer: z.string(),
  rule: z.string().nullable(),
  capability: z.enum(["read", "write", "exec", "http", "session", "ui", "tool"]),
  risk: z.enum(["low", "medium", "high"]),
  reasons: z.array(z.string()),
  scope: z.object({ kind: z.string(), summary: z.string(), group: z.string() }),
  scopeHash: z.string(),
  message: z.string().optional(),
  justification: z.string(),
  tool: z.string(),
});
export type DecisionRecordView = z.infer<typeof DecisionRecordView>;

export const CompanionDecision = z.object({
  decision: z.enum(["allow", "deny", "ask"]),
  /** One line a person (and the model) can act on. */
  reason: z.string(),
  source: DecisionSourceName,
  rule: z.string().optional(),
  promptId: z.string().optional(),
  record: DecisionRecordView.optional(),
  /** The policy file that made Airlock the agent's only judge (`mode: sole`): an allow then pre-approves. */
  sole: z.string().optional(),
});
export type CompanionDecision = z.infer<typeof CompanionDecision>;

export function denied(reason: string, source: DecisionSourceName = "error"): CompanionDecision {
  return { decision: "deny", reason, source };
}
