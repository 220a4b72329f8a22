import { describe, expect, it } from "vitest";
import { validatePlan } from "../../../src/domain/plan.ts";

const step = (over: Record<string, unknown> = {}) => ({
  risk_level: "low",
  requires_confirmation: false,
  verification_plan: "check the output lists the file",
  tool: "read",
  description: "read the README",
  input: { path: "README.md" },
  ...over,
});

describe("validatePlan", () => {
  it("accepts a complete read-only plan", () => {
    expect(validatePlan([step(), step({ tool: "ls", input: {} })])).toEqual({
      ok: true,
      problems: [],
      category: "READ",
    });
  });

  it.each(["risk_level", "requires_confirmation", "verification_plan", "tool", "description"])(
    "rejects a step missing %s",
    (field) => {
      const s: Record<string, unknown> = step();
      delete s[field];
      const r = validatePlan([s]);
      expect(r.ok).toBe(false);
      expect(r.problems).toContainEqual({ step: 0, field, reason: `missing ${field}` });
    },
  );

  it("returns every problem at once", () => {
    const r = validatePlan([{ tool: "read" }, step({ description: "" }), "nope"]);
    expect(r.ok).toBe(false);
    const steps = new Set(r.problems.map((p) => p.step));
    expect(steps).toEqual(new Set([0, 1, 2]));
    expect(r.problems.filter((p) => p.step === 0)).toHaveLength(4);
  });

  it("rejects a tool outside the registry", () => {
    const r = validatePlan([step({ tool: "rm_everything" })]);
    expect(r.problems).toContainEqual(
      expect.objectContaining({
        step: 0,
        field: "tool",
        reason: expect.stringMatching(/not in the tool registry/),
      }),
    );
    expect(
      validatePlan([step({ tool: "deploy.prod", risk_level: "high", requires_confirmation: true })], {
        registry: ["deploy.prod"],
      }).ok,
    ).toBe(true);
  });

  it("rejects a declared risk below the computed risk, saying what to declare", () => {
    const r = validatePlan([step({ tool: "write", input: { path: "a.ts" }, risk_level: "low" })]);
    expect(r.problems).toContainEqual(
      expect.objectContaining({
        field: "risk_level",
        reason: expect.stringMatching(/below the computed medium.*declare medium/),
      }),
    );
    // A secret read is exfiltration: high.
    const secret = validatePlan([
      step({ input: { path: ".env" }, risk_level: "medium", requires_confirmation: true }),
    ]);
    expect(secret.category).toBe("EXFILTRATION");
    expect(secret.problems[0]?.reason).toMatch(/computed high/);
  });

  it("rejects a high-risk step that does not require confirmation", () => {
    const r = validatePlan([
      step({
        tool: "bash",
        input: { command: "rm -rf build" },
        risk_level: "high",
        requires_confirmation: false,
      }),
    ]);
    expect(r.problems).toContainEqual(
      expect.objectContaining({
        field: "requires_confirmation",
        reason: expect.stringMatching(/must set requires_confirmation: true/),
      }),
    );
    expect(r.category).toBe("DESTRUCTIVE");
  });

  it("a plan mixing categories takes the highest category's policy", () => {
    const r = validatePlan([
      step(),
      step({
        tool: "webfetch",
        input: { url: "https://x.test" },
        risk_level: "high",
        requires_confirmation: true,
      }),
    ]);
    expect(r.category).toBe("EXFILTRATION");
    // The read step now needs confirmation too.
    expect(r.problems).toEqual([expect.objectContaining({ step: 0, field: "requires_confirmation" })]);
  });

  it("rejects non-array plans and invalid enum values", () => {
    expect(validatePlan({}).ok).toBe(false);
    expect(validatePlan([]).ok).toBe(false);
    const r = validatePlan([step({ risk_level: "extreme", requires_confirmation: "yes" })]);
    expect(r.problems.map((p) => p.field)).toEqual(
      expect.arrayContaining(["risk_level", "requires_confirmation"]),
    );
  });
});
