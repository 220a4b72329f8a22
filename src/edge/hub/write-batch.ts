// Immediate answers under load commit together: each storage commit costs the same whether it holds one
// decided call or fifty, so when decisions arrive back to back their writes share one transaction (one
// commit) a moment later. A decision on its own writes at once and waits for nothing.
import type { DecisionResponse } from "../../protocol/decisions.ts";

/** Decisions this close to the previous one are under load: they join a batch. */
const BACK_TO_BACK_MS = 2;

interface Pending {
  fingerprint: string;
  response: DecisionResponse;
}

export class WriteBatch {
  private readonly transaction: <T>(fn: () => T) => T;
  private writes: (() => void)[] = [];
  private done: Promise<void> | undefined;
  /** Calls decided but not written yet, so a repeated call_id is recognised meanwhile. */
  private readonly unwritten = new Map<string, Pending>();
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(transaction: <T>(fn: () => T) => T) {
    this.transaction = transaction;
  }

  pending(callId: string): Pending | undefined {
    return this.unwritten.get(callId);
  }

  /** Resolves once `write` has run in a transaction (the platform holds the answer until it is durable). */
  write(callId: string, pending: Pending, write: () => void, now = Date.now()): Promise<void> {
    const backToBack = now - this.lastWriteAt < BACK_TO_BACK_MS;
    this.lastWriteAt = now;
    if (!backToBack && !this.done) {
      this.transaction(write);
      return Promise.resolve();
    }
    this.unwritten.set(callId, pending);
    this.writes.push(() => {
      write();
      this.unwritten.delete(callId);
    });
    this.done ??= new Promise((resolve, reject) =>
      setTimeout(() => {
        const writes = this.writes;
        this.writes = [];
        this.done = undefined;
        try {
          this.transaction(() => {
            for (const w of writes) w();
          });
          resolve();
        } catch (error) {
          this.unwritten.clear();
          reject(error);
        }
      }, 0),
    );
    return this.done;
  }
}
