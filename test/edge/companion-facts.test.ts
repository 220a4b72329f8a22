// What the companion found on disk (a symlink to a secret, a hard link, another git repository) travels
// with the call as `local.facts`. The edge cannot see the disk, so it trusts them only to be stricter:
// an account allow rule no longer allows the call, no saved allow grant covers it, and the phone card
// names the path and the reason. Without facts, an account allow rule still decides.
import { describe, expect, it } from "vitest";
import type { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { device, request } from "./approvals-helpers.ts";
import { api, errorOf } from "./helpers.ts";

const FACT =
  "`git status`: git would use the repository at `fixtures/repo`, not the workspace's own; its configuration can run programs";

async function allowCatPolicy(d: Awaited<ReturnType<typeof device>>) {
  const res = await api("/v1/settings/policy", {
    method: "PUT",
    headers: d.approver.headers,
    json: {
      policy:
        'version: 1\ndefault_action: ask\nrules:\n  - name: status\n    condition: command == "git status"\n    action: allow\n',
    },
  });
  expect(res.status).toBe(200);
}

describe("companion facts at the edge", () => {
  it("raise an account allow to a prompt whose card names the path and the reason", async () => {
    const d = await device();
    await allowCatPolicy(d);
    const base = { action: "ask" as const, rule: null, capability: "exec" as const, risk: "low" as const };
    const plain = await d.decide(request({ tool: "bash", input: { command: "git status" }, local: base }));
    expect(await plain.json()).toMatchObject({ decision: "allow", rule: "status" });

    const raised = await d.decide(
      request({ tool: "bash", input: { command: "git status" }, local: { ...base, facts: [FACT] } }),
    );
    expect(raised.status).toBe(202);
    const res = await d.get("/v1/approvals?status=pending");
    const { approvals } = (await res.json()) as { approvals: CapabilityPrompt[] };
    expect(approvals[0]?.justification).toContain("fixtures/repo");
    expect(approvals[0]?.justification).toContain("can run programs");
    // No saved allow grant may be offered for what a fact raised.
    expect((approvals[0] as { grant?: { wider: string[] } }).grant?.wider ?? []).toEqual([]);
  });

  it("refuses malformed facts with a 4xx and records nothing", async () => {
    const d = await device();
    const local = { action: "ask" as const, rule: null, capability: "exec" as const, risk: "low" as const };
    const res = await d.decide(
      request({ tool: "bash", input: { command: "ls" }, local: { ...local, facts: Array(9).fill("x") } }),
    );
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBeTruthy();
    const pending = await d.get("/v1/approvals?status=pending");
    expect(((await pending.json()) as { approvals: unknown[] }).approvals).toEqual([]);
  });
});
