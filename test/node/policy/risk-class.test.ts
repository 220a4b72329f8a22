// Risk classes: the capability/risk → class table, and approvalCovers: what was approved at one risk class covers a run judged again at run time only when the run's
// class is not higher (a WRITE approval never covers EXFILTRATION; an EXFILTRATION approval covers a WRITE).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approvalCovers,
  higherClass,
  isRiskClass,
  type RiskClass,
  riskClassOf,
} from "../../../src/policy/risk-class.ts";

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

describe("risk classes", () => {
  it.each([
    ["read", "read", "medium", "READ"],
    ["read", "read", "high", "EXFILTRATION"],
    ["write", "write", "high", "WRITE"],
    ["webfetch", "http", "medium", "EXFILTRATION"],
    ["bash", "exec", "high", "DESTRUCTIVE"],
    ["mcp__x__y", "tool", "medium", "WRITE"],
    ["deploy.prod", "tool", "medium", "HIGH"],
    ["ui.confirm", "ui", "low", "READ"],
  ] as const)("%s (%s/%s) → %s", (tool, capability, risk, expected) => {
    expect(riskClassOf(tool, capability, risk)).toBe(expected);
  });
});

describe("higherClass", () => {
  it("is the class an approval of the other would not cover, whichever comes first", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CLASSES), fc.constantFrom(...CLASSES), (a, b) => {
        const high = higherClass(a, b);
        expect(higherClass(b, a)).toBe(high);
        expect(approvalCovers(high, a) && approvalCovers(high, b)).toBe(true);
      }),
    );
  });
});
