// An ungated session (Pi's `/permissions off`): the local layers are skipped, everything else holds —
// account rules, emergency controls, audit — and any layer can forbid it.
import { describe, expect, it } from "vitest";
import type { AgentToolCall } from "../../../src/companion/control/tool-call.ts";
import { type DecideDeps, decideToolCall } from "../../../src/companion/deciding/decide.ts";
import type { AuditEvent } from "../../../src/companion/edge/client.ts";
import type { PolicyState } from "../../../src/companion/local-policy/load.ts";
import { compilePolicy, type PolicySource } from "../../../src/policy/index.ts";

const USER = `
default_action: deny
hidden_tools: [write]
rules:
  - name: no rm
    condition: tool == "bash" && command.startsWith("rm ")
    action: deny
`;
const ACCOUNT = `
rules:
  - name: no deploys
    condition: tool == "bash" && command.startsWith("./deploy")
    action: deny
`;
const FORBID = "sessions:\n  allow_ungated: false\n";

function state(...sources: PolicySource[]): PolicyState {
  const compiled = compilePolicy(sources);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return { ok: true, policy: compiled.policy, files: [], loadedAt: new Date().toISOString() };
}

const user = (text: string): PolicySource => ({ layer: "user", path: "/u/permissions.yaml", text });
const account = (text: string): PolicySource => ({ layer: "account", path: "account", text });

function bash(command: string, ungated: boolean): AgentToolCall {
  return {
    callId: `c-${command}`,
    sessionId: "pi-1",
    agent: { id: "pi", name: "Pi" },
    tool: "bash",
    input: { command },
    cwd: "/work/p",
    hasUI: true,
    ungated,
  };
}

function deps(policy: PolicyState, extra: Partial<DecideDeps> = {}): DecideDeps & { audited: AuditEvent[] } {
  const audited: AuditEvent[] = [];
  return { policy: () => policy, audit: (e) => audited.push(e), promptTimeoutMs: 1000, audited, ...extra };
}

describe("ungated sessions", () => {
  const policy = state(user(USER), account(ACCOUNT));

  it("skip the local layers, and the audit says the call was ungated", async () => {
    const gated = deps(policy);
    expect(await decideToolCall(bash("rm build.log", false), gated)).toMatchObject({ decision: "deny" });
    expect(gated.audited[0]?.ungated).toBeUndefined();
    const off = deps(policy);
    const out = await decideToolCall(bash("rm build.log", true), off);
    expect(out).toMatchObject({ decision: "allow", source: "policy" });
    expect(out.reason).toMatch(/permissions are off/);
    expect(off.audited).toEqual([
      expect.objectContaining({ ungated: true, action: "allow", session_id: "pi-1" }),
    ]);
  });

  it("skip the local layers' hidden tools too", async () => {
    const write = { ...bash("x", true), tool: "write", input: { path: "/work/p/a.txt", content: "x" } };
    expect(await decideToolCall({ ...write, ungated: false }, deps(policy))).toMatchObject({
      decision: "deny",
    });
    expect(await decideToolCall(write, deps(policy))).toMatchObject({ decision: "allow" });
  });

  it("still obey the account policy", async () => {
    const out = await decideToolCall(bash("./deploy prod", true), deps(policy));
    expect(out).toMatchObject({ decision: "deny", rule: "no deploys" });
  });

  it("still obey emergency controls", async () => {
    const d = deps(policy, {
      emergency: () => ({ readOnly: true, disableHighImpact: false, blockedTools: [] }),
    });
    const out = await decideToolCall(bash("rm build.log", true), d);
    expect(out).toMatchObject({ decision: "deny", source: "emergency" });
  });

  it.each([
    ["the account", state(user(USER), account(`${ACCOUNT}${FORBID}`))],
    ["the user's own file", state(user(`${USER}${FORBID}`), account(ACCOUNT))],
  ])(
    "are judged as any session when %s forbids them (sessions.allow_ungated: false)",
    async (_who, forbidden) => {
      expect(forbidden.ok && forbidden.policy.allowUngated).toBe(false);
      const d = deps(forbidden);
      expect(await decideToolCall(bash("rm build.log", true), d)).toMatchObject({
        decision: "deny",
        rule: "no rm",
      });
      expect(d.audited[0]?.ungated).toBeUndefined();
    },
  );

  it("an untrusted project can forbid them, and allow_ungated: true in one layer never overrides a false", () => {
    const project = (text: string): PolicySource => ({
      layer: "project",
      path: "/w/.pi/p.yaml",
      text,
      trusted: false,
    });
    const p = state(user(USER), project(FORBID), account("sessions:\n  allow_ungated: true\n"));
    expect(p.ok && p.policy.allowUngated).toBe(false);
    expect(p.ok && p.policy.ungatedForbiddenBy).toBe("/w/.pi/p.yaml");
  });
});
