// The hub's two lanes. The person's work (decisions, emergency switches, revoke, policy, grants) runs at
// once and pauses the companion lane while it runs; companions' calls wait their turn in per-device
// queues, served round-robin a few at a time, each queue bounded. A flood therefore queues behind
// itself, never in front of the person.

/** Companion work items running at once (they interleave at their awaits, as before the lanes). */
export const COMPANION_CONCURRENCY = 4;
/** Queued items per device beyond which a new one is refused (the bucket normally stops it sooner). */
export const MAX_QUEUED_PER_DEVICE = 256;

export class LaneFull extends Error {
  constructor(deviceId: string) {
    super(`device ${deviceId} has ${MAX_QUEUED_PER_DEVICE} calls waiting`);
  }
}

export class LaneDropped extends Error {
  constructor(reason: string) {
    super(reason);
  }
}

interface Item {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class HubLanes {
  private personActive = 0;
  private scheduled = false;
  private running = 0;
  /** Insertion order is the round-robin order; a device's entry goes to the back after each turn. */
  private readonly queues = new Map<string, Item[]>();

  /** Runs the person's work now; companion items do not start until it is done. */
  async person<T>(fn: () => Promise<T>): Promise<T> {
    this.personActive++;
    try {
      return await fn();
    } finally {
      this.personActive--;
      this.pump();
    }
  }

  /** Queues a companion's work; settles with its result, or rejects with LaneFull / LaneDropped. */
  companion<T>(deviceId: string, fn: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(deviceId) ?? [];
    if (queue.length >= MAX_QUEUED_PER_DEVICE) return Promise.reject(new LaneFull(deviceId));
    const done = new Promise<T>((resolve, reject) => {
      queue.push({ run: fn, resolve: resolve as (value: unknown) => void, reject });
    });
    this.queues.set(deviceId, queue);
    // An idle lane starts the item in this very event (no added latency for a quiet companion); a busy
    // one leaves it for a later turn.
    if (this.running === 0 && queue.length === 1) this.start();
    else this.pump();
    return done;
  }

  /** A revoked device: everything it queued is refused, not run. Returns how many were dropped. */
  drop(deviceId: string, reason: string): number {
    const queue = this.queues.get(deviceId);
    this.queues.delete(deviceId);
    for (const item of queue ?? []) item.reject(new LaneDropped(reason));
    return queue?.length ?? 0;
  }

  queued(deviceId?: string): number {
    if (deviceId !== undefined) return this.queues.get(deviceId)?.length ?? 0;
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private next(): Item | undefined {
    for (const [deviceId, queue] of this.queues) {
      const item = queue.shift();
      this.queues.delete(deviceId);
      if (queue.length > 0) this.queues.set(deviceId, queue);
      if (item) return item;
    }
    return undefined;
  }

  /**
   * Starts queued work on a later turn of the event loop, never inside the event that queued it: messages
   * already waiting to be delivered are read (and budgeted) first, instead of one per item's work.
   */
  private pump(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.start();
    }, 0);
  }

  private start(): void {
    while (this.personActive === 0 && this.running < COMPANION_CONCURRENCY) {
      const item = this.next();
      if (!item) return;
      this.running++;
      item
        .run()
        .then(item.resolve, item.reject)
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
