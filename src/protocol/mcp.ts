// Remote MCP's wire shapes (docs/mcp.md): the OAuth scopes, the consent page's REST bodies, the connected
// clients list, and what a governed MCP tool call answers.
import { z } from "zod";
import { ProposalState } from "./conveyor.ts";

/**
 * What a person can grant an MCP client. `airlock:tools` is what any access needs (the tools, and the
 * status of the proposals they make); `airlock:approvals` also lets the client see what the person is
 * being asked (every pending approval of the account). Neither lets a client answer anything.
 */
export const MCP_SCOPES = {
  "airlock:tools":
    "Call Airlock's governed tools as you. Reads run when your policy allows; anything that writes or sends waits for your approval on this phone.",
  "airlock:approvals": "See what you are being asked to approve (every pending approval on your account).",
} as const;
export type McpScope = keyof typeof MCP_SCOPES;
export const McpScope = z.enum(Object.keys(MCP_SCOPES) as [McpScope, ...McpScope[]]);
export const REQUIRED_MCP_SCOPE: McpScope = "airlock:tools";

/** GET /v1/mcp/consent: the authorization request as the person is shown it, and the form's one-time handle. */
export const ConsentView = z.object({
  handle: z.string(),
  client: z.object({
    id: z.string(),
    /** Self-asserted for a dynamically registered client: shown as such. */
    name: z.string(),
    /** A metadata-document client's verified domain; absent for a dynamically registered one. */
    domain: z.string().nullable(),
    uri: z.string().nullable(),
  }),
  redirect_uri: z.string(),
  redirect_host: z.string(),
  /** Access goes to an app on this computer (localhost): the page warns. */
  redirect_is_loopback: z.boolean(),
  /**
   * Every scope the person can grant, the ones the client asked for marked `requested` (ticked at first). An
   * MCP client asks for the base scope its 401 names; the person may add the other, or untick any.
   */
  scopes: z.array(z.object({ name: McpScope, description: z.string(), requested: z.boolean() })),
  resource: z.string().nullable(),
});
export type ConsentView = z.infer<typeof ConsentView>;

/** POST /v1/mcp/consent: the person's answer. `scopes` is what they left ticked (approve only). */
export const ConsentAnswer = z.strictObject({
  handle: z.string().min(1).max(512),
  decision: z.enum(["approve", "deny"]),
  scopes: z.array(McpScope).max(10).default([]),
});
export type ConsentAnswer = z.infer<typeof ConsentAnswer>;

/** Where the browser goes next: back to the client with a code, or with error=access_denied. */
export const ConsentRedirect = z.object({ redirect_to: z.string() });

/** One authorization the person gave an MCP client (GET /v1/mcp/clients). */
export const McpClientGrant = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  scopes: z.array(z.string()),
  redirect_uri: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export type McpClientGrant = z.infer<typeof McpClientGrant>;
export const McpClientGrantList = z.object({ clients: z.array(McpClientGrant) });

/** What the token carries (encrypted in KV; ctx.props at /mcp): whose account, and which client. */
export const McpTokenProps = z.object({
  userId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
});
export type McpTokenProps = z.infer<typeof McpTokenProps>;

/** airlock.proposal_status's input: the proposal a tool call answered with, and how long to wait for it. */
export const ProposalStatusInput = z.strictObject({
  proposal_id: z.string().regex(/^prp_[A-Za-z0-9_-]{16}$/, "must be a proposal id (prp_…)"),
  /** Seconds to wait for the proposal to settle (decided and, if approved, run); 0 answers at once. */
  wait_s: z.number().int().min(0).max(50).default(0),
});

/** The structured result of every governed MCP tool call. */
export const McpCallOutcome = z.object({
  proposal_id: z.string(),
  tool: z.string(),
  state: ProposalState,
  /** The tool's result once EXECUTED; a failure's class and message once FAILED or PARTIAL. */
  result: z.unknown().optional(),
  failure: z.object({ class: z.string(), message: z.string() }).optional(),
  /** Why the gate answered as it did (a REJECTED call says why). */
  reason: z.string().nullable(),
});
export type McpCallOutcome = z.infer<typeof McpCallOutcome>;
