// What the hub judges, stores and shows is bounded (the wire's own bounds are in limits.test.ts): a huge command is never parsed, a stored prompt never
// keeps it, GET /v1/approvals stays small, and neither a prompt nor the queue grows without end.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_CALLS_PER_PROMPT, MAX_OPEN_PROMPTS } from "../../src/policy/limits.ts";
import { MAX_COMMAND_CHARS } from "../../src/protocol/limits.ts";
import { type Device, device, request } from "./approvals-helpers.ts";

const storedBytes = (d: Device) =>
  runInDurableObject(d.hub, (_hub, state) => {
    let total = 0;
    for (const table of ["calls", "prompts", "outbox"])
      total += JSON.stringify(state.storage.sql.exec(`SELECT * FROM ${table}`).toArray()).length;
    return total;
  });

describe("limits", () => {
  it("a 3 MB command is asked about without being parsed, and neither stored nor shown whole", async () => {
    const d = await device();
    const huge = `echo ${"A".repeat(3 * 1024 * 1024)}; rm -rf ~`;
    const caller = { userId: d.userId, deviceId: d.deviceId };
    const outcome = await d.hub.decide(caller, request({ tool: "bash", input: { command: huge } }), false);
    expect(outcome.kind).toBe("pending");
    expect(await storedBytes(d)).toBeLessThan(20_000);
    const listing = await (await d.get("/v1/approvals?status=pending")).text();
    expect(listing.length).toBeLessThan(8_000);
    const [prompt] = (
      JSON.parse(listing) as { approvals: { options: string[]; scopes: { summary: string }[] }[] }
    ).approvals;
    expect(prompt?.scopes[0]?.summary.length).toBeLessThanOrEqual(300);
    // Too large to judge is never grantable.
    expect(prompt?.options).not.toContain("allow_always");
  });

  it("the largest command the wire takes is stored clipped; its listing stays small", async () => {
    const d = await device();
    const big = `printf '%s' ${"x".repeat(MAX_COMMAND_CHARS - 20)}`;
    const res = await d.decide(request({ tool: "bash", input: { command: big } }));
    expect(res.status).toBe(202);
    expect(await storedBytes(d)).toBeLessThan(20_000);
    // The card shows the first 8 KiB of the command as it will run, and says how much more there is.
    const listing = await (await d.get("/v1/approvals?status=pending")).text();
    expect(listing.length).toBeLessThan(8 * 1024 + 4_000);
    const [prompt] = (JSON.parse(listing) as { approvals: { calls: { text?: string; chars?: number }[] }[] })
      .approvals;
    expect(prompt?.calls[0]?.text?.length).toBe(8 * 1024);
    expect(prompt?.calls[0]?.chars).toBe(big.length);
  });

  it(`a prompt holds at most ${MAX_CALLS_PER_PROMPT} calls; more with the same key open another`, async () => {
    const d = await device();
    const caller = { userId: d.userId, deviceId: d.deviceId };
    await d.hub.decide(caller, request({ input: { path: "/work/repo/src/f0.ts" } }), false);
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET join_until = ?", Date.now() + 60_000);
    });
    for (let i = 1; i <= MAX_CALLS_PER_PROMPT; i++)
      await d.hub.decide(caller, request({ input: { path: `/work/repo/src/f${i}.ts` } }), false);
    const sizes = await runInDurableObject(d.hub, (_hub, state) =>
      state.storage.sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM calls GROUP BY prompt_id ORDER BY n DESC")
        .toArray()
        .map((r) => r.n),
    );
    expect(sizes).toEqual([MAX_CALLS_PER_PROMPT, 1]);
  });

  it(`at most ${MAX_OPEN_PROMPTS} prompts wait; past that a call that needs a person is denied at once`, async () => {
    const d = await device();
    const caller = { userId: d.userId, deviceId: d.deviceId };
    for (let i = 0; i < MAX_OPEN_PROMPTS; i++) {
      const outcome = await d.hub.decide(
        caller,
        request({ input: { path: `/work/repo/d${i}/x.ts` } }),
        false,
      );
      expect(outcome.kind).toBe("pending");
    }
    const over = await d.hub.decide(caller, request({ input: { path: "/work/repo/over/x.ts" } }), false);
    expect(over).toMatchObject({ kind: "decided", response: { decision: "deny", source: "policy" } });
  });
});
