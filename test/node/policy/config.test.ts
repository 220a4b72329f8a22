import { describe, expect, it } from "vitest";
import { compilePolicy, decide } from "../../../src/policy/index.ts";
import { ALLOWLIST, bash, CWD, call, compile, user } from "./helpers.ts";

describe("loading permissions files", () => {
  it("loads a pi.hitl config unchanged (block/confirm, default shorthand, timeout, tool_source)", () => {
    const policy = compile(
      user(`
version: 1
default_action: block
timeout: 5000
rules:
  - name: "Confirm bash commands"
    condition: 'tool == "bash"'
    action: confirm
    message: "Shell commands require manual approval"
  - name: "Allow within project"
    condition: 'path.startsWith(cwd) && tool_source != "evil"'
    action: allow
  - name: "Block outside project"
    condition: 'true'
    action: block
hidden_tools: [write]
`),
    );
    expect(bash(policy, "ls").action).toBe("ask");
    expect(bash(policy, "ls").message).toBe("Shell commands require manual approval");
    expect(call(policy, "read", { path: "src/x.ts" }).action).toBe("allow");
    expect(call(policy, "read", { path: "/etc/hosts" })).toMatchObject({
      action: "deny",
      rule: "Block outside project",
    });
    expect(call(policy, "write", { path: "a" }).action).toBe("hidden");
    expect(policy.confirmTimeoutMs).toBe(5000);
  });

  it("loads JSON with the same schema", () => {
    const result = compilePolicy([
      {
        layer: "user",
        path: "/p/permissions.json",
        text: JSON.stringify({
          version: 1,
          default_action: "allow",
          rules: [{ name: "no web", condition: 'tool == "webfetch"', action: "deny" }],
        }),
      },
    ]);
    expect(result.ok).toBe(true);
    if (result.ok) expect(call(result.policy, "webfetch", { url: "https://x.test" }).action).toBe("deny");
  });

  it("flattens nested rules: names joined with >, parent conditions AND-ed", () => {
    const policy = compile(
      user(`
default_action: deny
rules:
  - name: Outer
    condition: tool == "bash"
    rules:
      - name: Inner
        condition: command.startsWith("npm ")
        rules:
          - name: test
            condition: command == "npm test"
            action: allow
`),
    );
    expect(policy.local.rules.map((r) => r.name)).toEqual(["Outer > Inner > test"]);
    expect(bash(policy, "npm test")).toMatchObject({ action: "allow", rule: "Outer > Inner > test" });
    // The parent's condition still applies: the same command through another tool does not match.
    expect(call(policy, "mcp__x", { command: "npm test" }).action).toBe("deny");
  });

  it("the default: shorthand is a catch-all named Default, overridable", () => {
    const policy = compile(
      user(`
rules:
  - name: G
    condition: tool == "bash"
    rules:
      - default: allow
      - default: deny
        name: Named
`),
    );
    expect(bash(policy, "ls")).toMatchObject({ action: "allow", rule: "G > Default" });
    expect(policy.local.rules[1]?.name).toBe("G > Named");
  });

  it("matches CEL's in, contains, startsWith, matches and args access", () => {
    const policy = compile(
      user(`
default_action: deny
rules:
  - name: args
    condition: tool == "mcp__x" && args.n == 3 && "b" in args.tags && args.title.contains("ok")
    action: allow
  - name: agent
    condition: agent == "codex" && capability == "read" && risk == "low"
    action: allow
`),
    );
    expect(call(policy, "mcp__x", { n: 3, tags: ["a", "b"], title: "is ok" }).action).toBe("allow");
    expect(call(policy, "mcp__x", { n: 4, tags: ["a", "b"], title: "is ok" }).action).toBe("deny");
    const byAgent = (agentName: string) =>
      decide(
        policy,
        { tool: "read", input: { path: "README.md" }, cwd: CWD, agent: agentName },
        { hasUI: true },
      );
    expect(byAgent("codex").action).toBe("allow");
    expect(byAgent("claude").action).toBe("deny");
  });
});

describe("load errors are fail-closed and located", () => {
  const cases: { name: string; text: string; rule?: string; line?: number; message: RegExp }[] = [
    { name: "bad YAML", text: "rules:\n  - name: a\n   condition: [", line: 3, message: /invalid YAML/ },
    {
      name: "unknown top-level field",
      text: "version: 1\ndefault_acton: allow\n",
      line: 2,
      message: /default_acton/,
    },
    {
      name: "unknown rule field",
      text: "rules:\n  - name: Bash\n    condition: 'true'\n    rules:\n      - name: x\n        condition: 'true'\n        acton: allow\n",
      rule: "Bash > x",
      line: 7,
      message: /acton/,
    },
    {
      name: "bad action",
      text: "rules:\n  - name: a\n    condition: 'true'\n    action: maybe\n",
      rule: "a",
      line: 4,
      message: /action/,
    },
    {
      name: "CEL syntax error",
      text: "rules:\n  - name: ok\n    condition: 'true'\n    action: allow\n  - name: broken\n    condition: 'tool == '\n    action: deny\n",
      rule: "broken",
      line: 6,
      message: /bad condition/,
    },
    {
      name: "CEL unknown variable",
      text: "rules:\n  - name: typo\n    condition: 'tol == \"bash\"'\n    action: deny\n",
      rule: "typo",
      line: 3,
      message: /tol/,
    },
    {
      name: "CEL non-bool condition",
      text: "rules:\n  - name: str\n    condition: 'tool'\n    action: deny\n",
      rule: "str",
      message: /must be a bool/,
    },
    {
      name: "leaf without action",
      text: "rules:\n  - name: a\n    condition: 'true'\n",
      rule: "a",
      message: /needs an `action`/,
    },
    {
      name: "parent with action",
      text: "rules:\n  - name: p\n    condition: 'true'\n    action: allow\n    rules:\n      - default: deny\n",
      rule: "p",
      message: /cannot have an `action`/,
    },
    {
      name: "rule without name",
      text: "rules:\n  - condition: 'true'\n    action: allow\n",
      message: /needs a name/,
    },
    { name: "version 2", text: "version: 2\n", message: /version/ },
    { name: "not a mapping", text: "- a\n- b\n", message: /mapping/ },
  ];
  for (const c of cases) {
    it(`${c.name} names the file, rule and position`, () => {
      const result = compilePolicy([
        user(ALLOWLIST),
        { layer: "project", path: "/repo/.airlock/permissions.yaml", text: c.text },
      ]);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const err = result.errors[0];
      expect(err?.path).toBe("/repo/.airlock/permissions.yaml");
      expect(err?.message).toMatch(c.message);
      if (c.rule) expect(err?.rule).toBe(c.rule);
      if (c.line) expect(err?.line).toBe(c.line);
      // Fail-closed: no policy at all, not the good layer alone.
      expect("policy" in result).toBe(false);
    });
  }

  it("reports every error across every layer at once", () => {
    const result = compilePolicy([
      {
        layer: "user",
        path: "/u.yaml",
        text: "rules:\n  - name: a\n    condition: 'x =='\n    action: allow\n",
      },
      { layer: "project", path: "/p.yaml", text: "bogus: 1\n" },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.path).sort()).toEqual(["/p.yaml", "/u.yaml"]);
  });

  it("a condition that errors at run time never grants, but still restricts", () => {
    const policy = compile(
      user(`
default_action: ask
rules:
  - name: needs-timeout
    condition: tool == "mcp__a" && args.timeout > 10
    action: deny
  - name: allow-if-flag
    condition: tool == "mcp__b" && args.flag == true
    action: allow
`),
    );
    // args.timeout is missing: the deny rule applies (fail closed), the allow rule does not.
    expect(call(policy, "mcp__a", {}).action).toBe("deny");
    expect(call(policy, "mcp__b", {}).action).toBe("ask");
    expect(call(policy, "mcp__b", { flag: true }).action).toBe("allow");
  });
});
