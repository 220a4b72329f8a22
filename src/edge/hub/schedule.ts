// The hub's single schedule: one alarm for every source of deadlines. The engine (prompt expiry, lapsing holds,
// idle session grants, outbox retries, held answers, retention), the conveyor (its wakeups) and the hosted runtime
// (due schedules) each register an AlarmSource; the alarm runs them in one loop and re-arms for the earliest.

/** Something that keeps deadlines on the hub's one alarm. */
export interface AlarmSource {
  /** Named in logs and tests. */
  readonly name: string;
  /** The earliest time the alarm must run for this source, or null when it waits for nothing. */
  nextWake(): number | null;
  /** The alarm fired: do what is due at `now`. */
  onAlarm(now: number): Promise<void>;
}

/**
 * How a source runs when the alarm fires. `inOrder` sources run one after another, in the order they were
 * registered (the conveyor's wakeups after the engine's deadlines, which may settle the same proposals first);
 * an `alongside` source starts at once beside them (the runtime's due schedules: the deadline work's D1 round
 * trips were measured in front of every wakeup's record).
 */
export type AlarmLane = "inOrder" | "alongside";

/**
 * Deadlines this close are treated as due. workerd's clock only advances on I/O, so an alarm can run
 * with Date.now() a hair before the time it was set for; re-arming it for that same instant would let
 * the runtime drop it as already run.
 */
export const DUE_SLACK_MS = 25;

export class Schedule {
  private readonly setAlarm: (at: number) => Promise<void>;
  private readonly sources: { source: AlarmSource; lane: AlarmLane }[] = [];
  /** The alarm time this instance set (null: unknown, e.g. after a restart or once it fired). */
  private armedAt: number | null = null;

  constructor(setAlarm: (at: number) => Promise<void>) {
    this.setAlarm = setAlarm;
  }

  register(source: AlarmSource, lane: AlarmLane = "inOrder"): void {
    this.sources.push({ source, lane });
  }

  next(): number | null {
    let next: number | null = null;
    for (const { source } of this.sources) {
      const at = source.nextWake();
      if (at !== null && (next === null || at < next)) next = at;
    }
    return next;
  }

  /**
   * The one alarm loop: every source's due work (each told the time it starts at), then the next alarm. A failure
   * in one source lets the others finish, then is thrown so the platform retries the alarm.
   */
  async run(): Promise<void> {
    const lane = (name: AlarmLane) => this.sources.filter((s) => s.lane === name).map((s) => s.source);
    const alongside = lane("alongside").map((source) => source.onAlarm(Date.now()));
    const inOrder = (async () => {
      for (const source of lane("inOrder")) await source.onAlarm(Date.now());
    })();
    const results = await Promise.allSettled([...alongside, inOrder]);
    for (const r of results) if (r.status === "rejected") throw r.reason;
    await this.arm();
  }

  /** Arms the alarm for the next deadline, unless an earlier alarm (which re-arms when it runs) is set. */
  async arm(now = Date.now()): Promise<void> {
    const next = this.next();
    if (next === null) return;
    const at = Math.max(next, now + DUE_SLACK_MS);
    if (this.armedAt !== null && this.armedAt > now && this.armedAt <= at) return;
    this.armedAt = at;
    await this.setAlarm(at);
  }

  /**
   * Makes sure an alarm runs by `at` (a fresh outbox row's safety deadline) without reading the tables when
   * one already does: the common case of a decision answered at once.
   */
  async armBy(at: number, now = Date.now()): Promise<void> {
    if (this.armedAt !== null && this.armedAt > now && this.armedAt <= at) return;
    await this.arm(now);
  }

  /**
   * A deadline went (the outbox drained, a run's backstop was withdrawn): if the alarm this instance set is now
   * earlier than every deadline left, it moves to the earliest of them, so the hub is not woken for nothing. Also
   * when its time has passed but it has not run (a busy machine delivers alarms late; once one runs, `fired`
   * makes its time unknown). An alarm whose time is unknown here, or with no deadline left to move to, stays as
   * it is (it runs once, finds nothing due).
   */
  async relax(now = Date.now()): Promise<void> {
    if (this.armedAt === null) return;
    const next = this.next();
    if (next === null) return;
    const at = Math.max(next, now + DUE_SLACK_MS);
    if (at <= this.armedAt) return;
    this.armedAt = at;
    await this.setAlarm(at);
  }

  /** The alarm fired: whatever is set now is unknown until the next arm. */
  fired(): void {
    this.armedAt = null;
  }
}
