// Grants: always-decisions persist, deny beats allow, session grants end with their session.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { pickGrant } from "../../src/edge/hub/grant-match.ts";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";

async function answerFirst(d: Awaited<ReturnType<typeof device>>, path: string, body: unknown) {
  const [prompt] = await pendingPrompts(d.get);
  const res = await d.post(`/v1/approvals/${prompt?.promptId}/${path}`, body);
  expect(res.status).toBe(200);
  return prompt!;
}

describe("persisted grants", () => {
  it("allow_always answers later calls in that scope without asking", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    await answerFirst(d, "approve", { scope: "always" });
    const later = await d.decide(request({ input: { path: "/work/repo/src/deep/b.ts" } }));
    expect(later.status).toBe(200);
    expect(await later.json()).toMatchObject({ decision: "allow", source: "grant" });
    const outside = await d.decide(request({ input: { path: "/work/repo/docs/c.md" } }));
    expect(outside.status).toBe(202);
    const grants = (await (await d.get("/v1/grants")).json()) as {
      grants: { scope_pattern: string; effect: string }[];
    };
    expect(grants.grants).toMatchObject([{ scope_pattern: "src/**", effect: "allow" }]);
  });

  it("deny_always beats an allow grant for the same scope", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    await answerFirst(d, "approve", { scope: "always" });
    await env.DB.prepare(
      "INSERT INTO grants (id, user_id, agent_id, capability, scope_pattern, version_range, effect, created_at) VALUES (?, ?, 'claude-code', 'read', NULL, NULL, 'deny', ?)",
    )
      .bind("grt_denyeverything01", d.userId, Date.now())
      .run();
    // The hub caches grants; deleting an unrelated grant through the API refreshes the cache.
    const res = await api("/v1/grants/grt_0000000000000000", {
      method: "DELETE",
      headers: d.approver.headers,
    });
    expect(res.status).toBe(404);
    const later = await d.decide(request({ input: { path: "/work/repo/src/b.ts" } }));
    expect(await later.json()).toMatchObject({ decision: "deny", source: "grant" });
  });

  it("deleting a grant makes the next call ask again", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    await answerFirst(d, "reject", { scope: "always" });
    const denied = await d.decide(request({ input: { path: "/work/repo/src/b.ts" } }));
    expect(await denied.json()).toMatchObject({ decision: "deny", source: "grant" });
    const { grants } = (await (await d.get("/v1/grants")).json()) as { grants: { id: string }[] };
    const del = await api(`/v1/grants/${grants[0]?.id}`, { method: "DELETE", headers: d.approver.headers });
    expect(del.status).toBe(200);
    expect((await d.decide(request({ input: { path: "/work/repo/src/c.ts" } }))).status).toBe(202);
  });

  it("a grant for one agent version re-asks after a minor upgrade", async () => {
    const d = await device();
    await d.decide(request({ agent: { id: "pi", name: "Pi", version: "0.87.1" } }));
    await answerFirst(d, "approve", { scope: "always" });
    const same = await d.decide(request({ agent: { id: "pi", name: "Pi", version: "0.87.4" } }));
    expect(same.status).toBe(200);
    const upgraded = await d.decide(request({ agent: { id: "pi", name: "Pi", version: "0.88.0" } }));
    expect(upgraded.status).toBe(202);
  });

  it("pickGrant: deny beats allow, unscoped grants cover the capability", () => {
    const scope = { agentId: "a", capability: "read", group: "src/**" };
    const allow = {
      agentId: "a",
      capability: "read",
      scopePattern: "src/**",
      versionRange: null,
      effect: "allow" as const,
    };
    const denyAll = {
      agentId: "a",
      capability: "read",
      scopePattern: null,
      versionRange: null,
      effect: "deny" as const,
    };
    const otherAgent = { ...denyAll, agentId: "b" };
    expect(pickGrant([allow], scope)).toBe(allow);
    expect(pickGrant([allow, denyAll], scope)).toBe(denyAll);
    expect(pickGrant([denyAll, allow], scope)).toBe(denyAll);
    expect(pickGrant([otherAgent], scope)).toBeUndefined();
    expect(pickGrant([allow], { ...scope, group: "test/**" })).toBeUndefined();
  });
});

describe("session grants", () => {
  it("allow_session covers that session only, and ends with it", async () => {
    const d = await device();
    await d.decide(request({ session_id: "s-1", input: { path: "/work/repo/src/a.ts" } }));
    await answerFirst(d, "approve", { scope: "session" });
    const same = await d.decide(request({ session_id: "s-1", input: { path: "/work/repo/src/b.ts" } }));
    expect(await same.json()).toMatchObject({ decision: "allow", source: "session_grant" });
    const otherSession = await d.decide(
      request({ session_id: "s-2", input: { path: "/work/repo/src/b.ts" } }),
    );
    expect(otherSession.status).toBe(202);
    const end = await d.post("/v1/sessions/s-1/end");
    expect(await end.json()).toEqual({ ended: true, grants_removed: 1 });
    const after = await d.decide(request({ session_id: "s-1", input: { path: "/work/repo/src/c.ts" } }));
    expect(after.status).toBe(202);
  });
});

describe("policy and emergency at the edge", () => {
  it("an account policy deny needs nobody; emergency read-only beats an allow grant", async () => {
    const d = await device();
    const put = await api("/v1/settings/policy", {
      method: "PUT",
      headers: d.approver.headers,
      json: {
        policy:
          'version: 1\ndefault_action: ask\nrules:\n  - name: no publish\n    condition: command.startsWith("npm publish")\n    action: deny\n',
      },
    });
    expect(put.status).toBe(200);
    const denied = await d.decide(request({ tool: "bash", input: { command: "npm publish" } }));
    expect(await denied.json()).toMatchObject({ decision: "deny", source: "policy", rule: "no publish" });

    await d.decide(request({ tool: "write", input: { path: "/work/repo/src/a.ts", content: "x" } }));
    const [prompt] = await pendingPrompts(d.get);
    const { token } = (await (await d.post(`/v1/approvals/${prompt?.promptId}/confirm`)).json()) as {
      token: string;
    };
    await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "always", confirmation_token: token });
    const granted = await d.decide(
      request({ tool: "write", input: { path: "/work/repo/src/b.ts", content: "x" } }),
    );
    expect(await granted.json()).toMatchObject({ decision: "allow", source: "grant" });

    const on = await d.post("/v1/settings/emergency", { readOnly: true });
    expect(await on.json()).toMatchObject({ readOnly: true });
    const blocked = await d.decide(
      request({ tool: "write", input: { path: "/work/repo/src/c.ts", content: "x" } }),
    );
    expect(await blocked.json()).toMatchObject({ decision: "deny", source: "emergency" });
    await d.post("/v1/settings/emergency", { readOnly: false });
    const again = await d.decide(
      request({ tool: "write", input: { path: "/work/repo/src/d.ts", content: "x" } }),
    );
    expect(await again.json()).toMatchObject({ decision: "allow", source: "grant" });
    const audit = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE event = 'emergency.changed'",
    ).first<{
      n: number;
    }>();
    expect(audit?.n).toBeGreaterThanOrEqual(2);
  });

  it("an account allow rule decides over the companion's local ask; without a matching rule the local verdict holds", async () => {
    const d = await device();
    await api("/v1/settings/policy", {
      method: "PUT",
      headers: d.approver.headers,
      json: {
        policy:
          'version: 1\ndefault_action: allow\nrules:\n  - name: tests\n    condition: command == "npm test"\n    action: allow\n',
      },
    });
    const local = { action: "ask" as const, rule: null, capability: "exec" as const, risk: "high" as const };
    const ruled = await d.decide(request({ tool: "bash", input: { command: "npm test" }, local }));
    expect(await ruled.json()).toMatchObject({ decision: "allow", source: "policy", rule: "tests" });
    const unruled = await d.decide(request({ tool: "bash", input: { command: "make" }, local }));
    expect(unruled.status).toBe(202);
  });

  it("a bad account policy is refused with every error and changes nothing", async () => {
    const d = await device();
    const res = await api("/v1/settings/policy", {
      method: "PUT",
      headers: d.approver.headers,
      json: { policy: "version: 1\nrules:\n  - name: broken\n    condition: 'tool =='\n    action: deny\n" },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { message: string }[] } };
    expect(body.error.details.length).toBeGreaterThan(0);
    // No policy saved reads as "" (a string, as the companion expects), not null.
    const get = (await (await d.companion.get("/v1/settings/policy")).json()) as { policy: unknown };
    expect(get.policy).toBe("");
  });

  it("blocked tools deny that tool at once", async () => {
    const d = await device();
    await d.post("/v1/settings/emergency", { blockedTools: ["deploy.prod"] });
    const res = await d.decide(request({ tool: "deploy.prod", input: {} }));
    expect(await res.json()).toMatchObject({ decision: "deny", source: "emergency" });
  });

  it("rejects an empty emergency patch", async () => {
    const d = await device();
    expect((await d.post("/v1/settings/emergency", {})).status).toBe(400);
  });
});
