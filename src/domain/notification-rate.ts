// How many notifications a person may get: one limit for the notify tool and the runtime's own
// (intervention requests, job reports), so a runaway job cannot flood a phone.

export const NOTIFY_PER_MINUTE = 5;
export const NOTIFY_PER_DAY = 100;

/** Whether one more notification may be sent, given how many were sent in the last minute and day. */
export function notificationAllowed(lastMinute: number, lastDay: number): boolean {
  return lastMinute < NOTIFY_PER_MINUTE && lastDay < NOTIFY_PER_DAY;
}
