// No policy pattern can hang the judge: for every pattern of the pi.hitl corpus and the classic
// catastrophic-backtracking shapes, matching 64 times more text costs at most a bounded multiple of 64
// times more (a backtracking engine is quadratic or exponential on these inputs).
//
// Measured robustly rather than by a wall-clock deadline: the two sizes are sampled in turn (so both see
// the same machine load) and each is timed as its fastest sample (interference only ever adds time);
// each sample repeats the match until it lasts long enough to read. The bound allows 16x over linear
// (re2js picks a different engine as the text grows, JIT, load); quadratic growth is 64x over linear. The harness is first
// shown to tell a quadratic RegExp from a linear one, so a pass means something.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { linearPattern } from "../../../src/policy/regex-bounds.ts";

const DIR = fileURLToPath(new URL("./pi-hitl-corpus/", import.meta.url));
const GROWTH = 64;
/** Linear is ~64x; quadratic is ~4096x. */
const MAX_RATIO = GROWTH * 16;
const BASE_UNITS = 128;

/** Every `x.matches("…")` pattern of the corpus's conditions, as the CEL string literal reads. */
function corpusPatterns(): string[] {
  const out = new Set<string>();
  const walk = (rules: unknown) => {
    if (!Array.isArray(rules)) return;
    for (const rule of rules as { condition?: unknown; rules?: unknown }[]) {
      if (typeof rule.condition === "string") {
        for (const m of rule.condition.matchAll(/\.matches\(\s*"((?:[^"\\]|\\.)*)"\s*\)/g))
          out.add(JSON.parse(`"${m[1]}"`) as string);
      }
      walk(rule.rules);
    }
  };
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".yaml")))
    walk((parse(readFileSync(`${DIR}${file}`, "utf8")) as { rules?: unknown }).rules);
  return [...out];
}

/** Shapes that make a backtracking engine exponential or quadratic. */
const ADVERSARIAL = [
  "^(a|aa)*$",
  "(a+)+b",
  "^(a*)*$",
  "(x+x+)+y",
  "^(\\w+\\s?)*$",
  "^([a-z]+-?)*[a-z]+!$",
  "\\s+$",
  "(.*a){12}",
  "^(bash|sh|zsh)( -[A-Za-z]+)*( -)?$",
];

/** One timing of `fn` repeated `reps` times, in ms. */
function timed(fn: () => void, reps: number): number {
  const start = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return performance.now() - start;
}

/** How much longer matching takes on GROWTH times the text. */
function growth(
  test: (text: string) => unknown,
  text: (units: number) => string,
  { base = BASE_UNITS, maxReps = 1 << 14 } = {},
): number {
  const small = text(base);
  const large = text(base * GROWTH);
  test(small);
  test(large);
  // Enough repetitions that the small input's sample lasts ~0.5 ms (a timer reads it well).
  let reps = 1;
  while (reps < maxReps && timed(() => test(small), reps) < 0.5) reps *= 2;
  let t1 = Number.POSITIVE_INFINITY;
  let tn = Number.POSITIVE_INFINITY;
  for (let s = 0; s < 5; s++) {
    t1 = Math.min(
      t1,
      timed(() => test(small), reps),
    );
    tn = Math.min(
      tn,
      timed(() => test(large), reps),
    );
    // Far past any bound already: more samples cannot bring it back, only take longer.
    if (tn > t1 * MAX_RATIO * 4) break;
  }
  return tn / Math.max(t1, 1e-3);
}

const patterns = [...corpusPatterns(), ...ADVERSARIAL];

describe("policy patterns take linear time", () => {
  it("the corpus has the patterns this measures", () => {
    expect(corpusPatterns().length).toBeGreaterThan(20);
    expect(corpusPatterns().some((p) => p.length > 1000)).toBe(true);
  });

  it("the measure tells quadratic growth from linear (a backtracking RegExp on a trailing-space trim)", () => {
    const quadratic = /\s+$/;
    const ratio = growth(
      (s) => quadratic.test(s),
      (n) => `${" ".repeat(n)}x`,
      // Few repetitions: the large input alone takes milliseconds per match.
      { base: 64, maxReps: 16 },
    );
    expect(ratio).toBeGreaterThan(MAX_RATIO);
  });

  it.each(patterns.map((p) => [p.length > 60 ? `${p.slice(0, 60)}…` : p, p]))(
    "%s: 64x the text costs at most 1024x the time, whatever the text",
    (_label, pattern) => {
      const compiled = linearPattern(pattern);
      if (!compiled.ok) throw new Error(compiled.message);
      const prefixes = ["", "a", "bash", "git push", "npm ", "curl", "https://", "mcp__github__", "x"];
      const alphabet = fc.constantFrom(..."aab -x/_.:=|!\t".split(""));
      fc.assert(
        fc.property(
          fc.constantFrom(...prefixes),
          fc.string({ unit: alphabet, minLength: 1, maxLength: 4 }),
          fc.constantFrom("", "!", "b", "\n"),
          (prefix, unit, suffix) => {
            const ratio = growth(compiled.test, (n) => `${prefix}${unit.repeat(n)}${suffix}`);
            expect(ratio, JSON.stringify(prefix + unit)).toBeLessThan(MAX_RATIO);
          },
        ),
        { numRuns: 2 },
      );
    },
  );

  it("every adversarial shape meets its worst input in linear time", () => {
    const worst: [string, (n: number) => string][] = [
      ["^(a|aa)*$", (n) => `${"a".repeat(n)}b`],
      ["(a+)+b", (n) => "a".repeat(n)],
      ["^(a*)*$", (n) => `${"a".repeat(n)}!`],
      ["(x+x+)+y", (n) => "x".repeat(n)],
      ["^(\\w+\\s?)*$", (n) => `${"ab ".repeat(n)}!`],
      ["\\s+$", (n) => `${" ".repeat(n)}x`],
      ["(.*a){12}", (n) => "b".repeat(n)],
      ["^(bash|sh|zsh)( -[A-Za-z]+)*( -)?$", (n) => `bash${" -x".repeat(n)}!`],
    ];
    for (const [pattern, text] of worst) {
      const compiled = linearPattern(pattern);
      if (!compiled.ok) throw new Error(compiled.message);
      expect(growth(compiled.test, text), pattern).toBeLessThan(MAX_RATIO);
    }
  });
});
