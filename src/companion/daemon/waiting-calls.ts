// The hooks waiting inside the daemon for a call a person must decide: who waits, the policy record they asked
// with, and the daemon's own deadline for each call (in case the edge's timeout answer never arrives).
import type { DecisionRecord } from "../../policy/index.ts";
import type { CompanionDecision } from "../control/tool-call.ts";

interface Waiter {
  resolve: Array<(d: CompanionDecision) => void>;
  record: DecisionRecord | undefined;
  deadline?: NodeJS.Timeout;
}

export class WaitingCalls {
  readonly #waiters = new Map<string, Waiter>();
  readonly #onDeadline: (callId: string) => void;

  constructor(onDeadline: (callId: string) => void) {
    this.#onDeadline = onDeadline;
  }

  #entry(callId: string, record?: DecisionRecord): Waiter {
    const waiter = this.#waiters.get(callId) ?? { resolve: [], record };
    waiter.record ??= record;
    this.#waiters.set(callId, waiter);
    return waiter;
  }

  /** Resolves with the call's decision, whenever it is settled. */
  wait(callId: string, record?: DecisionRecord): Promise<CompanionDecision> {
    return new Promise((resolve) => this.#entry(callId, record).resolve.push(resolve));
  }

  /** Calls `onDeadline` at `deadline` (epoch ms) unless the call is settled first. */
  arm(callId: string, deadline: number): void {
    const waiter = this.#entry(callId);
    clearTimeout(waiter.deadline);
    waiter.deadline = setTimeout(() => this.#onDeadline(callId), Math.max(0, deadline - Date.now()));
    waiter.deadline.unref();
  }

  record(callId: string): DecisionRecord | undefined {
    return this.#waiters.get(callId)?.record;
  }

  /** Wakes everyone waiting for the call and forgets it. */
  settle(callId: string, decision: CompanionDecision): void {
    const waiter = this.#waiters.get(callId);
    this.#waiters.delete(callId);
    clearTimeout(waiter?.deadline);
    for (const resolve of waiter?.resolve ?? []) resolve(decision);
  }

  clear(): void {
    for (const waiter of this.#waiters.values()) clearTimeout(waiter.deadline);
  }
}
