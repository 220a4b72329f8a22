// Reconnect delays: exponential from 0.5 s to a 10 s cap, with jitter so many phones don't reconnect in step.
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 10_000;

/**
 * Delay before reconnect attempt `attempt` (0 = first retry). `random` is in [0, 1); the delay lands in the upper
 * half of the exponential step ("equal jitter"), so it never collapses to zero and never exceeds the cap.
 */
export function reconnectDelay(attempt: number, random: number = Math.random()): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}
