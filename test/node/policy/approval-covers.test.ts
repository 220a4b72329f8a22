// approvalCovers: what was approved at one risk class covers a run judged again at run time only when the run's
// class is not higher (a WRITE approval never covers EXFILTRATION; an EXFILTRATION approval covers a WRITE).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approvalCovers, isRiskClass, type RiskClass } from "../../../src/policy/plan.ts";

const CLASSES: RiskClass[] = ["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"];

describe("approvalCovers", () => {
  it.each([
    ["WRITE", "WRITE", true],
    ["EXFILTRATION", "WRITE", true],
    ["WRITE", "EXFILTRATION", false],
    ["READ", "WRITE", false],
    ["HIGH", "DESTRUCTIVE", true],
  ] as const)("approved %s, run %s → %s", (approved, actual, covers) => {
    expect(approvalCovers(approved, actual)).toBe(covers);
  });

  it("covers itself, and never both ways between two different classes", () => {
    const cls = fc.constantFrom(...CLASSES);
    fc.assert(
      fc.property(cls, cls, (a, b) => {
        expect(approvalCovers(a, a)).toBe(true);
        if (a !== b) expect(approvalCovers(a, b) && approvalCovers(b, a)).toBe(false);
      }),
    );
  });

  it("isRiskClass accepts exactly the five classes", () => {
    for (const c of CLASSES) expect(isRiskClass(c)).toBe(true);
    for (const x of ["", "write", "LOW", "HIGH "]) expect(isRiskClass(x)).toBe(false);
  });
});
