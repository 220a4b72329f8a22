// Decisions, batching, timeouts, durability and confirmation tokens, inside workerd.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Device, device, pendingPrompts, request } from "./approvals-helpers.ts";
import { errorOf } from "./helpers.ts";
import { connect } from "./socket-client.ts";

/** The batch window is 250 ms of real time; a test keeps it open so a slow machine cannot split the batch. */
async function holdBatchOpen(d: Device) {
  await runInDurableObject(d.hub, (_hub, state) => {
    state.storage.sql.exec("UPDATE prompts SET join_until = ?", Date.now() + 60_000);
  });
}

describe("batching", () => {
  it("10 requests with one prompt key make one prompt with 10 call ids; another capability makes another", async () => {
    const d = await device();
    const reqs = Array.from({ length: 10 }, (_, i) =>
      request({ tool: "read", input: { path: `/work/repo/src/file${i}.ts` } }),
    );
    const [first, ...rest] = reqs;
    const answers = [await d.decide(first ?? request())];
    await holdBatchOpen(d);
    answers.push(...(await Promise.all(rest.map((r) => d.decide(r)))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    const other = await d.decide(
      request({ tool: "write", input: { path: "/work/repo/src/x.ts", content: "x" } }),
    );
    expect(other.status).toBe(202);
    const prompts = await pendingPrompts(d.get);
    expect(prompts).toHaveLength(2);
    const read = prompts.find((p) => p.capability === "read");
    expect(read?.callIds.sort()).toEqual(reqs.map((r) => r.call_id).sort());
    expect(prompts.find((p) => p.capability === "write")?.callIds).toHaveLength(1);
  });

  it("never batches across agents or scope groups", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    await d.decide(request({ input: { path: "/work/repo/test/a.ts" } }));
    await d.decide(
      request({ agent: { id: "codex", name: "Codex" }, input: { path: "/work/repo/src/b.ts" } }),
    );
    expect(await pendingPrompts(d.get)).toHaveLength(3);
  });

  it("shows up to 3 scopes, then +N more", async () => {
    const d = await device();
    for (let i = 0; i < 5; i++) {
      await d.decide(request({ input: { path: `/work/repo/src/f${i}.ts` } }));
      if (i === 0) await holdBatchOpen(d);
    }
    const res = await d.get("/v1/approvals?status=pending");
    const [prompt] = ((await res.json()) as { approvals: { scopes: unknown[]; moreScopes: number }[] })
      .approvals;
    expect(prompt?.scopes).toHaveLength(3);
    expect(prompt?.moreScopes).toBe(2);
  });
});

describe("deadlines", () => {
  it("the alarm times a prompt out as deny_timeout for every call in it", async () => {
    const d = await device();
    const a = request();
    const b = request({ input: { path: "/work/repo/src/other.ts" } });
    await d.decide(a);
    await d.decide(b);
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET expires_at = ?", Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(d.hub)).toBe(true);
    for (const call of [a, b]) {
      const res = await d.get(`/v1/decisions/${call.call_id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ decision: "deny", source: "timeout" });
    }
    const resolved = await (await d.get("/v1/approvals?status=resolved")).json();
    expect(resolved).toMatchObject({ approvals: [{ resolution: "deny_timeout" }] });
  });

  it("the first card reaches dashboards at once; same-key calls in the batch window join it live; one answer settles them all", async () => {
    const d = await device();
    const dashboard = await connect(d.approver.headers, "approver");
    dashboard.send({ type: "hello", client: { name: "phone" } });
    await dashboard.next("welcome");
    const a = request({ input: { path: "/work/repo/src/a.ts" } });
    const b = request({ input: { path: "/work/repo/src/b.ts" } });
    expect((await d.decide(a)).status).toBe(202);
    // No alarm has run: the card is announced by the call itself.
    const card = await dashboard.next("capability_prompt");
    expect(card.data.callIds).toEqual([a.call_id]);
    expect(Date.parse(card.data.expiresAt)).toBeGreaterThan(Date.now());
    await d.decide(b);
    const updated = await dashboard.next("prompt_updated");
    expect(updated.data).toMatchObject({ promptId: card.data.promptId, callIds: [a.call_id, b.call_id] });
    // After the batch window a same-key call opens its own prompt.
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET join_until = ?", Date.now() - 1);
    });
    const c = request({ input: { path: "/work/repo/src/c.ts" } });
    await d.decide(c);
    const second = await dashboard.next("capability_prompt");
    expect(second.data.promptId).not.toBe(card.data.promptId);
    await d.post(`/v1/approvals/${card.data.promptId}/approve`, { scope: "once" });
    for (const call of [a, b]) {
      expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({
        decision: "allow",
      });
    }
    expect((await d.get(`/v1/decisions/${c.call_id}`)).status).toBe(202);
    dashboard.ws.close();
  });
});

describe("durability", () => {
  it("a prompt survives eviction and still resolves", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    await evictDurableObject(d.hub);
    const approve = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    expect(approve.status).toBe(200);
    const res = await d.get(`/v1/decisions/${call.call_id}`);
    expect(await res.json()).toMatchObject({
      decision: "allow",
      source: "user",
      prompt_id: prompt?.promptId,
    });
  });

  it("a waiting POST /v1/decisions returns the person's answer", async () => {
    const d = await device();
    const call = request();
    const waiting = d.decide(call, true);
    let prompts = await pendingPrompts(d.get);
    while (prompts.length === 0) prompts = await pendingPrompts(d.get);
    await d.post(`/v1/approvals/${prompts[0]?.promptId}/reject`, { scope: "once" });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ call_id: call.call_id, decision: "deny", source: "user" });
  });
});

describe("duplicate call ids", () => {
  it("the same call sent again gets its first answer and is never decided twice", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    expect(prompt?.callIds).toEqual([call.call_id]);
    await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    const again = await d.decide(call);
    expect(await again.json()).toMatchObject({ decision: "allow", source: "user" });
    const second = await d.post(`/v1/approvals/${prompt?.promptId}/reject`, { scope: "once" });
    expect(second.status).toBe(409);
  });
});

describe("confirmation tokens", () => {
  const highRisk = () => request({ tool: "bash", input: { command: "npm publish" } });

  it("refuses a high-risk approval without a token (403) and audits it", async () => {
    const d = await device();
    await d.decide(highRisk());
    const [prompt] = await pendingPrompts(d.get);
    expect(prompt?.risk).toBe("high");
    const res = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: "confirmation_required" });
    const audit = await env.DB.prepare(
      "SELECT target FROM audit_log WHERE event = 'approval.confirmation_refused'",
    ).all<{
      target: string;
    }>();
    expect(audit.results.map((r) => r.target)).toContain(prompt?.promptId);
    expect(await pendingPrompts(d.get)).toHaveLength(1);
  });

  it("accepts a fresh token once, and never twice", async () => {
    const d = await device();
    const call = highRisk();
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    const confirm = await d.post(`/v1/approvals/${prompt?.promptId}/confirm`);
    expect(confirm.status).toBe(201);
    const { token } = (await confirm.json()) as { token: string };
    const ok = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, {
      scope: "once",
      confirmation_token: token,
    });
    expect(ok.status).toBe(200);
    expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({ decision: "allow" });
    await d.decide(highRisk());
    const [next] = await pendingPrompts(d.get);
    const reuse = await d.post(`/v1/approvals/${next?.promptId}/approve`, {
      scope: "once",
      confirmation_token: token,
    });
    expect(reuse.status).toBe(403);
  });

  it("a token is bound to its prompt", async () => {
    const d = await device();
    await d.decide(highRisk());
    await d.decide(request({ tool: "bash", input: { command: "git push --force" } }));
    const [first, second] = await pendingPrompts(d.get);
    const { token } = (await (await d.post(`/v1/approvals/${first?.promptId}/confirm`)).json()) as {
      token: string;
    };
    const res = await d.post(`/v1/approvals/${second?.promptId}/approve`, {
      scope: "once",
      confirmation_token: token,
    });
    expect(res.status).toBe(403);
  });

  it("an expired token is refused", async () => {
    const d = await device();
    await d.decide(highRisk());
    const [prompt] = await pendingPrompts(d.get);
    const { token } = (await (await d.post(`/v1/approvals/${prompt?.promptId}/confirm`)).json()) as {
      token: string;
    };
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE confirmations SET expires_at = ?", Date.now() - 1);
    });
    const res = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, {
      scope: "once",
      confirmation_token: token,
    });
    expect(res.status).toBe(403);
  });

  it("a token stops working when the batch gains scopes after it was issued", async () => {
    const d = await device();
    await d.decide(highRisk());
    const [prompt] = await pendingPrompts(d.get);
    const { token } = (await (await d.post(`/v1/approvals/${prompt?.promptId}/confirm`)).json()) as {
      token: string;
    };
    await holdBatchOpen(d);
    await d.decide(request({ tool: "bash", input: { command: "npm publish --tag next" } }));
    const res = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, {
      scope: "once",
      confirmation_token: token,
    });
    expect(res.status).toBe(403);
    expect(((await errorOf(res)).details as { reason: string }).reason).toBe("scopes_changed");
  });

  it("denying a high-risk prompt needs no token", async () => {
    const d = await device();
    await d.decide(highRisk());
    const [prompt] = await pendingPrompts(d.get);
    expect((await d.post(`/v1/approvals/${prompt?.promptId}/reject`, { scope: "once" })).status).toBe(200);
  });
});
