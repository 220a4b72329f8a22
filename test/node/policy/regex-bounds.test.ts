// Policy regexes run on RE2 and are checked on load: no backtracking shapes, no backreferences or lookarounds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../../src/policy/compile.ts";
import { linearPattern, nestedRepetition } from "../../../src/policy/regex-bounds.ts";

const policy = (pattern: string) =>
  compilePolicy([
    {
      layer: "user",
      path: "p.yaml",
      text: `version: 1\ndefault_action: ask\nrules:\n  - name: r\n    condition: 'command.matches("${pattern}")'\n    action: deny\n`,
    },
  ]);

describe("matches() patterns", () => {
  it.each(["(a+)+$", "(a*)*b", "(x|xx)+y", "(ab|a){2,20}c", "(a)\\\\1", "(?=a)", "(?!a)b", "a".repeat(257)])(
    "refuses %s when the policy loads",
    (pattern) => {
      const result = policy(pattern);
      expect(result.ok).toBe(false);
    },
  );

  it.each([
    "^npm (test|run)( .*)?$",
    "^(.*/)?[^/]*\\\\.ts$",
    "^git (status|diff|log)\\\\b",
    "a{1,3}b",
    "(ab)+c",
  ])("accepts %s", (pattern) => {
    expect(policy(pattern).ok).toBe(true);
  });

  it("finds nested repetition only where a repeated group repeats or alternates", () => {
    expect(nestedRepetition("(a+)+")).toBeDefined();
    expect(nestedRepetition("(a|b)*")).toBeDefined();
    expect(nestedRepetition("(ab)+")).toBeUndefined();
    expect(nestedRepetition("(a+)?")).toBeUndefined();
    expect(nestedRepetition("[(a+)+]")).toBeUndefined();
    expect(nestedRepetition("\\(a+\\)+")).toBeUndefined();
  });

  it("RE2 agrees with RegExp on every pattern it accepts", () => {
    const atom = fc.constantFrom("a", "b", ".", "[ab]", "\\d", "x");
    const piece = fc.tuple(atom, fc.constantFrom("", "*", "+", "?", "{1,2}")).map(([a, q]) => a + q);
    const pattern = fc
      .array(
        fc.oneof(
          piece,
          piece.map((p) => `(${p})`),
          fc.tuple(piece, piece).map(([p, q]) => `(${p}|${q})`),
        ),
        {
          minLength: 1,
          maxLength: 5,
        },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(
        pattern,
        fc.string({ unit: fc.constantFrom("a", "b", "x", "1"), maxLength: 12 }),
        (p, s) => {
          const linear = linearPattern(p);
          if (!linear.ok) return;
          expect(linear.test(s)).toBe(new RegExp(p).test(s));
        },
      ),
    );
  });

  it("a backtracking-shaped subject costs RE2 one pass (no exception, right answer)", () => {
    const re = linearPattern("^(a|b)?a*a*a*c$");
    expect(re.ok && re.test(`${"a".repeat(30_000)}b`)).toBe(false);
  });
});
