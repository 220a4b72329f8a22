// The agent's own ask at the edge: a call the agent's check asks about goes in front of a person, marked as the
// agent's, even where a saved grant would allow it; a call judged under `mode: sole` says so on its card.
import { describe, expect, it } from "vitest";
import { answerFirst, device, request } from "./approvals-helpers.ts";

type Card = { promptId: string; justification: string; callIds: string[] };

async function cards(d: Awaited<ReturnType<typeof device>>): Promise<Card[]> {
  const res = await d.get("/v1/approvals?status=pending");
  return ((await res.json()) as { approvals: Card[] }).approvals;
}

describe("agent_asks", () => {
  it("a call a saved grant allows still goes to a person when the agent's own check asks", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    expect((await answerFirst(d, "approve", { scope: "always" })).res.status).toBe(200);
    const granted = await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    expect(await granted.json()).toMatchObject({ decision: "allow", source: "grant" });

    const asked = request({
      input: { path: "/work/repo/src/a.ts" },
      agent_asks: "its own permission check would run it only with Read(//work/repo/**)",
    });
    expect((await d.decide(asked)).status).toBe(202);
    const [card] = await cards(d);
    expect(card?.callIds).toEqual([asked.call_id]);
    expect(card?.justification).toBe(
      "Claude Code asks about this: its own permission check would run it only with Read(//work/repo/**)",
    );
  });

  it("a reason that carries a credential is redacted before it is stored or shown", async () => {
    const d = await device();
    const res = await d.decide(
      request({ agent_asks: "wants ghp_abcdefghijklmnopqrstuvwxyz0123456789 here" }),
    );
    expect(res.status).toBe(202);
    const [card] = await cards(d);
    expect(card?.justification).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
  });

  it("a call judged under mode: sole says so first on its card", async () => {
    const d = await device();
    expect((await d.decide(request({ sole: true }))).status).toBe(202);
    const [card] = await cards(d);
    expect(card?.justification).toMatch(/^Airlock alone decides \(mode: sole\)/);
  });
});
