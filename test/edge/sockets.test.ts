// The websocket hub: hello/ping, tool requests and decisions, dashboards, resume, revocation.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";
import { connect } from "./socket-client.ts";

describe("socket basics", () => {
  it("answers hello with welcome and ping with pong", async () => {
    const d = await device();
    const socket = await connect(d.headers);
    socket.send({ type: "hello", client: { name: "test" } });
    const welcome = await socket.next("welcome");
    expect(welcome).toMatchObject({ role: "companion", deviceId: d.deviceId });
    socket.send({ type: "ping", id: "p1" });
    expect(await socket.next("pong")).toMatchObject({ id: "p1" });
    socket.ws.close();
  });

  it("rejects malformed and unknown messages with a validation error, and stays open", async () => {
    const d = await device();
    const socket = await connect(d.headers);
    socket.ws.send("{nope");
    expect(await socket.next("error")).toMatchObject({ code: "invalid_json" });
    socket.send({ type: "launch_missiles" });
    expect(await socket.next("error")).toMatchObject({ code: "validation_failed" });
    socket.send({ type: "ping" });
    await socket.next("pong");
    socket.ws.close();
  });

  it("refuses an unauthenticated upgrade", async () => {
    const res = await api("/v1/connect", { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(401);
  });

  it("closes a revoked device's open sockets at once", async () => {
    const d = await device();
    const socket = await connect(d.headers);
    socket.send({ type: "hello", client: { name: "victim" } });
    await socket.next("welcome");
    const res = await d.post(`/v1/devices/${d.deviceId}/revoke`);
    expect(res.status).toBe(200);
    const closed = await socket.closed;
    expect(closed.code).toBe(4001);
  });
});

describe("decisions over the socket", () => {
  it("a tool_request is answered later by capability_decision when a dashboard decides", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "companion" } });
    await companion.next("welcome");
    const dashboard = await connect(d.approver.headers, "approver");
    dashboard.send({ type: "hello", client: { name: "dashboard" } });
    await dashboard.next("welcome");

    const call = request({ tool: "grep", input: { pattern: "TODO", path: "/work/repo/src" } });
    companion.send({ type: "tool_request", id: "r1", request: call });
    const pending = await companion.next("decision_pending").catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(companion.received)}`);
    });
    expect(pending).toMatchObject({ id: "r1", callId: call.call_id });

    // Announced at once, without waiting for a batch window or an alarm.
    const shown = await dashboard.next("capability_prompt");
    expect(shown.data).toMatchObject({
      promptId: pending.promptId,
      callIds: [call.call_id],
      capability: "read",
    });

    dashboard.send({
      type: "capability_decision",
      id: "d1",
      promptId: pending.promptId,
      decision: "allow_once",
    });
    expect(await dashboard.next("response")).toMatchObject({
      id: "d1",
      success: true,
      command: "capability_decision",
    });
    const decided = await companion.next("capability_decision");
    expect(decided.data).toMatchObject({ call_id: call.call_id, decision: "allow", source: "user" });
    expect(await dashboard.next("prompt_resolved")).toMatchObject({ data: { resolution: "allow_once" } });
    companion.ws.close();
    dashboard.ws.close();
  });

  it("a dashboard that connects late gets the pending prompts; counts update live", async () => {
    const d = await device();
    await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }));
    // Keep the batch window open, so the second call joins however slow the machine is.
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET join_until = ?", Date.now() + 60_000);
    });
    const dashboard = await connect(d.approver.headers, "approver");
    dashboard.send({ type: "hello", client: { name: "late" } });
    const first = await dashboard.next("capability_prompt");
    expect(first.data.callIds).toHaveLength(1);
    await d.decide(request({ input: { path: "/work/repo/src/b.ts" } }));
    const updated = await dashboard.next("prompt_updated");
    expect(updated.data.callIds).toHaveLength(2);
    dashboard.ws.close();
  });

  it("a companion that reconnects receives decisions made while it was away", async () => {
    const d = await device();
    const first = await connect(d.headers, "companion");
    first.send({ type: "hello", client: { name: "daemon" } });
    await first.next("welcome");
    const call = request();
    first.send({ type: "tool_request", id: "r1", request: call });
    const { promptId } = await first.next("decision_pending");
    first.ws.close();
    await d.post(`/v1/approvals/${promptId}/approve`, { scope: "once" });
    const again = await connect(d.headers, "companion");
    again.send({ type: "hello", client: { name: "daemon" }, resume: [call.call_id] });
    const decision = await again.next("capability_decision");
    expect(decision.data).toMatchObject({ call_id: call.call_id, decision: "allow" });
    again.ws.close();
  });

  it("emergency changes reach every connected socket at once", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "c" } });
    await companion.next("welcome");
    await d.post("/v1/settings/emergency", { disableHighImpact: true });
    expect(await companion.next("emergency_updated")).toMatchObject({ data: { disableHighImpact: true } });
    companion.ws.close();
  });

  it("a high-risk allow over the socket without a token is refused", async () => {
    const d = await device();
    await d.decide(request({ tool: "bash", input: { command: "npm publish" } }));
    const [prompt] = await pendingPrompts(d.get);
    const dashboard = await connect(d.approver.headers, "approver");
    dashboard.send({
      type: "capability_decision",
      id: "x",
      promptId: prompt?.promptId,
      decision: "allow_once",
    });
    expect(await dashboard.next("response")).toMatchObject({ success: false });
    dashboard.ws.close();
  });
});
