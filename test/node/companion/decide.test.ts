// The decision core with the real policy engine: local allow/deny/hidden, emergency, grants, a person, fail closed.
import { describe, expect, it } from "vitest";
import type { AgentToolCall } from "../../../src/companion/control/tool-call.ts";
import { pinCall } from "../../../src/companion/deciding/causal-pins.ts";
import { type Approver, type DecideDeps, decideToolCall } from "../../../src/companion/deciding/decide.ts";
import { SessionGrants } from "../../../src/companion/deciding/grants.ts";
import type { AuditEvent } from "../../../src/companion/edge/client.ts";
import type { PolicyState } from "../../../src/companion/local-policy/load.ts";
import { compilePolicy, type GrantRule, grantUnitsOf } from "../../../src/policy/index.ts";

const YAML = `
default_action: ask
rules:
  - name: reads
    condition: tool == "read"
    action: allow
  - name: no rm
    condition: tool == "bash" && command.startsWith("rm ")
    action: deny
    message: rm is not allowed here
hidden_tools: [mcp__prod__deploy]
`;

function state(text: string): PolicyState {
  const compiled = compilePolicy([{ layer: "user", path: "/u/permissions.yaml", text }]);
  const base = { files: [], loadedAt: new Date().toISOString() };
  return compiled.ok
    ? { ok: true, policy: compiled.policy, ...base }
    : { ok: false, errors: compiled.errors, ...base };
}

const GOOD = state(YAML);

function call(
  tool: string,
  input: Record<string, unknown>,
  extra: Partial<AgentToolCall> = {},
): AgentToolCall {
  return {
    callId: `c-${Math.random()}`,
    sessionId: "s1",
    agent: { id: "claude-code", name: "Claude Code" },
    tool,
    input,
    cwd: "/work/p",
    hasUI: true,
    ...extra,
  };
}

function deps(extra: Partial<DecideDeps> = {}): DecideDeps & { audited: AuditEvent[] } {
  const audited: AuditEvent[] = [];
  return { policy: () => GOOD, audit: (e) => audited.push(e), promptTimeoutMs: 1000, audited, ...extra };
}

const approver = (answer: "allow" | "deny"): Approver & { asked: number } => {
  const a = {
    asked: 0,
    async ask() {
      a.asked++;
      return { decision: answer, reason: `person said ${answer}`, source: "user" as const, promptId: "p1" };
    },
  };
  return a;
};

describe("decideToolCall", () => {
  it("answers a policy allow at once and records it for audit", async () => {
    const d = deps({ approver: approver("deny") });
    const out = await decideToolCall(call("read", { path: "/work/p/a.ts" }), d);
    expect(out).toMatchObject({ decision: "allow", source: "policy", rule: "reads" });
    expect(d.audited).toHaveLength(1);
    expect(d.audited[0]).toMatchObject({
      action: "allow",
      agent_id: "claude-code",
      tool: "read",
      capability: "read",
    });
  });

  it("answers a policy deny with the rule's message", async () => {
    const out = await decideToolCall(call("bash", { command: "rm -rf x" }), deps());
    expect(out.decision).toBe("deny");
    expect(out.reason).toContain("rm is not allowed here");
  });

  it("denies a hidden tool as not available", async () => {
    const out = await decideToolCall(call("mcp__prod__deploy", {}), deps());
    expect(out).toMatchObject({
      decision: "deny",
      reason: "Tool mcp__prod__deploy is not available in this session.",
    });
  });

  it("lets emergency controls win over an allow rule", async () => {
    const out = await decideToolCall(
      call("read", { path: "/work/p/a.ts" }),
      deps({ emergency: () => ({ readOnly: false, disableHighImpact: false, blockedTools: ["read"] }) }),
    );
    expect(out).toMatchObject({ decision: "deny", source: "emergency" });
  });

  const exactRule = (command: string, effect: "allow" | "deny" = "allow"): GrantRule => {
    // As the edge builds it from the companion's ask: a command that runs project code carries its pin.
    const causal = pinCall({ tool: "bash", input: { command }, cwd: "/work/p" });
    const [unit] = grantUnitsOf({ tool: "bash", input: { command }, cwd: "/work/p", causal });
    return {
      id: `g-${command}`,
      agentId: "claude-code",
      capability: "exec",
      match: "exact",
      pattern: command,
      scopeHash: unit?.hash ?? null,
      versionRange: null,
      effect,
    };
  };

  it("answers an ask from a saved grant for exactly that command, without asking anyone", async () => {
    const a = approver("deny");
    const d = deps({ approver: a, grants: () => [exactRule("make build")] });
    expect(await decideToolCall(call("bash", { command: "make build" }), d)).toMatchObject({
      decision: "allow",
      source: "grant",
    });
    expect(a.asked).toBe(0);
    expect(await decideToolCall(call("bash", { command: "make deploy" }), d)).toMatchObject({
      source: "user",
    });
    expect(a.asked).toBe(1);
  });

  it("answers an ask from a session grant for the same session only", async () => {
    const sessions = new SessionGrants();
    const a = approver("deny");
    const d = deps({ approver: a, sessionGrants: (s, agent) => sessions.rules(s, agent) });
    expect((await decideToolCall(call("bash", { command: "make test" }), d)).source).toBe("user");
    const rule = exactRule("make test");
    sessions.add("s1", "claude-code", [
      {
        capability: "exec",
        match: "exact",
        pattern: rule.pattern,
        scope_hash: rule.scopeHash,
        version_range: null,
        effect: "allow",
      },
    ]);
    expect((await decideToolCall(call("bash", { command: "make test" }), d)).source).toBe("session_grant");
    expect(
      (await decideToolCall(call("bash", { command: "make test" }, { sessionId: "s2" }), d)).source,
    ).toBe("user");
    expect(sessions.endSession("s1")).toBe(1);
    expect((await decideToolCall(call("bash", { command: "make test" }), d)).source).toBe("user");
  });

  it("asks a person when policy says ask, and returns their answer with the local record", async () => {
    const a = approver("allow");
    const out = await decideToolCall(
      call("webfetch", { url: "https://example.com/" }),
      deps({ approver: a }),
    );
    expect(out).toMatchObject({ decision: "allow", source: "user", promptId: "p1" });
    expect(out.record).toMatchObject({ action: "ask", capability: "http" });
    expect(a.asked).toBe(1);
  });

  it("fails closed when a person is needed but the companion is not paired", async () => {
    const out = await decideToolCall(
      call("webfetch", { url: "https://example.com/" }),
      deps({ unpairedReason: "not paired: x" }),
    );
    expect(out).toMatchObject({ decision: "deny", source: "unavailable" });
    expect(out.reason).toContain("not paired: x");
  });

  it("applies headless rules when the agent has no UI and nobody can be asked, saying why", async () => {
    const out = await decideToolCall(
      call("webfetch", { url: "https://example.com/" }, { hasUI: false }),
      deps({ unpairedReason: "not paired" }),
    );
    // The model of an agent without its own prompt (Codex) learns that a person was needed and why none was asked.
    expect(out).toMatchObject({
      decision: "deny",
      source: "unavailable",
      reason: expect.stringMatching(/^Airlock denied this call: .*a person's approval, but not paired$/),
    });
  });

  it("hands an ask back to the agent in askMode return", async () => {
    const a = approver("allow");
    const out = await decideToolCall(
      call("webfetch", { url: "https://example.com/" }),
      deps({ approver: a, askMode: "return" }),
    );
    expect(out.decision).toBe("ask");
    expect(a.asked).toBe(0);
  });

  it("denies with a reason when the approver throws", async () => {
    const broken: Approver = {
      ask: async () => {
        throw new Error("socket exploded");
      },
    };
    const out = await decideToolCall(
      call("webfetch", { url: "https://example.com/" }),
      deps({ approver: broken }),
    );
    expect(out).toMatchObject({ decision: "deny", source: "error" });
    expect(out.reason).toContain("socket exploded");
  });

  it("denies everything while the policy does not load, naming the file", async () => {
    const bad = state("rules:\n  - name: x\n    action: nope\n");
    expect(bad.ok).toBe(false);
    const out = await decideToolCall(call("read", { path: "/work/p/a.ts" }), deps({ policy: () => bad }));
    expect(out.decision).toBe("deny");
    expect(out.reason).toMatch(/policy does not load \(\/u\/permissions\.yaml/);
  });
});

describe("decideToolCall when the agent's own check asks (agentAsks)", () => {
  it("sends a call Airlock's policy allows to a person, marked as the agent's ask", async () => {
    const seen: string[] = [];
    const a: Approver = {
      async ask(_call, record) {
        seen.push(record.justification);
        return { decision: "allow", reason: "person said allow", source: "user" };
      },
    };
    const out = await decideToolCall(
      call("read", { path: "/work/p/a.ts" }, { agentAsks: "it reads outside the working directory" }),
      deps({ approver: a }),
    );
    expect(out).toMatchObject({ decision: "allow", source: "user" });
    expect(seen).toEqual(["Claude Code asks about this: it reads outside the working directory"]);
  });

  it("keeps Airlock's deny a deny without asking anyone", async () => {
    const a = approver("allow");
    const out = await decideToolCall(
      call("bash", { command: "rm -rf x" }, { agentAsks: "x" }),
      deps({ approver: a }),
    );
    expect(out.decision).toBe("deny");
    expect(a.asked).toBe(0);
  });

  it("with no one to ask, denies and says what the agent asked", async () => {
    const out = await decideToolCall(
      call("read", { path: "/work/p/a.ts" }, { agentAsks: "its own permission check wants a person" }),
      deps({ unpairedReason: "this device is not paired" }),
    );
    expect(out.decision).toBe("deny");
    expect(out.reason).toBe(
      "Airlock denied this call: it needs a person's approval (Claude Code asks about this: its own permission check wants a person), but this device is not paired",
    );
  });

  it("under mode: sole, Airlock's allow answers the agent's ask and the decision names the file", async () => {
    const sole = state(`mode: sole\n${YAML}`);
    const a = approver("deny");
    const out = await decideToolCall(
      call("read", { path: "/work/p/a.ts" }, { agentAsks: "x" }),
      deps({ approver: a, policy: () => sole }),
    );
    expect(out).toMatchObject({ decision: "allow", source: "policy", sole: "/u/permissions.yaml" });
    expect(a.asked).toBe(0);
  });
});

describe("the sole marker", () => {
  it("comes from the policy's mode only: a call flagged sole under the default mode reaches the person unflagged", async () => {
    const seen: (true | undefined)[] = [];
    const a: Approver = {
      async ask(c) {
        seen.push(c.sole);
        return { decision: "deny", reason: "no", source: "user" };
      },
    };
    await decideToolCall(
      call("webfetch", { url: "https://example.com/" }, { sole: true }),
      deps({ approver: a }),
    );
    await decideToolCall(
      call("webfetch", { url: "https://example.com/" }),
      deps({ approver: a, policy: () => state(`mode: sole\n${YAML}`) }),
    );
    expect(seen).toEqual([undefined, true]);
  });
});
