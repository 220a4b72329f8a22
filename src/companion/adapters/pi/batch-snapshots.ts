// Futures served with a Pi call's decision (one request decides and serves), held from the call's `tool_call` until its
// execute. Pi prepares a call (tool_execution_start, then tool_call) and executes it either at once (sequential
// mode) or after preparing the rest of its batch, all at the same time (parallel mode). A result re-validated at
// decision time is the run's result only if no other call of the batch that could change it ran after that moment:
// one still running when the snapshot was taken, or one that started after, spoils it, and the execute asks the
// daemon again (re-validating then).
import type { FutureAnswer } from "../../control/protocol.ts";

/** Pi's built-in tools that only read: running one changes nothing another call's result depends on. */
const INERT = new Set(["read", "grep", "find", "ls"]);

export class BatchSnapshots {
  /** Calls that could change a result and have started but not ended (the call being prepared included). */
  readonly #running = new Set<string>();
  readonly #held = new Map<string, FutureAnswer>();

  /** Pi's `tool_execution_start`: a call that could write spoils every other call's snapshot. */
  started(toolCallId: string, toolName: string): void {
    if (INERT.has(toolName)) return;
    this.#running.add(toolCallId);
    for (const id of this.#held.keys()) if (id !== toolCallId) this.#held.delete(id);
  }

  /** Pi's `tool_execution_end`: the call is over (run, blocked or aborted); a snapshot it never used goes. */
  ended(toolCallId: string): void {
    this.#running.delete(toolCallId);
    this.#held.delete(toolCallId);
  }

  /** Keeps a future served with this call's allow, unless another writing call is running right now. */
  hold(toolCallId: string, future: FutureAnswer): void {
    for (const id of this.#running) if (id !== toolCallId) return;
    this.#held.set(toolCallId, future);
  }

  /** The held future for this call, once; undefined when there is none or it was spoiled. */
  take(toolCallId: string): FutureAnswer | undefined {
    const future = this.#held.get(toolCallId);
    this.#held.delete(toolCallId);
    return future;
  }
}
