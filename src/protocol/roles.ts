// Who may do what: device roles, the one authority table every REST route and socket message consults.
import { z } from "zod";

/**
 * `companion`: the airlock daemon and hooks on a dev machine, whose token file the agent can read.
 * `approver`: a browser the person paired (the phone). Only approvers decide for the person.
 */
export const DeviceRole = z.enum(["companion", "approver"]);
export type DeviceRole = z.infer<typeof DeviceRole>;

/**
 * Every action a paired device can take, and the least role that may take it. An approver may do
 * everything a companion may. Routes name an action (see `apiRoute` in src/edge/routes/define.ts)
 * and socket messages map to one below; new routes (proposals, hooks, jobs, schedules, push,
 * passkeys) add their action here, so this table stays the whole answer to "who may do this".
 */
export const AUTHORITY = {
  /** Submit tool calls for a decision and wait for the answer. */
  submit_calls: "companion",
  /** Read the decision of a call, and resolved prompts (which scope the person chose). */
  read_decisions: "companion",
  /** End a session's allow_session grants early (only ever narrows what is allowed). */
  end_sessions: "companion",
  /** Report decisions the companion made locally, for the audit log. */
  report_local_decisions: "companion",
  /** Read the account policy and emergency controls (the daemon mirrors them). */
  read_policy: "companion",
  /**
   * Read the agent-call grants as bare matcher rules (the daemon caches them to decide offline): no
   * proposal or session grants, no who/when/which card. Listing grants is read_grants, approvers only.
   */
  sync_grant_rules: "companion",
  /** List the account's devices (doctor's token check). */
  read_devices: "companion",
  /** Report precognition counts (hits, misses, time saved) for the dashboard. */
  report_futures_stats: "companion",
  /** Open the hub websocket (what it may send there is decided per message). */
  connect: "companion",
  /** Propose side effects to the conveyor (the gate decides whether a person must approve). */
  propose_actions: "companion",
  /** Read proposals and their execution envelopes. */
  read_proposals: "companion",
  /** Run a proposal a person (or the policy) already approved, or join its run. */
  run_approved_proposals: "companion",
  /** Answer a companion.run the hub sent to this device, with the command's result. */
  answer_companion_runs: "companion",
  /** Pending prompts: what the person is being asked. */
  read_prompts: "approver",
  /** Approve, reject, confirm high risk. */
  answer_prompts: "approver",
  /** List every grant with who saved it, when, from which card, last use (the agent never sees this). */
  read_grants: "approver",
  /** Revoke grants of every kind. */
  manage_grants: "approver",
  /** Replace the account policy, change approval timing. */
  change_policy: "approver",
  /** Turn emergency controls on or off. */
  change_emergency: "approver",
  /** Revoke devices. */
  manage_devices: "approver",
  /** Mint pairing codes (of either role). */
  mint_pairing_codes: "approver",
  /** Mint a short-lived, read-only parity token (src/edge/auth/parity-token.ts) for the release gate. */
  mint_parity_tokens: "approver",
  /** Get a probe cookie with the session cookie's attributes (what the parity check compares across URLs). */
  probe_session_cookie: "companion",
  /** Read every companion's precognition counts. */
  read_futures_stats: "approver",
  /** Read and export the audit log. */
  read_audit: "approver",
  /** Rotate the recovery code, or use it up for one step-up where no passkey works (a new one replaces it). */
  manage_recovery: "approver",
  /** Webhook triggers, hosted jobs and schedules. */
  manage_hooks: "approver",
  manage_jobs: "approver",
  manage_schedules: "approver",
  /** Web Push subscriptions of this approver browser. */
  manage_notifications: "approver",
  /** Register, list and remove passkeys; the step-up assertion. */
  manage_passkeys: "approver",
  /** Validate a policy text or explain a sample call without saving or recording anything. */
  explain_policy: "companion",
  /**
   * The policy's numbers (asks per 100 calls by reason) and its suggestions (`airlock policy stats|suggest`
   * on the dev machine): commands the agent itself ran, and rules only an approver can add.
   */
  read_policy_insights: "companion",
  /** Chat with the hosted agent (its replies can propose effects, so it speaks for the person). */
  use_chat: "approver",
  /**
   * Notifications: intervention requests and job reports. Approver-only: they quote job results, which
   * can hold what the jobs read, and they are for the person, not for the agent on the dev machine.
   */
  read_notifications: "approver",
  /**
   * Remote MCP (docs/mcp.md): consent to an MCP client acting for the person (with the session cookie only,
   * never a bearer token), list the clients given access, revoke one.
   */
  manage_mcp_clients: "approver",
  /**
   * Connections to Google and GitHub (docs/connectors.md): list, connect, revoke. Approver-only: a connection
   * lets the assistant act as the person or its own account, and the agent on the dev machine must not add one.
   */
  read_connections: "approver",
  manage_connections: "approver",
} as const satisfies Record<string, DeviceRole>;
export type Action = keyof typeof AUTHORITY;

/**
 * The only actions a parity token may take: reads that change nothing (not even a grant's or a device's last use).
 * Everything else, answering a prompt, revoking, minting, any write, is refused with 403 read_only_token.
 */
export const PARITY_TOKEN_ACTIONS = [
  "read_audit",
  "read_devices",
  "read_policy",
  "read_grants",
  "read_prompts",
  "read_decisions",
  "probe_session_cookie",
] as const satisfies readonly Action[];

export function parityTokenMay(action: Action): boolean {
  return (PARITY_TOKEN_ACTIONS as readonly Action[]).includes(action);
}

export function mayAct(role: DeviceRole, action: Action): boolean {
  return AUTHORITY[action] === "companion" || role === "approver";
}

/**
 * Socket messages a client sends, and the action each needs; `null` means any connected device.
 * Keyed by every `ClientMessage` type (src/protocol/socket.ts), checked by a test.
 */
export const SOCKET_MESSAGE_AUTHORITY = {
  hello: null,
  ping: null,
  tool_request: "submit_calls",
  /** Only ever the sender's own calls, which it stops waiting for. */
  withdraw: "submit_calls",
  capability_decision: "answer_prompts",
  undo_decision: "answer_prompts",
  companion_run_result: "answer_companion_runs",
} as const satisfies Record<string, Action | null>;

/** Whether a socket of `role` may send a message of `type`; unknown types are refused. */
export function socketMessageAllowed(role: DeviceRole, type: string): boolean {
  if (!Object.hasOwn(SOCKET_MESSAGE_AUTHORITY, type)) return false;
  const action = SOCKET_MESSAGE_AUTHORITY[type as keyof typeof SOCKET_MESSAGE_AUTHORITY];
  return action === null || mayAct(role, action);
}

/** The message a refused caller gets: what it lacks and where to go instead. */
export function roleRefusal(role: DeviceRole, action: Action): string {
  const what = action.replaceAll("_", " ");
  if (action === "mint_pairing_codes") {
    return `Only an approver device may ${what}; this is a ${role} device. Mint the code on your phone (More → Devices → Pair another device), or pass the recovery code (POST /v1/recovery/pairing-code, airlock devices pair --recovery-code).`;
  }
  return `Only an approver device (the phone or browser you paired) may ${what}; this is a ${role} device.`;
}
