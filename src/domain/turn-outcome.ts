// A turn's outcome is verified, never taken from the model's words (terminal safety spec §2 invariant 4,
// §7–8): derived from the execution envelopes of what the turn did. A FAILED effect fails the run, a
// PARTIAL one makes it partial, whatever the final message claims. Pure: no I/O.

export type VerifiedState = "succeeded" | "failed" | "partial";

/** One thing the turn did or asked for, as its record says. */
export interface TurnEffectRecord {
  /** What it was, as shown to the person ("HTTP POST https://deploy.example/…"). */
  what: string;
  /** A proposal's state (EXECUTED, FAILED, PARTIAL, REJECTED, EXPIRED, …) or an inline read's status. */
  state: string;
  /** A read runs inline; an effect is a proposal. Only effects decide the outcome. */
  kind: "effect" | "read";
  /** The envelope's failure class and message, or its verification detail. */
  detail?: string;
}

export interface VerifiedOutcome {
  state: VerifiedState;
  /** One line for the person, shown beside the model's final text. */
  summary: string;
}

const FAILED = new Set(["FAILED", "failed"]);
const PARTIAL = new Set(["PARTIAL", "partial"]);
const NOT_RUN = new Set(["REJECTED", "EXPIRED", "refused"]);

function describe(e: TurnEffectRecord): string {
  return `${e.what}: ${e.state}${e.detail ? ` (${e.detail})` : ""}`;
}

export function verifiedOutcome(records: readonly TurnEffectRecord[]): VerifiedOutcome {
  const effects = records.filter((r) => r.kind === "effect");
  const failed = effects.filter((e) => FAILED.has(e.state));
  const partial = effects.filter((e) => PARTIAL.has(e.state));
  const notRun = effects.filter((e) => NOT_RUN.has(e.state));
  const done = effects.filter((e) => e.state === "EXECUTED");
  const badReads = records.filter((r) => r.kind === "read" && (FAILED.has(r.state) || PARTIAL.has(r.state)));
  const state: VerifiedState = failed.length ? "failed" : partial.length ? "partial" : "succeeded";
  const parts: string[] = [];
  if (failed.length) parts.push(`failed: ${failed.map(describe).join("; ")}`);
  if (partial.length)
    parts.push(`may have happened in part (check by hand): ${partial.map(describe).join("; ")}`);
  if (done.length) parts.push(`executed and verified: ${done.map(describe).join("; ")}`);
  if (notRun.length) parts.push(`not run: ${notRun.map(describe).join("; ")}`);
  if (badReads.length) parts.push(`reads that failed: ${badReads.map(describe).join("; ")}`);
  if (effects.length === 0) parts.push("no action outside this conversation was taken");
  return { state, summary: `${state}. ${parts.join(". ")}.`.slice(0, 2000) };
}

/** The line appended to the final message, marked so nobody mistakes it for the model's words. */
export function outcomeLine(outcome: VerifiedOutcome): string {
  return `[Airlock verified] ${outcome.summary}`;
}
