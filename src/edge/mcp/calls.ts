// What a remote MCP tool call becomes: a conveyor proposal on the person's UserHub, exactly as a hosted
// job's call (READ runs when the gate allows, anything else waits for the phone), and the decision tools.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ProposalView } from "../../protocol/conveyor.ts";
import {
  type McpCallOutcome,
  type McpTokenProps,
  ProposalStatusInput,
  REQUIRED_MCP_SCOPE,
} from "../../protocol/mcp.ts";
import { writeAuditBatch } from "../audit/audit-log.ts";
import * as store from "../conveyor/proposals.ts";
import { openDb } from "../db/client.ts";
import { ProposeResult } from "../hub/result.ts";
import { userHub } from "../hub/stub.ts";
import { fieldProblems } from "../middleware/validate.ts";

/** Who is calling: the person the token was issued to, the client it was issued for, and what it may do. */
export interface McpCaller {
  props: McpTokenProps;
  scopes: readonly string[];
}

/** How often a bounded wait looks at the proposal again (it settles on a person's tap, seconds away). */
const POLL_MS = 500;

const actorOf = (caller: McpCaller) => `mcp:${caller.props.clientId}`;

function outcomeOf(view: ProposalView): McpCallOutcome {
  const envelope = view.envelope;
  return {
    proposal_id: view.id,
    tool: view.tool,
    state: view.state,
    ...(envelope?.result === undefined ? {} : { result: envelope.result }),
    ...(envelope?.failure
      ? { failure: { class: envelope.failure.class, message: envelope.failure.message } }
      : {}),
    reason: view.gate_reason,
  };
}

/** The proposal as the MCP client reads it: a settled state's answer, or how to learn it later. */
export function resultOf(view: ProposalView): CallToolResult {
  const outcome = outcomeOf(view);
  const structuredContent = outcome as unknown as Record<string, unknown>;
  const text = (line: string, isError = false): CallToolResult => ({
    content: [{ type: "text", text: line }],
    structuredContent,
    ...(isError ? { isError: true } : {}),
  });
  const later = `Call airlock.proposal_status with {"proposal_id":"${view.id}","wait_s":50} for the outcome.`;
  switch (view.state) {
    case "EXECUTED":
      return text(JSON.stringify(outcome.result ?? null));
    case "PENDING":
      return text(
        `Proposal ${view.id} (${view.tool}) waits for the person's approval on their phone until ${view.expires_at}. ${later}`,
      );
    case "APPROVED":
      return text(`Proposal ${view.id} (${view.tool}) is approved and running. ${later}`);
    case "REJECTED":
      return text(`Refused: ${view.gate_reason ?? `decided by ${view.decided_by ?? "the person"}`}.`, true);
    case "EXPIRED":
      return text(`Proposal ${view.id} expired: nobody approved it in time; nothing ran.`, true);
    default:
      return text(
        `${view.tool} ${view.state.toLowerCase()}: ${outcome.failure?.message ?? "no detail"}.`,
        true,
      );
  }
}

const errorResult = (code: string, message: string, details?: unknown): CallToolResult => ({
  content: [
    {
      type: "text",
      text: `${code}: ${message}${details === undefined ? "" : ` ${JSON.stringify(details)}`}`,
    },
  ],
  structuredContent: { error: { code, message, ...(details === undefined ? {} : { details }) } },
  isError: true,
});

async function audit(env: Env, caller: McpCaller, tool: string, details: Record<string, unknown>) {
  await writeAuditBatch(openDb(env.DB), [
    {
      userId: caller.props.userId,
      actor: actorOf(caller),
      event: "mcp.tool_called",
      target: tool,
      details: { client_id: caller.props.clientId, client_name: caller.props.clientName, ...details },
    },
  ]);
}

/** A registry tool called over MCP: proposed to the conveyor with a fresh key, as the person. */
export async function callGovernedTool(
  env: Env,
  caller: McpCaller,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const hub = userHub(env, caller.props.userId);
  const proposed = ProposeResult.parse(
    await hub.propose(
      { userId: caller.props.userId, deviceId: null },
      {
        tool,
        identity: "user",
        args,
        // MCP has no idempotency key of its own: each tools/call is one new proposal.
        idempotency_key: `mcp-${crypto.randomUUID()}`,
        justification: `${caller.props.clientName} (an MCP client you connected) called ${tool}.`,
      },
      { kind: "mcp", ref: caller.props.clientId, actor: actorOf(caller) },
    ),
  );
  if (!proposed.ok) {
    await audit(env, caller, tool, { outcome: proposed.code });
    return errorResult(proposed.code, proposed.message, proposed.details);
  }
  const view = proposed.value.view;
  await audit(env, caller, tool, { outcome: view.state, proposal_id: view.id });
  return resultOf(view);
}

/** A proposal's state, waiting at most wait_s for it to settle; only the client's own without approvals scope. */
export async function proposalStatus(env: Env, caller: McpCaller, input: unknown): Promise<CallToolResult> {
  const parsed = ProposalStatusInput.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = fieldProblems(parsed.error);
    return errorResult("validation_failed", problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  }
  const { proposal_id, wait_s } = parsed.data;
  const db = openDb(env.DB);
  const mayReadAll = caller.scopes.includes("airlock:approvals");
  const deadline = Date.now() + wait_s * 1000;
  for (;;) {
    const row = await store.byId(db, caller.props.userId, proposal_id);
    const visible =
      row && (mayReadAll || (row.sourceKind === "mcp" && row.sourceRef === caller.props.clientId));
    if (!row || !visible) return errorResult("not_found", `No proposal ${proposal_id} made by this client.`);
    if (store.isSettled(row.state) || Date.now() + POLL_MS > deadline)
      return resultOf(store.proposalView(row));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What the person is being asked right now, narrowed to what a client needs to say "waiting on you". */
export async function pendingApprovals(env: Env, caller: McpCaller): Promise<CallToolResult> {
  const hub = userHub(env, caller.props.userId);
  const cards = await hub.approvals({ userId: caller.props.userId, deviceId: null }, "pending", 50);
  const approvals = cards.map((card) => ({
    prompt_id: card.promptId,
    agent: card.agent.name,
    capability: card.capability,
    risk: card.risk,
    justification: card.justification,
    proposal_id: card.proposal?.id ?? null,
    expires_at: card.expiresAt,
  }));
  return {
    content: [{ type: "text", text: JSON.stringify({ approvals }) }],
    structuredContent: { approvals },
  };
}

/** Which scope a tool needs: the decisions list is its own grant; everything else is the base scope. */
export function scopeFor(tool: string): string {
  return tool === "airlock.pending_approvals" ? "airlock:approvals" : REQUIRED_MCP_SCOPE;
}
