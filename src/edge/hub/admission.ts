// Admission control for the hub's companion traffic: token buckets per socket and per device, and the
// strikes that close a socket that keeps sending after it was told to wait. Pure (time is passed in),
// in memory: a hub that restarts starts everyone with a full bucket, which is what a reconnect gets too.
import { CLOSE_CODES } from "../../protocol/socket.ts";

export interface BucketSpec {
  /** Tokens added per second. */
  rate: number;
  /** Most tokens held: the burst a quiet client may send at once. */
  burst: number;
}

/**
 * Budgets. The daemon carries every agent session of a machine over one socket, a few calls a second
 * each, in bursts of parallel tool calls (a burst of 40 covers them). 50/s with bursts of 100 let a
 * reconnecting flood's admitted calls push the person's switch to 7 s (bench/approvals/flood-budget-
 * 50-100.json); 20/40 held it under 3 s on the same loaded machine. The approvals
 * bench drives 1,000+ grant hits a second from 50 sockets of one device, which these still admit. A call
 * that needs a person costs the hub milliseconds of CPU, so one socket's admitted rate stays a small
 * share of it; one socket flooding thousands of messages a second is held to that rate, then closed.
 */
export const BUDGETS = {
  socket: { rate: 20, burst: 40 },
  device: { rate: 1_500, burst: 1_500 },
  /** Refused messages a socket may send (its retry hints ignored) before it is closed. */
  strikes: { rate: 10, burst: 100 },
} as const satisfies Record<string, BucketSpec>;

export class TokenBucket {
  private tokens: number;
  private at: number;
  private readonly spec: BucketSpec;

  constructor(spec: BucketSpec, now: number) {
    this.spec = spec;
    this.tokens = spec.burst;
    this.at = now;
  }

  private refill(now: number): void {
    if (now > this.at) {
      this.tokens = Math.min(this.spec.burst, this.tokens + ((now - this.at) / 1000) * this.spec.rate);
      this.at = now;
    }
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Gives back a token taken by a check that then failed elsewhere (the device had none). */
  giveBack(): void {
    this.tokens = Math.min(this.spec.burst, this.tokens + 1);
  }

  /** How long until one token is there again. */
  waitMs(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.spec.rate) * 1000);
  }
}

export type Admitted =
  | { ok: true }
  /** Answer with a retry hint and keep the socket. */
  | { ok: false; retryAfterMs: number; scope: "socket" | "device" }
  /** The socket kept going: close it. */
  | { ok: false; close: { code: number; reason: string } };

interface SocketBudget {
  bucket: TokenBucket;
  strikes: TokenBucket;
}

/** A device closed for ignoring its budget may not reconnect for this long, doubling per repeat. */
export const PENALTY_MS = { first: 1_000, max: 60_000, forgiveAfter: 5 * 60_000 } as const;

export class Admission {
  private readonly sockets = new WeakMap<object, SocketBudget>();
  private readonly devices = new Map<string, TokenBucket>();
  private readonly penalties = new Map<string, { until: number; lastMs: number }>();
  private readonly budgets: typeof BUDGETS;

  constructor(budgets: typeof BUDGETS = BUDGETS) {
    this.budgets = budgets;
  }

  /** One companion message from `socket` (any object standing for it) of `deviceId`. */
  admitSocket(socket: object, deviceId: string, now: number): Admitted {
    const budget = this.budgetOf(socket, now);
    if (budget.bucket.take(now)) {
      const device = this.admitDevice(deviceId, now);
      if (device.ok) return device;
      budget.bucket.giveBack();
      return this.strikeBudget(budget, now, device);
    }
    return this.strikeBudget(budget, now, {
      ok: false,
      retryAfterMs: budget.bucket.waitMs(now),
      scope: "socket",
    });
  }

  /** One companion call that came over REST: the device's budget alone (each request is its own socket). */
  admitDevice(
    deviceId: string,
    now: number,
  ): { ok: true } | { ok: false; retryAfterMs: number; scope: "device" } {
    let bucket = this.devices.get(deviceId);
    if (!bucket) {
      bucket = new TokenBucket(this.budgets.device, now);
      this.devices.set(deviceId, bucket);
    }
    return bucket.take(now) ? { ok: true } : { ok: false, retryAfterMs: bucket.waitMs(now), scope: "device" };
  }

  private budgetOf(socket: object, now: number): SocketBudget {
    let budget = this.sockets.get(socket);
    if (!budget) {
      budget = {
        bucket: new TokenBucket(this.budgets.socket, now),
        strikes: new TokenBucket(this.budgets.strikes, now),
      };
      this.sockets.set(socket, budget);
    }
    return budget;
  }

  /**
   * A socket of this device was closed for ignoring its hints: the device stays out for a while, so a
   * flood that reconnects at once does not get a fresh burst every time.
   */
  penalize(deviceId: string, now: number): number {
    const prior = this.penalties.get(deviceId);
    const repeat = prior && now - prior.until < PENALTY_MS.forgiveAfter;
    const lastMs = repeat ? Math.min(PENALTY_MS.max, prior.lastMs * 2) : PENALTY_MS.first;
    this.penalties.set(deviceId, { until: now + lastMs, lastMs });
    return lastMs;
  }

  /** How long the device must still stay away (0: it may connect and send). */
  penaltyMs(deviceId: string, now: number): number {
    const penalty = this.penalties.get(deviceId);
    return penalty && penalty.until > now ? penalty.until - now : 0;
  }

  /** A revoked device's budget goes with it. */
  forget(deviceId: string): void {
    this.devices.delete(deviceId);
    this.penalties.delete(deviceId);
  }

  /** A message refused for another reason (its socket has too much waiting): a strike, with a hint. */
  strike(socket: object, now: number, retryAfterMs: number): Admitted {
    const budget = this.budgetOf(socket, now);
    return this.strikeBudget(budget, now, { ok: false, retryAfterMs, scope: "socket" });
  }

  private strikeBudget(
    budget: SocketBudget,
    now: number,
    refusal: { ok: false; retryAfterMs: number; scope: "socket" | "device" },
  ): Admitted {
    if (budget.strikes.take(now)) return refusal;
    return {
      ok: false,
      close: {
        code: refusal.scope === "socket" ? CLOSE_CODES.policy_violation : CLOSE_CODES.try_again_later,
        reason: "over the message budget; retry hints ignored",
      },
    };
  }
}
