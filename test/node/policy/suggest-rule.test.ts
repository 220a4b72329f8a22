// Suggestions from history, the pure part: the rule for a repeated call, where it goes in the account
// policy, the diff a card shows; and the reason an ask is counted under.
import { describe, expect, it } from "vitest";
import { askReasonOf } from "../../../src/policy/ask-reason.ts";
import { compilePolicy, decide } from "../../../src/policy/index.ts";
import { lineDiff, policyWithRule, suggestRule } from "../../../src/policy/suggest-rule.ts";

describe("suggestRule", () => {
  it("names a command exactly, in its directory, and says what it does not pin", () => {
    const rule = suggestRule({ tool: "bash", subject: "npm test", cwd: "/work/repo" });
    expect(rule?.condition).toBe('tool == "bash" && command == "npm test" && dir == "/work/repo"');
    expect(rule?.yaml).toBe(
      '- name: Allow npm test\n  condition: tool == "bash" && command == "npm test" && dir == "/work/repo"\n  action: allow',
    );
    expect(rule?.explain.join(" ")).toContain("not pinned to the `test` script");
  });

  it.each([
    "cat $HOME/x",
    "ls | sh",
    "echo 'a b'",
    "git log; rm -rf ~",
    "ls\nrm x",
    "ls > out",
    "x".repeat(201),
  ])("never writes a rule for a command that is not plain words: %s", (subject) => {
    expect(suggestRule({ tool: "bash", subject, cwd: "/w" })).toBeNull();
  });

  it("names a file tool's path exactly; an unknown tool gets none", () => {
    expect(suggestRule({ tool: "read", subject: "/work/repo/README.md", cwd: null })?.condition).toBe(
      'tool == "read" && path == "/work/repo/README.md"',
    );
    expect(suggestRule({ tool: "read", subject: 'x" || true || "', cwd: null })).toBeNull();
    expect(suggestRule({ tool: "mcp__github__create_issue", subject: "{}", cwd: null })).toBeNull();
  });
});

describe("policyWithRule", () => {
  const rule = suggestRule({ tool: "bash", subject: "git log", cwd: "/w" });
  if (rule === null) throw new Error("no rule");

  it("goes after the account's rules, before a trailing catch-all, keeping comments", () => {
    const before = [
      "version: 1",
      "default_action: ask",
      "rules:",
      "  # denies first",
      "  - name: no curl",
      '    condition: tool == "bash" && program == "curl"',
      "    action: deny",
      "  - default: ask",
      "",
    ].join("\n");
    const after = policyWithRule(before, rule) ?? "";
    expect(after).toContain("# denies first");
    const names = [...after.matchAll(/- (name: [^\n]+|default: ask)/g)].map((m) => m[1]);
    expect(names).toEqual(["name: no curl", "name: Allow git log", "default: ask"]);
    const compiled = compilePolicy([{ layer: "account", path: "account", text: after }]);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
    const judge = (command: string, cwd: string) =>
      decide(compiled.policy, { tool: "bash", input: { command }, cwd }, { hasUI: true }).action;
    expect(judge("git log", "/w")).toBe("allow");
    expect(judge("git log", "/elsewhere")).toBe("ask");
    expect(judge("git log -p", "/w")).toBe("ask");
  });

  it("starts a policy when there is none, and refuses one that is not a mapping", () => {
    expect(policyWithRule("", rule)).toContain("- name: Allow git log");
    expect(policyWithRule("- a\n- b\n", rule)).toBeNull();
  });

  it("the diff shows the added lines with context", () => {
    expect(lineDiff("a\nb\nc\nd", "a\nb\nX\nc\nd")).toBe("  a\n  b\n+ X\n  c\n  d");
  });
});

describe("askReasonOf", () => {
  const base = {
    reasons: ["`x`: ask — no rule matched"],
    risk: "low" as const,
    rule: null,
    justification: "j",
  };
  it.each([
    [
      {
        ...base,
        justification: "what it runs changed since it was allowed always: …",
        risk: "high" as const,
      },
      "causal_change",
    ],
    [
      { ...base, reasons: ["`foo` is not understood (foo has no grammar here)"], risk: "high" as const },
      "not_understood",
    ],
    [{ ...base, risk: "high" as const }, "high"],
    [base, "no_rule"],
    [{ ...base, rule: "Bash > ask before push" }, "rule"],
  ])("%# → %s", (record, reason) => {
    expect(askReasonOf(record)).toBe(reason);
  });
});
