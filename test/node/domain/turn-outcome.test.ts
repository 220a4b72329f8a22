// A turn's verified outcome (seed 001 §2 invariant 4, §8): from the records of what it did, never from
// the model's words.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type TurnEffectRecord, verifiedOutcome } from "../../../src/domain/turn-outcome.ts";

const effect = (state: string, detail?: string): TurnEffectRecord => ({
  kind: "effect",
  what: "HTTP POST https://deploy.example/start",
  state,
  ...(detail ? { detail } : {}),
});

describe("verifiedOutcome", () => {
  it.each<[string, TurnEffectRecord[], string]>([
    ["nothing done", [], "succeeded"],
    ["an executed effect", [effect("EXECUTED", "HTTP 201")], "succeeded"],
    ["a failed effect", [effect("EXECUTED"), effect("FAILED", "command_error: HTTP 500")], "failed"],
    ["a partial effect", [effect("PARTIAL", "partial_execution: no answer")], "partial"],
    ["failed wins over partial", [effect("PARTIAL"), effect("FAILED")], "failed"],
    ["a rejected effect did not run", [effect("REJECTED")], "succeeded"],
    [
      "a failed read does not fail the run",
      [{ kind: "read", what: "web.fetch", state: "failed" }],
      "succeeded",
    ],
  ])("%s", (_, records, state) => {
    expect(verifiedOutcome(records).state).toBe(state);
  });

  it("names what failed and what was not done", () => {
    const out = verifiedOutcome([effect("FAILED", "command_error: the target answered HTTP 500")]);
    expect(out.summary).toBe(
      "failed. failed: HTTP POST https://deploy.example/start: FAILED (command_error: the target answered HTTP 500).",
    );
    expect(verifiedOutcome([]).summary).toContain("no action outside this conversation was taken");
  });

  it("never says succeeded while any effect FAILED or is PARTIAL (property)", () => {
    const state = fc.constantFrom("EXECUTED", "FAILED", "PARTIAL", "REJECTED", "EXPIRED", "refused");
    fc.assert(
      fc.property(fc.array(state), (states) => {
        const out = verifiedOutcome(states.map((s) => effect(s)));
        const bad = states.some((s) => s === "FAILED" || s === "PARTIAL");
        return bad ? out.state !== "succeeded" : out.state === "succeeded";
      }),
    );
  });
});
