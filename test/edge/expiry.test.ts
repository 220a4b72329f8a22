// Deadlines: an answer after expiry is refused (409 prompt_expired) and the audit never records an allow
// for a call the agent was told deny; a caller that stops waiting withdraws its call, or the call is
// abandoned when its hold lapses (an edge restart, a companion that never came back).
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Device, device, pendingPrompts, request, sameUserDevice } from "./approvals-helpers.ts";
import { errorOf } from "./helpers.ts";
import { connect } from "./socket-client.ts";

async function auditOf(d: Device) {
  await d.get("/v1/audit");
  const rows = await env.DB.prepare(
    "SELECT target, decision, details FROM audit_log WHERE user_id = ? AND event = 'policy.decision'",
  )
    .bind(d.userId)
    .all<{ target: string; decision: string; details: string }>();
  return rows.results.map((r) => ({
    ...r,
    callIds: (JSON.parse(r.details) as { call_ids: string[] }).call_ids,
  }));
}

function allowsFor(audit: Awaited<ReturnType<typeof auditOf>>, callId: string) {
  return audit.filter((r) => r.callIds.includes(callId) && r.decision.startsWith("allow"));
}

describe("expiry", () => {
  it("an answer after the deadline is 409 prompt_expired even before the alarm ran; the call stays denied", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET expires_at = ?", Date.now() - 1);
    });
    const late = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toMatchObject({ code: "prompt_expired" });
    expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({
      decision: "deny",
      source: "timeout",
      resolution: "deny_timeout",
    });
    const again = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    expect(await errorOf(again)).toMatchObject({ code: "prompt_expired" });
    const audit = await auditOf(d);
    expect(allowsFor(audit, call.call_id)).toEqual([]);
    expect(audit.filter((r) => r.decision === "deny_timeout")).toHaveLength(1);
  });

  it("decision_pending and the 202 body carry expiresAt", async () => {
    const d = await device();
    const socket = await connect(d.headers, "companion");
    socket.send({ type: "hello", client: { name: "c" } });
    await socket.next("welcome");
    socket.send({ type: "tool_request", id: "r", request: request() });
    const pending = await socket.next("decision_pending");
    expect(Date.parse(pending.expiresAt ?? "")).toBeGreaterThan(Date.now());
    const res = await d.decide(request({ input: { path: "/work/repo/lib/x.ts" } }));
    expect(Date.parse(((await res.json()) as { expires_at: string }).expires_at)).toBeGreaterThan(Date.now());
    socket.ws.close();
  });
});

describe("a caller that stops waiting", () => {
  it("a hook that gave up during an edge restart is never followed by an audited allow", async () => {
    const d = await device();
    const call = request({ tool: "bash", input: { command: "make deploy" } });
    // The hook submitted the call; then the edge restarted, the hook's wait failed and it denied locally.
    const submitted = await d.decide(call);
    expect(submitted.status).toBe(202);
    const { prompt_id } = (await submitted.json()) as { prompt_id: string };
    await evictDurableObject(d.hub);
    // The prompt survived the restart, but nobody asks about the call any more: its hold lapses.
    expect(await pendingPrompts(d.get)).toHaveLength(1);
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE calls SET held_until = ? WHERE held_until IS NOT NULL", Date.now() - 1);
    });
    await runDurableObjectAlarm(d.hub);
    expect(await pendingPrompts(d.get)).toEqual([]);
    const approve = await d.post(`/v1/approvals/${prompt_id}/approve`, { scope: "once" });
    expect(approve.status).toBe(409);
    expect(await errorOf(approve)).toMatchObject({ code: "prompt_withdrawn" });
    expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({
      decision: "deny",
      source: "abandoned",
    });
    const audit = await auditOf(d);
    expect(allowsFor(audit, call.call_id)).toEqual([]);
    expect(audit.some((r) => r.callIds.includes(call.call_id) && r.decision === "deny")).toBe(true);
  });

  it("a REST caller keeps its call held only by asking again (a long poll renews nothing by itself)", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const holdOf = () =>
      runInDurableObject(d.hub, (_hub, state) =>
        state.storage.sql
          .exec<{ holder: string; held_until: number }>("SELECT holder, held_until FROM calls")
          .one(),
      );
    const first = await holdOf();
    expect(first.holder).toBe("poll");
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE calls SET held_until = ?", Date.now() + 5);
    });
    expect((await d.companion.get(`/v1/decisions/${call.call_id}`)).status).toBe(202);
    expect((await holdOf()).held_until).toBeGreaterThan(Date.now() + 5_000);
  });

  it("a waiting POST keeps its hold while it waits, so an answer in time still reaches it", async () => {
    const d = await device();
    const call = request();
    const waiting = d.decide(call, true);
    let prompts = await pendingPrompts(d.get);
    while (prompts.length === 0) prompts = await pendingPrompts(d.get);
    const held = await runInDurableObject(d.hub, (_hub, state) =>
      state.storage.sql
        .exec<{ holder: string; held_until: number }>("SELECT holder, held_until FROM calls")
        .one(),
    );
    expect(held.holder).toBe("wait");
    expect(held.held_until).toBeGreaterThan(Date.now());
    await d.post(`/v1/approvals/${prompts[0]?.promptId}/approve`, { scope: "once" });
    expect(await (await waiting).json()).toMatchObject({ decision: "allow", source: "user" });
  });

  it("a withdrawn call is denied as abandoned and leaves its prompt; a prompt with nobody waiting is withdrawn", async () => {
    const d = await device();
    const a = request({ input: { path: "/work/repo/src/a.ts" } });
    const b = request({ input: { path: "/work/repo/src/b.ts" } });
    await d.decide(a);
    await d.decide(b);
    const w = await d.companion.post(`/v1/decisions/${encodeURIComponent(a.call_id)}/withdraw`);
    expect(await w.json()).toEqual({ call_id: a.call_id, withdrawn: true });
    const [prompt] = await pendingPrompts(d.get);
    expect(prompt?.callIds).toEqual([b.call_id]);
    await d.companion.post(`/v1/decisions/${encodeURIComponent(b.call_id)}/withdraw`);
    expect(await pendingPrompts(d.get)).toEqual([]);
    const res = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, { scope: "once" });
    expect(await errorOf(res)).toMatchObject({ code: "prompt_withdrawn" });
    const resolved = (await (await d.get("/v1/approvals?status=resolved")).json()) as {
      approvals: { resolution: string }[];
    };
    expect(resolved.approvals[0]?.resolution).toBe("abandoned");
  });

  it("only the device that sent a call can withdraw it", async () => {
    const d = await device();
    const other = await sameUserDevice(d.userId);
    const a = request();
    await d.decide(a);
    const w = await other.post(`/v1/decisions/${encodeURIComponent(a.call_id)}/withdraw`);
    expect(await w.json()).toEqual({ call_id: a.call_id, withdrawn: false });
    expect(await pendingPrompts(d.get)).toHaveLength(1);
  });

  it("a companion socket that closes keeps its calls for the reconnect grace; resuming holds them again", async () => {
    const d = await device();
    const first = await connect(d.headers, "companion");
    first.send({ type: "hello", client: { name: "daemon" } });
    await first.next("welcome");
    const kept = request({ input: { path: "/work/repo/src/kept.ts" } });
    const lost = request({ input: { path: "/work/repo/lib/lost.ts" } });
    first.send({ type: "tool_request", id: "k", request: kept });
    first.send({ type: "tool_request", id: "l", request: lost });
    await first.next("decision_pending");
    await first.next("decision_pending");
    first.ws.close();
    let holds: { call_id: string; held_until: number | null }[] = [];
    while (holds.length === 0 || holds.some((h) => h.held_until === null)) {
      holds = await runInDurableObject(d.hub, (_hub, state) =>
        state.storage.sql
          .exec<{ call_id: string; held_until: number | null }>("SELECT call_id, held_until FROM calls")
          .toArray(),
      );
    }
    expect(holds.every((h) => (h.held_until ?? 0) > Date.now())).toBe(true);
    const again = await connect(d.headers, "companion");
    again.send({ type: "hello", client: { name: "daemon" }, resume: [kept.call_id] });
    await again.next("welcome");
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE calls SET held_until = ? WHERE held_until IS NOT NULL", Date.now() - 1);
    });
    await runDurableObjectAlarm(d.hub);
    expect(await (await d.get(`/v1/decisions/${lost.call_id}`)).json()).toMatchObject({
      source: "abandoned",
    });
    expect((await d.get(`/v1/decisions/${kept.call_id}`)).status).toBe(202);
    again.ws.close();
  });
});
