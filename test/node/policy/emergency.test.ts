import { describe, expect, it } from "vitest";
import {
  applyEmergency,
  decide,
  type EmergencyControls,
  emergencyAuditEvents,
  NO_EMERGENCY,
} from "../../../src/policy/index.ts";
import { account, CWD, compile, user } from "./helpers.ts";

const allowAll = compile(
  user("default_action: allow\n"),
  account(`rules:\n  - name: acct allow\n    condition: "true"\n    action: allow\n`),
);
const run = (tool: string, input: Record<string, unknown>, emergency: EmergencyControls) =>
  decide(allowAll, { tool, input, cwd: CWD }, { hasUI: true, emergency, declaredHosts: ["x.test"] });

describe("emergency controls beat every rule", () => {
  const readOnly = { ...NO_EMERGENCY, readOnly: true };
  it.each([
    ["read", { path: "a" }, "allow"],
    ["grep", { pattern: "x" }, "allow"],
    ["write", { path: "a" }, "deny"],
    ["bash", { command: "ls" }, "deny"],
    ["webfetch", { url: "https://x.test" }, "deny"],
    ["mcp__x", {}, "deny"],
    ["ui.confirm", {}, "deny"],
  ] as const)("read-only: %s → %s", (tool, input, expected) => {
    expect(run(tool, input, readOnly).action).toBe(expected);
  });

  const noHigh = { ...NO_EMERGENCY, disableHighImpact: true };
  it.each([
    ["read", { path: "a" }, "allow"],
    ["read", { path: ".env" }, "deny"],
    ["bash", { command: "rm -rf build" }, "deny"],
    // Read-only commands are low risk (the rubric), so disabling high-impact calls leaves them.
    ["bash", { command: "ls" }, "allow"],
    ["webfetch", { url: "https://x.test" }, "allow"],
    ["webfetch", { url: "https://evil.test" }, "deny"],
  ] as const)("disable high-impact: %s %j → %s", (tool, input, expected) => {
    expect(run(tool, input, noHigh).action).toBe(expected);
  });

  it("blocks named tools and prefixes", () => {
    const e = { ...NO_EMERGENCY, blockedTools: ["deploy.prod", "mcp__github__*"] };
    expect(run("deploy.prod", {}, e)).toMatchObject({
      action: "deny",
      layer: "emergency",
      rule: "emergency: blocked tool",
    });
    expect(run("mcp__github__create_issue", {}, e).action).toBe("deny");
    expect(run("deploy.staging", {}, e).action).toBe("allow");
  });

  it("applyEmergency works on a bare record (the edge applies it after grants)", () => {
    const allowed = run("bash", { command: "ls" }, NO_EMERGENCY);
    expect(allowed.action).toBe("allow");
    const after = applyEmergency(allowed, { ...NO_EMERGENCY, readOnly: true });
    expect(after).toMatchObject({ action: "deny", layer: "emergency" });
    expect(after.reasons[0]).toMatch(/read-only/);
    expect(applyEmergency(allowed, NO_EMERGENCY)).toBe(allowed);
  });

  it("every change yields an audit event naming the control, the values and the actor", () => {
    const at = new Date("2026-01-02T03:04:05Z");
    const events = emergencyAuditEvents(
      NO_EMERGENCY,
      { readOnly: true, disableHighImpact: false, blockedTools: ["deploy.prod"] },
      "user:1",
      at,
    );
    expect(events).toEqual([
      {
        type: "emergency.changed",
        control: "readOnly",
        from: false,
        to: true,
        actor: "user:1",
        at: at.toISOString(),
      },
      {
        type: "emergency.changed",
        control: "blockedTools",
        from: [],
        to: ["deploy.prod"],
        actor: "user:1",
        at: at.toISOString(),
      },
    ]);
    expect(emergencyAuditEvents(NO_EMERGENCY, { ...NO_EMERGENCY }, "u", at)).toEqual([]);
  });
});
