// The runtime's decision rules: what a turn may do with a call, and the gate's person-only verdict (seed 003 §8 rules 2 and 5).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextTaint, NO_EMERGENCY, proposalGate, turnEffect } from "../../../src/policy/index.ts";
import type { RiskClass } from "../../../src/policy/risk-class.ts";

describe("turnEffect", () => {
  it.each<[string, Parameters<typeof turnEffect>[0], ReturnType<typeof turnEffect>]>([
    [
      "a read runs inline",
      { riskClass: "READ", external: true, taint: "https://evil.example/page", background: true },
      { mode: "inline" },
    ],
    [
      "an internal write is a plain proposal",
      { riskClass: "WRITE", external: false, taint: "https://evil.example/page", background: true },
      { mode: "propose", personOnly: undefined },
    ],
    [
      "a chat write may ride a grant",
      { riskClass: "WRITE", external: true, taint: null, background: false },
      { mode: "propose", personOnly: undefined },
    ],
    [
      "a write after untrusted content needs a person",
      { riskClass: "WRITE", external: true, taint: "https://evil.example/page", background: false },
      {
        mode: "propose",
        personOnly:
          "this thread read https://evil.example/page earlier, and that content is still in the model's context",
      },
    ],
    [
      "a background job's write needs a person",
      { riskClass: "EXFILTRATION", external: true, taint: null, background: true },
      { mode: "propose", personOnly: "background jobs only propose external writes" },
    ],
  ])("%s", (_, input, expected) => {
    expect(turnEffect(input)).toEqual(expected);
  });

  it("never lets an external non-read of a tainted or background turn run on a grant (property)", () => {
    const cls = fc.constantFrom<RiskClass>("READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH");
    fc.assert(
      fc.property(
        cls,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (riskClass, external, tainted, background) => {
          const effect = turnEffect({
            riskClass,
            external,
            taint: tainted ? "a webhook delivery" : null,
            background,
          });
          if (riskClass === "READ") return effect.mode === "inline";
          if (effect.mode !== "propose") return false;
          const verdict = proposalGate({
            tool: "http.request",
            riskClass,
            external,
            grant: "allow",
            grantCoversHigh: true,
            untrustedSource: false,
            ...(effect.personOnly ? { personOnly: effect.personOnly } : {}),
            emergency: NO_EMERGENCY,
          });
          return !(external && (tainted || background)) || verdict.action === "ask";
        },
      ),
    );
  });
});

describe("contextTaint", () => {
  it("is the earliest untrusted message's source, or null for a clean window", () => {
    expect(contextTaint([])).toBeNull();
    expect(contextTaint([{ untrusted: false, source: "" }])).toBeNull();
    expect(
      contextTaint([
        { untrusted: false, source: "" },
        { untrusted: true, source: "https://a.example/" },
        { untrusted: true, source: "a webhook delivery" },
      ]),
    ).toBe("https://a.example/");
  });

  it("any untrusted message anywhere in the window taints it (property)", () => {
    const entry = fc.record({ untrusted: fc.boolean(), source: fc.string({ minLength: 1 }) });
    fc.assert(
      fc.property(fc.array(entry), (window) => {
        const taint = contextTaint(window);
        return window.some((e) => e.untrusted) ? taint !== null : taint === null;
      }),
    );
  });
});
