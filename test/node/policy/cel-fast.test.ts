// The direct translation of common condition shapes (cel.ts) must answer exactly as cel-js does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CelContext, type CompiledCondition, compileCondition } from "../../../src/policy/cel.ts";
import { decide } from "../../../src/policy/index.ts";
import { Lru } from "../../../src/policy/lru.ts";
import { CWD, compile, user } from "./helpers.ts";

const CONDITIONS = [
  'tool == "bash"',
  'tool == "read" && path.startsWith(cwd + "/dir1/")',
  'tool in ["bash", "x"] && command.matches("^rm")',
  'tool != "read" && !(path == cwd)',
  'command == "rm" || command.startsWith("rm ")',
  'command.matches("^(npm|pnpm) (test|run [a-z:-]+)$")',
  'command.matches("^svc1-[a-z]+ deploy")',
  'tool in ["write", "edit"] && path.startsWith(cwd + "/dir1/")',
  'path.startsWith(cwd + "/" + agent + "/")',
  'path.startsWith(cwd) && !path.contains("/.git/")',
  'path.endsWith(".env") || path.endsWith(".pem")',
  'cwd + "/x" == path',
  'path.startsWith("")',
  "true",
  "false || risk == capability",
  'program == "git" && !dynamic',
  "sensitive || (recursive && !glob)",
  "interactive && dir.startsWith(cwd)",
  // Not translated (left to cel-js), included to check the fallback is wired.
  'args.command == "x"',
  'size(command) > 3 ? true : tool == "x"',
];

function compiled(source: string, fast: boolean): CompiledCondition {
  const c = compileCondition(source, { fast });
  if (!("evaluate" in c)) throw new Error(c.message);
  return c;
}

function outcome(c: CompiledCondition, ctx: CelContext): string {
  try {
    return String(c.evaluate(ctx));
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

// Short strings over an alphabet that makes prefixes, suffixes and matches likely.
const piece = fc.constantFrom("", "/", "x", "dir1", ".env", "rm", " ", "npm", "run", "a", "/.git/", "-", "é");
const text = fc.array(piece, { maxLength: 6 }).map((ps) => ps.join(""));
const ctxArb = fc.record({
  tool: fc.oneof(fc.constantFrom("bash", "read", "write", "edit", "x"), text),
  cwd: fc.oneof(fc.constant("/p"), text),
  path: fc.oneof(fc.constantFrom("/p/dir1/a", "/p/.env", "/p/x/.git/y"), text),
  command: fc.oneof(fc.constantFrom("rm -rf /", "npm run test:unit", "svc1-api deploy", "rm"), text),
  capability: text,
  risk: text,
  agent: text,
  tool_source: text,
  tool_scope: text,
  args: fc.constant({ command: "x" } as Record<string, unknown>),
  argv: fc.constant([] as string[]),
  words: fc.constant([]),
  prefixes: fc.constant({} as Record<string, string>),
  program: fc.oneof(fc.constantFrom("git", "rm"), text),
  dir: fc.oneof(fc.constant("/p/x"), text),
  dynamic: fc.boolean(),
  interactive: fc.boolean(),
  sensitive: fc.boolean(),
  recursive: fc.boolean(),
  glob: fc.boolean(),
  walked: fc.boolean(),
  destructive: fc.boolean(),
  effect: fc.oneof(fc.constantFrom("read", "write", "run", ""), text),
});

describe("condition fast path", () => {
  it("agrees with cel-js on every condition and context", () => {
    const pairs = CONDITIONS.map((s) => [compiled(s, true), compiled(s, false)] as const);
    fc.assert(
      fc.property(ctxArb, (ctx) => {
        for (const [fast, slow] of pairs) {
          expect(outcome(fast, ctx), fast.source).toBe(outcome(slow, ctx));
          // What a candidate evaluates once the call's tool is known must agree as well.
          if (fast.toolIn?.has(ctx.tool)) expect(outcome(slow, ctx), fast.source).toBe("true");
          const rest = fast.toolAnd;
          if (rest?.tools.has(ctx.tool))
            expect(outcome({ ...fast, evaluate: rest.rest }, ctx), fast.source).toBe(outcome(slow, ctx));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("hands a context whose variable is not a string to cel-js", () => {
    const ctx = { tool: 1, path: "" } as unknown as CelContext;
    expect(outcome(compiled('tool == "bash"', true), ctx)).toBe(
      outcome(compiled('tool == "bash"', false), ctx),
    );
  });
});

describe("tool-only conditions", () => {
  it("are marked with the tools they admit, and nothing else is", () => {
    expect(compiled('tool == "bash"', true).toolIn).toEqual(new Set(["bash"]));
    expect(compiled('"read" == tool', true).toolIn).toEqual(new Set(["read"]));
    expect(compiled('tool in ["write", "edit"]', true).toolIn).toEqual(new Set(["write", "edit"]));
    for (const s of ['tool != "bash"', 'tool == "bash" && command == "x"', "tool == cwd", "true"])
      expect(compiled(s, true).toolIn, s).toBeUndefined();
    expect(compiled('tool == "bash" && command == "x"', true).toolAnd?.tools).toEqual(new Set(["bash"]));
    expect(compiled('command == "x" && tool == "bash"', true).toolAnd).toBeUndefined();
  });

  it("are skipped only for the tools they admit", () => {
    const p = compile(
      user(`
default_action: ask
rules:
  - name: Files
    condition: tool in ["write", "edit"]
    rules:
      - name: no etc
        condition: path.startsWith("/etc/")
        action: deny
  - name: etc reads
    condition: path.startsWith("/etc/")
    action: allow
`),
    );
    const call = (tool: string) => decide(p, { tool, input: { path: "/etc/x" }, cwd: CWD }, { hasUI: true });
    expect(call("write")).toMatchObject({ action: "deny", rule: "Files > no etc" });
    expect(call("edit")).toMatchObject({ action: "deny", rule: "Files > no etc" });
    expect(call("read")).toMatchObject({ action: "allow", rule: "etc reads" });
  });
});

describe("Lru", () => {
  it("keeps at least the max most recently used entries and at most twice as many", () => {
    const lru = new Lru<number, number>(4);
    for (let i = 0; i < 100; i++) {
      lru.set(i, i);
      lru.get(0); // keep 0 hot
      expect(lru.size).toBeLessThanOrEqual(8);
      for (let k = Math.max(1, i - 2); k <= i; k++) expect(lru.get(k)).toBe(k);
    }
    expect(lru.get(0)).toBe(0);
    expect(lru.get(50)).toBeUndefined();
  });
  it("overwrites and clears", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("a", 2);
    expect(lru.get("a")).toBe(2);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.get("a")).toBeUndefined();
  });
});
