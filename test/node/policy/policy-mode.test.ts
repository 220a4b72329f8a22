// Seed 004's policy modes: what an ask nothing else settled becomes, and who may set the mode.
import { describe, expect, it } from "vitest";
import {
  type DecisionRecord,
  decide,
  type GrantUnit,
  grantUnitsOf,
  NO_EMERGENCY,
  type PolicyMode,
  verdictOf,
} from "../../../src/policy/index.ts";
import { CWD, compile, project, user } from "./helpers.ts";

const ask = (risk: DecisionRecord["risk"]): DecisionRecord => ({
  action: "ask",
  layer: "default",
  rule: null,
  capability: "write",
  risk,
  reasons: [],
  scope: { kind: "path", summary: "src/a.ts", group: "src/**" },
  scopeHash: "a".repeat(64),
  justification: "write",
  tool: "write",
});

const EDIT = grantUnitsOf({ tool: "write", input: { path: "src/a.ts" }, cwd: CWD });
const verdict = (
  record: DecisionRecord,
  mode: PolicyMode,
  emergency = NO_EMERGENCY,
  units: GrantUnit[] = EDIT,
) => verdictOf({ record, emergency, agent: { id: "pi" }, units, grants: [], sessionGrants: [], mode });

describe("policy mode", () => {
  it.each<[PolicyMode, DecisionRecord["risk"], string, string | null]>([
    ["prompt", "medium", "ask", null],
    ["strict", "medium", "deny", "mode: strict"],
    ["strict", "high", "deny", "mode: strict"],
    ["permissive", "low", "allow", "mode: permissive"],
    ["permissive", "medium", "allow", "mode: permissive"],
    // No high-impact action without explicit confirmation (seed 001 §2): permissive still asks.
    ["permissive", "high", "ask", null],
  ])("%s mode turns a %s-risk ask into %s", (mode, risk, action, rule) => {
    const v = verdict(ask(risk), mode);
    expect(v.action).toBe(action);
    expect(v.record.rule).toBe(rule);
  });

  it("permissive never runs what a grant could not cover: a call not understood is medium, and still asks", () => {
    const policy = compile(user("default_action: ask\nmode: permissive\n"));
    const call = { tool: "bash", input: { command: "mytool --flag" }, cwd: CWD };
    const record = decide(policy, call, { hasUI: true });
    expect(record.risk).toBe("medium");
    const v = verdict(record, "permissive", NO_EMERGENCY, grantUnitsOf(call));
    expect(v.action).toBe("ask");
    expect(verdict(ask("low"), "permissive", NO_EMERGENCY, []).action).toBe("ask");
  });

  it("emergency controls and denies still win over permissive", () => {
    const denied = { ...ask("low"), action: "deny" as const, rule: "no writes" };
    expect(verdict(denied, "permissive").action).toBe("deny");
    expect(verdict(ask("low"), "permissive", { ...NO_EMERGENCY, readOnly: true }).action).toBe("deny");
  });

  it("is read from the config; an untrusted project may only make it stricter", () => {
    expect(compile(user("rules: []\n")).mode).toBe("prompt");
    expect(compile(user("mode: permissive\n")).mode).toBe("permissive");
    expect(compile(user("mode: strict\n"), project("mode: permissive\n", false)).mode).toBe("strict");
    expect(compile(user("mode: permissive\n"), project("mode: strict\n", false)).mode).toBe("strict");
    expect(compile(user("mode: strict\n"), project("mode: permissive\n", true)).mode).toBe("permissive");
  });
});
