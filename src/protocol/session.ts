// The websocket session's rules, shared by the hub and both clients: close codes, timing, backoff, the sequence.
// No zod here on purpose: the dashboard's first view imports this (through session-client.ts) before its lazily
// loaded validators arrive, and socket.ts re-exports it beside the message schemas.
//
// The sequence (one socket at `/v1/connect`, authenticated before the upgrade: a Bearer token or the cookie):
// 1. client → `hello` on every open, with `resume`: the call ids it is still waiting on (a companion; the
//    dashboard waits on none). Resume means "this socket holds these calls again": the hub stops their grace
//    period and sends at once every `capability_decision` that was made while the link was down.
// 2. hub → `welcome` (role, device id, server time, emergency controls). The session is live from here.
// 3. hub → to an approver, every pending prompt as `capability_prompt` (the replay).
// 4. client → `ping` with id `sync` right after the welcome; its `pong` comes after the replay's last message,
//    so a prompt the client still shows and that was not replayed was settled while the link was down.
// 5. client → `ping` every PING_INTERVAL_MS; no message at all within PONG_DEADLINE_MS after one means the link
//    is half-open (a sleeping laptop, a phone that changed network): the client closes it and reconnects.
// Closes: the client reconnects with full-jitter backoff (backoffDelay) after any close except `revoked`.

/**
 * Close codes the hub uses (4000–4999 is the application range; 1009 is the standard "message too big").
 * Clients reconnect after any of them except `revoked`.
 */
export const CLOSE_CODES = {
  /** A message over MAX_SOCKET_MESSAGE_BYTES (src/protocol/limits.ts): the socket closes before it is parsed. */
  message_too_big: 1009,
  /** The hub lost this socket's identity (e.g. after an upgrade); reconnect. */
  lost_state: 1011,
  /** The socket kept sending over its message budget after retry hints: reconnect later, send less. */
  policy_violation: 1008,
  /** The device kept sending over its budget (across its sockets): reconnect after a pause. */
  try_again_later: 1013,
  /** The device was revoked: do not reconnect, pair again. */
  revoked: 4001,
  /** Sent by a client that drops its own socket to start over (half-open, offline, unreadable): reconnect. */
  client_restart: 4000,
} as const;

/** How often a live client pings the hub. */
export const PING_INTERVAL_MS = 15_000;
/** After a ping, how long the client waits for any message (a pong answers every ping) before it calls the link dead. */
export const PONG_DEADLINE_MS = 10_000;
/** How long an open may take (TCP, TLS, the upgrade) before the client gives up on it and tries again. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a request (a message with an id) waits for the hub's reply carrying that id. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** The id of the ping that marks the end of the hub's replay after a welcome. */
export const SYNC_PING_ID = "sync";

/** Reconnect delays: the first retry waits at least `minMs`, no retry waits more than `maxMs`. */
export const BACKOFF = { minMs: 250, maxMs: 10_000 } as const;

/**
 * Full-jitter exponential backoff, so many clients do not reconnect in step after an edge restart: the ceiling
 * doubles with each failed attempt (0-based) up to `maxMs`, and the delay is uniform between `minMs` and it.
 * `random` is in [0, 1).
 */
export function backoffDelay(attempt: number, random: number): number {
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.minMs * 2 ** (Math.max(0, attempt) + 1));
  return BACKOFF.minMs + random * (ceiling - BACKOFF.minMs);
}
