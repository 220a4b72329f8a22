// What a hosted turn may do with a call the model asked for (seed 003 §8): read inline, or propose, and when
// only a person may approve (taint, background jobs). The runtime asks these; it never decides on its own.
// When a turn must stop is src/domain/turn-budget.ts. Pure: no I/O.
import type { RiskClass } from "./risk-class.ts";

export interface TurnCallInput {
  /** The tool's risk class for these arguments (from the conveyor's registry). */
  riskClass: RiskClass;
  /** The effect leaves Airlock (a third party, a machine); internal tools (notify, memory) do not. */
  external: boolean;
  /**
   * What untrusted content (a web page, a webhook body, mail, an untrusted tool's output) sits in the
   * context the model planned from, or was read earlier in this step: its source, as the person would
   * recognise it ("https://…", "a webhook delivery"). Null when the context is clean.
   */
  taint: string | null;
  /** A job (no person watching) rather than a chat reply. */
  background: boolean;
}

export type TurnEffect =
  /** A read: runs inside the turn (still through emergency controls and the SSRF guard). */
  | { mode: "inline" }
  /**
   * Anything else is proposed to the conveyor. `personOnly` says why no saved grant or policy allow may
   * run it: then a person approves it, and the executor (not the turn) runs it.
   */
  | { mode: "propose"; personOnly: string | undefined };

/**
 * Seed 003 §8: external writes are proposals; a background job cannot execute an external write itself
 * (rule 2); while untrusted content is in the model's context — this turn's or an earlier turn's of the
 * thread — no external write runs on its authority (rule 5): grants stand in for the person in neither case.
 */
export function turnEffect(input: TurnCallInput): TurnEffect {
  if (input.riskClass === "READ") return { mode: "inline" };
  if (!input.external) return { mode: "propose", personOnly: undefined };
  if (input.taint !== null) return { mode: "propose", personOnly: taintReason(input.taint) };
  if (input.background)
    return { mode: "propose", personOnly: "background jobs only propose external writes" };
  return { mode: "propose", personOnly: undefined };
}

/** What the card says when tainted context is why a person must decide. */
export function taintReason(source: string): string {
  return `this thread read ${source} earlier, and that content is still in the model's context`;
}

/** One message of the model's context window, as far as taint goes. */
export interface ContextEntry {
  untrusted: boolean;
  /** Where the content came from, shown to the person: a URL, "a webhook delivery", a tool's name. */
  source: string;
}

/**
 * The taint of a context window: the source of its earliest untrusted message, or null. Taint belongs to
 * the context, not the turn: it lasts exactly as long as the content is in the window the model is sent.
 */
export function contextTaint(window: readonly ContextEntry[]): string | null {
  return window.find((e) => e.untrusted)?.source ?? null;
}
