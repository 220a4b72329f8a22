// Audit and answer fixes (issue 22 §8): abandoned calls are audited one row per prompt with the spec's
// fields; account-layer hidden tools look absent; policy_mode is the account policy's mode, and strict and
// permissive behave as the capability-prompt spec defines them.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UserHub } from "../../src/edge/hub/user-hub.ts";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";

type Device = Awaited<ReturnType<typeof device>>;
interface AuditRow {
  target: string;
  decision: string;
  details: Record<string, unknown>;
}

async function setPolicy(d: Device, policy: string): Promise<void> {
  const res = await api("/v1/settings/policy", {
    method: "PUT",
    headers: d.approver.headers,
    json: { policy },
  });
  expect(res.status).toBe(200);
}

async function decisions(d: Device): Promise<AuditRow[]> {
  const res = await d.get("/v1/audit?event=policy.decision");
  return ((await res.json()) as { events: AuditRow[] }).events;
}

async function decided(d: Device, body: ReturnType<typeof request>) {
  return (await (await d.decide(body)).json()) as { decision: string; reason: string; source: string };
}

describe("abandoned calls in the audit", () => {
  it("calls of two prompts abandoned together: one row per prompt, each with capability, risk and policy_mode", async () => {
    const d = await device();
    const read = request({ tool: "read", input: { path: "/work/repo/src/a.ts" } });
    const write = request({ tool: "write", input: { path: "/work/repo/src/b.ts", content: "x" } });
    await d.decide(read);
    await d.decide(write);
    const prompts = await pendingPrompts(d.get);
    expect(prompts).toHaveLength(2);
    await runInDurableObject(d.hub, async (hub: UserHub) => {
      const engine = (hub as unknown as { engine: import("../../src/edge/hub/engine.ts").HubEngine }).engine;
      engine.queue.withdraw(d.deviceId, [read.call_id, write.call_id], Date.now());
      await engine.ctx.flush();
    });
    const rows = (await decisions(d)).filter((r) => r.details.source === "abandoned");
    expect(rows).toHaveLength(2);
    for (const prompt of prompts) {
      const row = rows.find((r) => r.details.prompt_id === prompt.promptId);
      expect(row?.target).toBe(prompt.promptId);
      expect(row?.details).toMatchObject({
        call_ids: prompt.callIds,
        capability: prompt.capability,
        risk: prompt.risk,
        policy_mode: "prompt",
        decision: "deny",
      });
    }
  });
});

describe("hidden tools of the account policy", () => {
  it("answer as if the tool were absent, naming no rule", async () => {
    const d = await device();
    await setPolicy(d, "version: 1\ndefault_action: ask\nhidden_tools: [webfetch]\nrules: []\n");
    const answer = await decided(d, request({ tool: "webfetch", input: { url: "https://example.com" } }));
    expect(answer).toMatchObject({
      decision: "deny",
      reason: "Tool webfetch is not available in this session.",
    });
    expect(answer.reason).not.toMatch(/polic|rule|block/i);
  });
});

describe("policy_mode", () => {
  it("strict: what no rule or grant allows is denied without a prompt, audited as strict", async () => {
    const d = await device();
    await setPolicy(d, "version: 1\nmode: strict\ndefault_action: ask\nrules: []\n");
    const call = request({ tool: "write", input: { path: "/work/repo/src/c.ts", content: "x" } });
    expect(await decided(d, call)).toMatchObject({ decision: "deny", source: "policy" });
    expect(await pendingPrompts(d.get)).toEqual([]);
    const row = (await decisions(d)).find((r) => r.target === call.call_id);
    expect(row?.details).toMatchObject({ policy_mode: "strict", rule: "mode: strict" });
  });

  it("permissive: a medium-risk ask runs unprompted (allow_permissive); a high-risk one still asks", async () => {
    const d = await device();
    await setPolicy(d, "version: 1\nmode: permissive\ndefault_action: ask\nrules: []\n");
    const medium = request({ tool: "write", input: { path: "/work/repo/src/d.ts", content: "x" } });
    expect(await decided(d, medium)).toMatchObject({ decision: "allow", source: "policy" });
    const row = (await decisions(d)).find((r) => r.target === medium.call_id);
    expect(row).toMatchObject({ decision: "allow_permissive", details: { policy_mode: "permissive" } });
    const high = request({ tool: "bash", input: { command: "rm -rf /work/repo/build" } });
    expect((await d.decide(high)).status).toBe(202);
    const [prompt] = await pendingPrompts(d.get);
    expect(prompt).toMatchObject({ risk: "high", callIds: [high.call_id] });
  });

  it("prompt (the default) asks, and says so in the audit", async () => {
    const d = await device();
    const call = request({ tool: "write", input: { path: "/work/repo/src/e.ts", content: "x" } });
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    await d.post(`/v1/approvals/${prompt?.promptId}/reject`, { scope: "once" });
    const row = (await decisions(d)).find((r) => r.details.prompt_id === prompt?.promptId);
    expect(row?.details.policy_mode).toBe("prompt");
  });
});
