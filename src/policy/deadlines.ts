// The one owner of time: every deadline Airlock keeps (prompt timeout, batch window, waits and their
// leases, session grant expiry, token TTL, confirmation tokens, retention, outbox retries) is computed
// here, so the companion, the hub and the routes never disagree about when something ends.

export const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Calls with the same prompt key that arrive this soon after a prompt opens join it (the card updates live). */
export const BATCH_WINDOW_MS = 250;
export const DEFAULT_PROMPT_TIMEOUT_MS = 30 * SECOND_MS;
export const MIN_PROMPT_TIMEOUT_MS = 1 * SECOND_MS;
export const MAX_PROMPT_TIMEOUT_MS = 10 * MINUTE_MS;
/** allow_session grants end with their session, or after this long without use. */
export const SESSION_GRANT_IDLE_MS = DAY_MS;
export const TOKEN_TTL_MS = 30 * DAY_MS;
/** A token used within this window of its expiry is renewed (sliding expiry). */
export const TOKEN_RENEW_WINDOW_MS = 7 * DAY_MS;
/** A high-risk approval's confirmation token is single use and lives this long. */
export const CONFIRMATION_TTL_MS = 60 * SECOND_MS;
/** Decided calls are remembered this long, so a retried call_id gets its first answer. */
export const CALL_RETENTION_MS = 7 * DAY_MS;
/**
 * A call submitted over REST is held this long from the caller's last request about it (a POST of the same
 * call, or a GET of its decision); a caller that stops asking lets the hold lapse and the call is abandoned.
 */
export const WAIT_LEASE_MS = 15 * SECOND_MS;
/** A waiting POST /v1/decisions answers within this long (202 if still pending): a long poll, not a hold. */
export const LONG_POLL_MS = 10 * SECOND_MS;
/** How long past a prompt's deadline an HTTP waiter holds on for the hub's own timeout answer. */
export const WAIT_GRACE_MS = 2 * SECOND_MS;
/** A companion whose socket dropped has this long to reconnect and resume its calls before they are abandoned. */
export const RECONNECT_GRACE_MS = 20 * SECOND_MS;
/** The companion waits this long past the prompt timeout for the edge's own timeout answer before denying. */
export const COMPANION_DEADLINE_MARGIN_MS = 10 * SECOND_MS;
const OUTBOX_RETRY_BASE_MS = 1 * SECOND_MS;
const OUTBOX_RETRY_MAX_MS = 5 * MINUTE_MS;

/** A configured prompt timeout, clamped to what Airlock supports; anything unusable falls back to the default. */
export function promptTimeoutMs(
  configured: number | undefined,
  fallback = DEFAULT_PROMPT_TIMEOUT_MS,
): number {
  const value =
    configured !== undefined && Number.isFinite(configured) && configured > 0 ? configured : fallback;
  return Math.min(MAX_PROMPT_TIMEOUT_MS, Math.max(MIN_PROMPT_TIMEOUT_MS, Math.round(value)));
}

export interface PromptDeadlines {
  createdAt: number;
  /** Calls with the same prompt key join the prompt until this instant. */
  joinUntil: number;
  /** No answer by this instant is `deny_timeout`; an answer after it is refused (`prompt_expired`). */
  expiresAt: number;
}

export function promptDeadlines(now: number, timeoutMs: number): PromptDeadlines {
  return { createdAt: now, joinUntil: now + BATCH_WINDOW_MS, expiresAt: now + timeoutMs };
}

export function canJoin(prompt: { joinUntil: number; expiresAt: number }, now: number): boolean {
  return now < prompt.joinUntil && now < prompt.expiresAt;
}

export function isExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}

/** How long a waiter (REST or socket) keeps waiting for a prompt's answer. */
export function waitDeadline(expiresAt: number): number {
  return expiresAt + WAIT_GRACE_MS;
}

export function waitLeaseUntil(now: number): number {
  return now + WAIT_LEASE_MS;
}

/** Until when one waiting POST waits: its long poll, or the prompt's deadline (plus grace) if sooner. */
export function longPollUntil(now: number, expiresAt: number): number {
  return Math.min(now + LONG_POLL_MS, waitDeadline(expiresAt));
}

export function reconnectGraceUntil(now: number): number {
  return now + RECONNECT_GRACE_MS;
}

export function sessionGrantExpiresAt(lastUsedAt: number): number {
  return lastUsedAt + SESSION_GRANT_IDLE_MS;
}

export function sessionGrantLive(lastUsedAt: number, now: number): boolean {
  return now < sessionGrantExpiresAt(lastUsedAt);
}

export function tokenExpiresAt(now: number): number {
  return now + TOKEN_TTL_MS;
}

export function tokenNeedsRenewal(expiresAt: number, now: number): boolean {
  return expiresAt - now < TOKEN_RENEW_WINDOW_MS;
}

export function confirmationExpiresAt(now: number): number {
  return now + CONFIRMATION_TTL_MS;
}

/** Decided calls and resolved prompts older than this are forgotten. */
export function retentionCutoff(now: number): number {
  return now - CALL_RETENTION_MS;
}

/** Exponential backoff for an outbox row that failed to reach D1: 1 s, 2 s, 4 s … at most 5 minutes. */
export function outboxRetryAt(now: number, attempts: number): number {
  return now + Math.min(OUTBOX_RETRY_MAX_MS, OUTBOX_RETRY_BASE_MS * 2 ** Math.min(attempts, 20));
}

/** When a companion stops waiting for the edge and denies locally (the edge answers first when reachable). */
export function companionWaitDeadline(now: number, timeoutMs: number): number {
  return now + timeoutMs + COMPANION_DEADLINE_MARGIN_MS;
}
