// The same file tools under other agents' names (OpenCode's `glob` and `list`, Copilot's `view`), when
// such a call reaches Airlock without its agent's adapter (`airlock policy explain`, a direct caller):
// judged as Claude Code's Glob, LS and Read are, fields and secrets alike (red team, round 8: `glob` asked
// while `Glob` was allowed).
import { describe, expect, it } from "vitest";
import { starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { canonicalCalls, judgeCall } from "../../../src/policy/index.ts";
import { CWD, compile, user } from "./helpers.ts";

const STARTER = compile(user(starterPolicy("balanced")));
const judged = (tool: string, input: Record<string, unknown>) =>
  judgeCall(STARTER, { tool, input, cwd: CWD, home: "/home/dev" }, { hasUI: true }).record.action;

describe("tool names of the same class", () => {
  it("maps glob, list and view to find, ls and read", () => {
    expect(canonicalCalls("glob", { pattern: "src/*.js", path: "src" })).toEqual(
      canonicalCalls("Glob", { pattern: "src/*.js", path: "src" }),
    );
    expect(canonicalCalls("list", { path: "src" })[0]?.tool).toBe("ls");
    expect(canonicalCalls("view", { path: "README.md" })[0]).toEqual({
      tool: "read",
      input: { path: "README.md" },
      notUnderstood: [],
    });
  });

  it("answers each as its Claude Code twin does", () => {
    const pairs: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
      ["glob", { pattern: "src/*.js" }, "Glob", { pattern: "src/*.js" }],
      ["list", { path: "src" }, "LS", { path: "src" }],
      ["view", { path: "README.md" }, "Read", { file_path: "README.md" }],
      ["view", { path: ".env" }, "Read", { file_path: ".env" }],
      ["view", { path: "/home/dev/.ssh/id_rsa" }, "Read", { file_path: "/home/dev/.ssh/id_rsa" }],
    ];
    for (const [a, ai, b, bi] of pairs)
      expect(judged(a, ai), `${a} ${JSON.stringify(ai)}`).toBe(judged(b, bi));
    expect(judged("glob", { pattern: "src/*.js" })).toBe("allow");
    expect(judged("view", { path: ".env" })).toBe("deny");
  });

  it("keeps a field it does not know not understood", () => {
    expect(judged("glob", { pattern: "src/*.js", exclude: "x" })).toBe("ask");
    expect(judged("view", { path: "README.md", sudo: true })).toBe("ask");
  });
});

// Round 19: `airlock policy explain --tool grep` with Claude Code's own Grep fields said "not understood"
// while the hook, given `Grep`, allowed the call; the canonical grep and ls now know the same fields.
describe("the canonical grep and ls take Claude Code's Grep and LS fields", () => {
  const CLAUDE_FIELDS = {
    "-i": true,
    "-n": true,
    "-A": 2,
    "-B": 1,
    "-C": 3,
    head_limit: 20,
    offset: 5,
    output_mode: "content",
    multiline: true,
  };
  it.each([
    [{ pattern: "TODO", path: "src", glob: "*.ts", type: "ts", ...CLAUDE_FIELDS }, "allow"],
    [{ pattern: "TODO", path: ".env", ...CLAUDE_FIELDS }, "deny"],
    [{ pattern: "TODO", path: "/etc", ...CLAUDE_FIELDS }, "ask"],
  ])("grep %o is judged as Grep: %s", (input, action) => {
    expect(judged("grep", input)).toBe(action);
    expect(judged("Grep", input)).toBe(action);
  });

  it("ls with ignore is judged as LS", () => {
    expect(judged("ls", { path: "src", ignore: ["node_modules"] })).toBe("allow");
    expect(judged("LS", { path: "src", ignore: ["node_modules"] })).toBe("allow");
  });

  it("a field neither knows stays not understood", () => {
    expect(judged("grep", { pattern: "x", path: "src", "-i": true, follow: true })).toBe("ask");
    expect(judged("ls", { path: "src", ignore: ["x"], recursive: true })).toBe("ask");
  });
});
