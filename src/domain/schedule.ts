// When a schedule runs: next run times in UTC for cron (croner, IANA zones), interval and one-shot `at`
// schedules, and the catch-up rule for runs missed while the hub was down. Pure: the clock is a parameter.
import { Cron } from "croner";

export type ScheduleSpec =
  | { kind: "cron"; cron: string; timezone: string }
  /** Runs at anchor + k × every (k ≥ 1): late firings never shift the grid (no drift). */
  | { kind: "interval"; everySeconds: number; anchor: number }
  | { kind: "at"; at: number };

/** A missed run is made up (once) if its time is at most this old when the hub gets to it. */
export const CATCH_UP_WINDOW_MS = 60 * 60 * 1000;
/** An `at` this far in the past when created is refused; closer than this it runs at once. */
export const AT_PAST_TOLERANCE_MS = 60 * 1000;
/** How many missed occurrences are walked to find the latest; past this they are counted as skipped. */
const MAX_WALK = 10_000;

export type SpecProblem = { field: "cron" | "timezone" | "at"; message: string };

/** Parses a cron expression (5 or 6 fields) in a zone; a problem names the field. */
export function cronProblem(cron: string, timezone: string): SpecProblem | null {
  try {
    new Cron(cron, { timezone, paused: true }).nextRun(new Date(0));
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /timezone/i.test(message)
      ? { field: "timezone", message: "not an IANA time zone" }
      : { field: "cron", message: `not a cron expression (${message.replace(/^CronPattern: /, "")})` };
  }
}

const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * An `at` as a UTC instant: RFC 3339 with an offset as written; a local date-time in `timezone`. A local
 * time inside a DST gap moves forward by the gap (02:30 on a spring-forward night is 03:30); one inside
 * the repeated hour is its first occurrence.
 */
export function parseAt(at: string, timezone: string): number | SpecProblem {
  if (OFFSET.test(at)) {
    const ms = Date.parse(at);
    return Number.isNaN(ms) ? { field: "at", message: "not an RFC 3339 date-time" } : ms;
  }
  if (!LOCAL.test(at))
    return { field: "at", message: "use RFC 3339 (2026-03-08T09:00:00Z) or a local date-time" };
  try {
    const next = new Cron(at, { timezone, paused: true }).nextRun(new Date(0));
    return next ? next.getTime() : { field: "at", message: "not a date-time" };
  } catch {
    return { field: "at", message: "not a date-time in that time zone" };
  }
}

/** The first run strictly after `after` (ms, UTC), or null when there is none. */
export function nextRunAfter(spec: ScheduleSpec, after: number): number | null {
  switch (spec.kind) {
    case "at":
      return spec.at > after ? spec.at : null;
    case "interval": {
      const every = spec.everySeconds * 1000;
      const k = after < spec.anchor ? 1 : Math.floor((after - spec.anchor) / every) + 1;
      return spec.anchor + k * every;
    }
    case "cron": {
      const next = new Cron(spec.cron, { timezone: spec.timezone, paused: true }).nextRun(new Date(after));
      return next ? next.getTime() : null;
    }
  }
}

export interface WakeupPlan {
  /** The occurrence to run now, or null (every missed one was too old). */
  run: number | null;
  /** Missed occurrences not run (coalesced into `run`, or past the catch-up window). */
  skipped: number;
  /** The schedule's next run after this wakeup, or null when it is done (`at`). */
  next: number | null;
}

/**
 * The catch-up rule, applied when the hub handles the wakeup due at `due` at time `now` (≥ due): of the
 * occurrences due by now, only the latest may run, and only if it is at most CATCH_UP_WINDOW_MS old; the
 * others are skipped (counted). So a hub that was down for a day runs a daily schedule once, and an
 * every-minute schedule once, not 1,440 times.
 */
export function planWakeup(spec: ScheduleSpec, due: number, now: number): WakeupPlan {
  let latest = due;
  let skipped = 0;
  if (spec.kind === "interval") {
    // Arithmetic, so a long outage of an every-minute schedule costs nothing to plan.
    const every = spec.everySeconds * 1000;
    const steps = Math.max(0, Math.floor((now - due) / every));
    latest = due + steps * every;
    skipped = steps;
  } else {
    let walked = 0;
    for (let t = nextRunAfter(spec, due); t !== null && t <= now; t = nextRunAfter(spec, t)) {
      latest = t;
      skipped++;
      // Past this many a cron schedule is far behind anyway: its latest occurrence is surely stale.
      if (++walked >= MAX_WALK) return { run: null, skipped: skipped + 1, next: nextRunAfter(spec, now) };
    }
  }
  const fresh = now - latest <= CATCH_UP_WINDOW_MS;
  return {
    run: fresh ? latest : null,
    skipped: fresh ? skipped : skipped + 1,
    next: nextRunAfter(spec, Math.max(now, latest)),
  };
}
