// The hub's single schedule: one alarm for every deadline the hub keeps (prompt expiry, lapsing holds,
// idle session grants, outbox retries, held answers' commit times, retention). Deadlines themselves come from policy/deadlines.ts.
import { CALL_RETENTION_MS } from "../../policy/index.ts";
import type { CallStore } from "./call-store.ts";
import type { Outbox } from "./outbox.ts";
import type { PromptStore } from "./prompt-store.ts";
import type { SessionGrants } from "./session-grants.ts";

/**
 * Deadlines this close are treated as due. workerd's clock only advances on I/O, so an alarm can run
 * with Date.now() a hair before the time it was set for; re-arming it for that same instant would let
 * the runtime drop it as already run.
 */
export const DUE_SLACK_MS = 25;

interface Sources {
  calls: CallStore;
  prompts: PromptStore;
  sessions: SessionGrants;
  outbox: Outbox;
  /** Answers held for their undo window: each settles at its commit-at time. */
  held: { next(): number | null };
  setAlarm: (at: number) => Promise<void>;
  /** Wakeups kept elsewhere (the conveyor's). */
  extraWake: () => number | null;
}

export class Schedule {
  private readonly sources: Sources;
  /** The alarm time this instance set (null: unknown, e.g. after a restart or once it fired). */
  private armedAt: number | null = null;

  constructor(sources: Sources) {
    this.sources = sources;
  }

  next(): number | null {
    const { calls, prompts, sessions, outbox, held, extraWake } = this.sources;
    const oldest = calls.oldestDecided();
    const candidates = [
      prompts.nextExpiry(),
      calls.nextHoldLapse(),
      sessions.nextIdleExpiry(),
      outbox.nextAttempt(),
      held.next(),
      oldest === null ? null : oldest + CALL_RETENTION_MS,
      extraWake(),
    ].filter((t): t is number => t !== null);
    return candidates.length ? Math.min(...candidates) : null;
  }

  /** Arms the alarm for the next deadline, unless an earlier alarm (which re-arms when it runs) is set. */
  async arm(now = Date.now()): Promise<void> {
    const next = this.next();
    if (next === null) return;
    const at = Math.max(next, now + DUE_SLACK_MS);
    if (this.armedAt !== null && this.armedAt > now && this.armedAt <= at) return;
    this.armedAt = at;
    await this.sources.setAlarm(at);
  }

  /**
   * Makes sure an alarm runs by `at` (a fresh outbox row's safety deadline) without reading the tables when
   * one already does: the common case of a decision answered at once.
   */
  async armBy(at: number, now = Date.now()): Promise<void> {
    if (this.armedAt !== null && this.armedAt > now && this.armedAt <= at) return;
    await this.arm(now);
  }

  /** The alarm fired: whatever is set now is unknown until the next arm. */
  fired(): void {
    this.armedAt = null;
  }
}
