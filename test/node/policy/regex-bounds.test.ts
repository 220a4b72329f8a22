// Policy patterns run on RE2 wherever a condition is evaluated: no shape or length limit but 8 KiB,
// and what RE2 cannot express is refused at load with its place in the file and what to write instead.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CelContext } from "../../../src/policy/cel.ts";
import { compileCondition } from "../../../src/policy/cel.ts";
import { compilePolicy } from "../../../src/policy/compile.ts";
import { linearPattern, MAX_PATTERN_CHARS } from "../../../src/policy/regex-bounds.ts";

const policy = (pattern: string) =>
  compilePolicy([
    {
      layer: "user",
      path: "p.yaml",
      text: `version: 1\ndefault_action: ask\nrules:\n  - name: r\n    condition: 'command.matches("${pattern}")'\n    action: deny\n`,
    },
  ]);

const ctx = (over: Partial<CelContext>): CelContext => ({
  tool: "bash",
  args: {},
  cwd: "/w",
  path: "",
  command: "",
  capability: "exec",
  risk: "low",
  agent: "pi",
  tool_source: "builtin",
  tool_scope: "",
  argv: [],
  words: [],
  prefixes: {},
  program: "",
  dir: "/w",
  dynamic: false,
  interactive: false,
  sensitive: false,
  recursive: false,
  glob: false,
  walked: false,
  destructive: false,
  effect: "",
  ...over,
});

describe("matches() patterns", () => {
  it.each([
    ["(a)\\\\1", "backreference"],
    ["(?=a)", "lookahead"],
    ["(?!a)b", "lookahead"],
    ["(?<=a)b", "lookbehind"],
    ["(?<!a)b", "lookbehind"],
    ["a++", "possessive"],
    ["(?>a)", "atomic"],
    ["(a{100}){100}", "at most 1000"],
    ["a\\\\Z", "write `$`"],
  ])("refuses %s at load, saying what to write instead (%s)", (pattern, hint) => {
    const result = policy(pattern);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error?.message).toContain(hint);
    expect(error?.line).toBe(5);
    // The column points into the pattern, past `condition: 'command.matches("`.
    expect(error?.column).toBeGreaterThan(32);
  });

  it("points at the refused piece of the pattern", () => {
    const result = policy("^git (status|log)(?!x)");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const line = "    condition: 'command.matches(\"^git (status|log)(?!x)\")'";
    expect(result.errors[0]?.column).toBe(line.indexOf("(?!x)") + 1);
  });

  it.each([
    "(a+)+$",
    "(a*)*b",
    "(x|xx)+y",
    "(ab|a){2,20}c",
    "^(bash|sh|zsh)( -[A-Za-z]+)*( -)?$",
    "^npm (test|run)( .*)?$",
    "^(.*/)?[^/]*\\\\.ts$",
    `^(${Array.from({ length: 60 }, (_, i) => `cmd${i}`).join("|")})( .*)?$`,
    "a".repeat(MAX_PATTERN_CHARS),
  ])("accepts %.60s (RE2 runs it in linear time)", (pattern) => {
    expect(policy(pattern).ok).toBe(true);
  });

  it("refuses a pattern over the size bound, naming the bound", () => {
    const result = policy("a".repeat(MAX_PATTERN_CHARS + 1));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.message).toContain(`${MAX_PATTERN_CHARS}`);
  });

  it("reports every refused pattern of a condition in one pass", () => {
    const c = compileCondition('command.matches("(?=a)") || path.matches("(b)\\\\1") || tool.matches("ok")');
    expect("evaluate" in c).toBe(false);
    if ("evaluate" in c) return;
    expect([c, ...(c.more ?? [])].map((e) => e.message)).toEqual([
      expect.stringContaining("lookahead"),
      expect.stringContaining("backreference"),
    ]);
  });

  it("a condition cel-js interprets runs its patterns on RE2 too (no backtracking blow-up)", () => {
    // `args.command` is dyn, so this condition is not on the fast path: cel-js evaluates it.
    const c = compileCondition('args.command.matches("^(a|aa)*$")');
    if (!("evaluate" in c)) throw new Error(c.message);
    // A backtracking RegExp takes ~2^40 steps here; RE2 answers in one pass.
    expect(c.evaluate(ctx({ args: { command: `${"a".repeat(80)}b` } }))).toBe(false);
    expect(c.evaluate(ctx({ args: { command: "a".repeat(80) } }))).toBe(true);
  });

  it("only the call is renamed for the engine: `matches` inside a string literal stays as written", () => {
    const c = compileCondition('args.command.matches("matches\\\\(") && args.command != ".matches("');
    if (!("evaluate" in c)) throw new Error(c.message);
    expect(c.evaluate(ctx({ args: { command: "x matches(" } }))).toBe(true);
    expect(c.evaluate(ctx({ args: { command: "x" } }))).toBe(false);
  });

  it("RE2 agrees with RegExp on every pattern both accept", () => {
    const atom = fc.constantFrom("a", "b", ".", "[ab]", "\\d", "x");
    const piece = fc.tuple(atom, fc.constantFrom("", "*", "+", "?", "{1,2}")).map(([a, q]) => a + q);
    const pattern = fc
      .array(
        fc.oneof(
          piece,
          piece.map((p) => `(${p})`),
          fc.tuple(piece, piece).map(([p, q]) => `(${p}|${q})`),
          fc.tuple(piece, piece).map(([p, q]) => `(${p}|${q})*`),
        ),
        { minLength: 1, maxLength: 5 },
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
});

describe("policy lint in one pass", () => {
  it("lists schema errors and condition errors of the same file together, top to bottom", () => {
    const text = [
      "version: 1",
      "default_action: maybe",
      "rules:",
      "  - name: a",
      "    condition: 'command.matches(\"(?=x)\")'",
      "    action: deny",
      "  - name: b",
      "    condition: 'tool ==='",
      "    action: allow",
      "    colour: red",
    ].join("\n");
    const result = compilePolicy([{ layer: "user", path: "p.yaml", text }]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.line)).toEqual([2, 5, 8, 10]);
    expect(result.errors[1]?.message).toContain("lookahead");
    expect(result.errors[2]?.rule).toBe("b");
  });
});
