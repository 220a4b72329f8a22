// Callers waiting in the hub for a call's answer (a waiting POST /v1/decisions, a long poll), in memory
// only. A wait never renews the call's hold: only the caller asking again does, so a caller that is gone
// (an edge restart, a dropped connection) lets the hold lapse.
import type { DecisionResponse } from "../../protocol/decisions.ts";

type Wake = (response: DecisionResponse) => void;

export class Waiters {
  private readonly byCall = new Map<string, Set<Wake>>();

  /**
   * Resolves with the call's answer, or undefined when `deadline` passes first (after `onDeadline` had a
   * chance to settle anything overdue).
   */
  wait(
    callId: string,
    deadline: number,
    onDeadline: () => Promise<DecisionResponse | undefined>,
  ): Promise<DecisionResponse | undefined> {
    return new Promise((resolve) => {
      const set = this.byCall.get(callId) ?? new Set<Wake>();
      this.byCall.set(callId, set);
      const finish = (response: DecisionResponse | undefined) => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && this.byCall.get(callId) === set) this.byCall.delete(callId);
        resolve(response);
      };
      const wake: Wake = (response) => finish(response);
      const timer = setTimeout(
        () => void onDeadline().then(finish, () => finish(undefined)),
        Math.max(0, deadline - Date.now()),
      );
      set.add(wake);
    });
  }

  wake(callId: string, response: DecisionResponse): void {
    for (const wake of [...(this.byCall.get(callId) ?? [])]) wake(response);
  }

  waiting(callId: string): boolean {
    return (this.byCall.get(callId)?.size ?? 0) > 0;
  }
}
