// The stricter of Airlock and the agent's own check: an agent's ask never ends in an allow without a person,
// a deny stays a deny, and only the user's own files (or the account) can make Airlock the sole judge.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compilePolicy,
  type DecisionRecord,
  type GrantRule,
  grantUnitsOf,
  verdictOf,
  withAgentAsk,
} from "../../../src/policy/index.ts";
import type { SourceLayer } from "../../../src/policy/types.ts";

const record = (
  action: DecisionRecord["action"],
  layer: DecisionRecord["layer"] = "user",
): DecisionRecord => ({
  action,
  layer,
  rule: action === "ask" ? null : "r",
  capability: "exec",
  risk: "low",
  reasons: [],
  scope: { kind: "command", summary: "git status", group: "git" },
  scopeHash: "h",
  justification: "exec can run arbitrary commands",
  tool: "bash",
});

const allowGrant = (): GrantRule => {
  const [unit] = grantUnitsOf({ tool: "bash", input: { command: "git status" }, cwd: "/w" });
  return {
    id: "g1",
    agentId: "claude-code",
    capability: "exec",
    match: "exact",
    pattern: "git status",
    scopeHash: unit?.hash ?? null,
    versionRange: null,
    effect: "allow",
  };
};

function verdict(action: DecisionRecord["action"], grants: GrantRule[] = [], blocked = false) {
  return verdictOf({
    record: record(action),
    emergency: blocked ? { readOnly: false, disableHighImpact: false, blockedTools: ["bash"] } : undefined,
    agent: { id: "claude-code" },
    units: grantUnitsOf({ tool: "bash", input: { command: "git status" }, cwd: "/w" }),
    grants,
    sessionGrants: [],
  });
}

describe("withAgentAsk", () => {
  it.each([
    ["a policy allow", verdict("allow"), "ask"],
    ["an ask a saved grant would allow", verdict("ask", [allowGrant()]), "ask"],
    ["a plain ask", verdict("ask"), "ask"],
    ["a policy deny", verdict("deny"), "deny"],
    ["an emergency block of an allowed call", verdict("allow", [], true), "deny"],
  ])("%s with the agent asking becomes %s", (_name, v, expected) => {
    const out = withAgentAsk(v, "Claude Code", "its own permission check wants a person");
    expect(out.action).toBe(expected);
    if (out.action === "ask")
      expect(out.record.justification).toBe(
        "Claude Code asks about this: its own permission check wants a person",
      );
  });

  it("leaves the verdict alone when the agent did not ask", () => {
    const v = verdict("allow");
    expect(withAgentAsk(v, "Claude Code", undefined)).toBe(v);
  });

  it("never turns an agent's ask into an allow, whatever the policy, grants or emergency say", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("allow", "deny", "ask", "hidden") as fc.Arbitrary<DecisionRecord["action"]>,
        fc.boolean(),
        fc.boolean(),
        fc.string({ minLength: 1, maxLength: 50 }),
        (action, granted, blocked, reason) => {
          const v = verdict(action, granted ? [allowGrant()] : [], blocked);
          const out = withAgentAsk(v, "Codex", reason);
          expect(out.action).not.toBe("allow");
          if (v.action === "deny") expect(out.action).toBe("deny");
        },
      ),
    );
  });
});

describe("mode: sole", () => {
  const compile = (...files: [SourceLayer, string][]) => {
    const out = compilePolicy(
      files.map(([layer, text], i) => ({ layer, path: `/${layer}/${i}.yaml`, text, trusted: true })),
    );
    if (!out.ok) throw new Error(JSON.stringify(out.errors));
    return out.policy.soleFrom;
  };

  it("is off by default", () => {
    expect(compile(["user", "rules: []\n"])).toBeNull();
  });

  it("is on when the user's own file says so, naming the file", () => {
    expect(compile(["user", "mode: sole\n"])).toBe("/user/0.yaml");
    expect(compile(["account", "mode: sole\n"])).toBe("/account/0.yaml");
  });

  it("a project file, even a trusted one, cannot make Airlock the sole judge", () => {
    expect(compile(["user", "rules: []\n"], ["project", "mode: sole\n"])).toBeNull();
  });

  it("any file saying compose keeps the stricter mode", () => {
    expect(compile(["user", "mode: sole\n"], ["project", "mode: compose\n"])).toBeNull();
  });

  it("refuses any other mode", () => {
    const out = compilePolicy([{ layer: "user", path: "/u.yaml", text: "mode: trust-me\n" }]);
    expect(out.ok).toBe(false);
  });
});
