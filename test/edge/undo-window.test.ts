// The undo window lives on the hub: an answer sent with `undoMs` is checked at once, held until its commit-at
// time and settled by the alarm (the page may be gone by then); `undo_decision` cancels it before that.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HeldDecision } from "../../src/protocol/socket.ts";
import { type Device, device, pendingPrompts, request } from "./approvals-helpers.ts";
import { connect } from "./socket-client.ts";

async function dashboardOf(d: Device) {
  const socket = await connect(d.approver.headers, "approver");
  socket.send({ type: "hello", client: { name: "dashboard" } });
  await socket.next("welcome");
  return socket;
}

/** A read call waiting for a person, its prompt id. */
async function pendingRead(d: Device): Promise<{ callId: string; promptId: string }> {
  const call = request();
  const res = await d.decide(call);
  expect(res.status).toBe(202);
  const [prompt] = await pendingPrompts(d.get);
  if (!prompt) throw new Error("no prompt");
  return { callId: call.call_id, promptId: prompt.promptId };
}

/** Moves every held answer's commit time into the past and runs the alarm, as if the window ran out. */
async function windowRunsOut(d: Device): Promise<void> {
  await runInDurableObject(d.hub, (_hub, state) => {
    state.storage.sql.exec("UPDATE held_decisions SET commit_at = ?", Date.now() - 1);
  });
  await runDurableObjectAlarm(d.hub);
}

async function decisionOf(d: Device, callId: string) {
  const res = await d.get(`/v1/decisions/${callId}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the undo window on the hub", () => {
  it("holds an always-answer until commit-at, then settles it with the socket gone", async () => {
    const d = await device();
    const { callId, promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    const before = Date.now();
    dashboard.send({
      type: "capability_decision",
      id: "a1",
      promptId,
      decision: "allow_always",
      undoMs: 5_000,
    });
    const reply = await dashboard.next("response");
    expect(reply).toMatchObject({ id: "a1", success: true });
    const held = HeldDecision.parse(reply.data);
    expect(held.decision).toBe("allow_always");
    const commitAt = Date.parse(held.commitAt);
    expect(commitAt).toBeGreaterThanOrEqual(before + 5_000);
    // Held: the call still waits, no grant exists yet.
    expect((await decisionOf(d, callId)).status).toBe(202);
    expect(((await (await d.get("/v1/grants")).json()) as { grants: unknown[] }).grants).toHaveLength(0);
    // The page closes inside the window; the answer is already on the hub.
    dashboard.ws.close();
    await windowRunsOut(d);
    const decided = await decisionOf(d, callId);
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ decision: "allow", resolution: "allow_always" });
    expect(((await (await d.get("/v1/grants")).json()) as { grants: unknown[] }).grants).toHaveLength(1);
  });

  it("arms the alarm for the commit-at time", async () => {
    const d = await device();
    const { promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_session", undoMs: 4_000 });
    const held = HeldDecision.parse((await dashboard.next("response")).data);
    const alarm = await runInDurableObject(d.hub, (_hub, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(held.commitAt));
    dashboard.ws.close();
  });

  it("undo cancels a held answer: the prompt stays open and answerable, nothing settles at commit-at", async () => {
    const d = await device();
    const { callId, promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    await dashboard.next("response");
    dashboard.send({ type: "undo_decision", id: "u1", promptId });
    expect(await dashboard.next("response")).toMatchObject({
      id: "u1",
      command: "undo_decision",
      success: true,
    });
    await windowRunsOut(d);
    expect((await decisionOf(d, callId)).status).toBe(202);
    expect(await pendingPrompts(d.get)).toHaveLength(1);
    // Undoing twice finds nothing to undo.
    dashboard.send({ type: "undo_decision", id: "u2", promptId });
    expect(await dashboard.next("response")).toMatchObject({ id: "u2", success: false, code: "conflict" });
    dashboard.send({ type: "capability_decision", id: "d", promptId, decision: "deny_once" });
    expect(await dashboard.next("response")).toMatchObject({ id: "d", success: true });
    expect((await decisionOf(d, callId)).body).toMatchObject({ decision: "deny" });
    dashboard.ws.close();
  });

  it("undo after the commit is refused as too late, and the answer stands", async () => {
    const d = await device();
    const { callId, promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    await dashboard.next("response");
    await windowRunsOut(d);
    dashboard.send({ type: "undo_decision", id: "late", promptId });
    const refused = await dashboard.next("response");
    expect(refused).toMatchObject({ id: "late", success: false, code: "conflict" });
    expect(refused.error).toMatch(/Too late to undo/);
    expect((await decisionOf(d, callId)).body).toMatchObject({ resolution: "allow_always" });
    dashboard.ws.close();
  });

  it("checks the answer when it arrives: a refused one is refused at once and nothing is held", async () => {
    const d = await device();
    const { promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({
      type: "capability_decision",
      id: "bad",
      promptId,
      decision: "allow_always",
      pattern: "rm -rf *",
      undoMs: 5_000,
    });
    expect(await dashboard.next("response")).toMatchObject({
      id: "bad",
      success: false,
      code: "validation_failed",
    });
    const held = await runInDurableObject(d.hub, (_hub, state) =>
      state.storage.sql.exec("SELECT count(*) AS n FROM held_decisions").one(),
    );
    expect(held.n).toBe(0);
    dashboard.ws.close();
  });

  it("the same answer sent again keeps its window; a different one is refused until undone", async () => {
    const d = await device();
    const { promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    const first = HeldDecision.parse((await dashboard.next("response")).data);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    const again = HeldDecision.parse((await dashboard.next("response")).data);
    expect(again.commitAt).toBe(first.commitAt);
    dashboard.send({ type: "capability_decision", promptId, decision: "deny_always", undoMs: 5_000 });
    expect(await dashboard.next("response")).toMatchObject({ success: false, code: "conflict" });
    dashboard.ws.close();
  });

  it("a window past the prompt's deadline is cut short; one that would end at once settles at once", async () => {
    const d = await device();
    const { callId, promptId } = await pendingRead(d);
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET expires_at = ?", Date.now() + 800);
    });
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    const reply = await dashboard.next("response");
    expect(reply.success).toBe(true);
    expect(HeldDecision.safeParse(reply.data).success).toBe(false);
    expect((await decisionOf(d, callId)).body).toMatchObject({ resolution: "allow_always" });
    dashboard.ws.close();
  });

  it("an answer made elsewhere during the window stands; the held one is dropped at commit-at", async () => {
    const d = await device();
    const { callId, promptId } = await pendingRead(d);
    const dashboard = await dashboardOf(d);
    dashboard.send({ type: "capability_decision", promptId, decision: "allow_always", undoMs: 5_000 });
    await dashboard.next("response");
    const rejected = await d.post(`/v1/approvals/${promptId}/reject`, {});
    expect(rejected.status).toBe(200);
    await windowRunsOut(d);
    expect((await decisionOf(d, callId)).body).toMatchObject({ decision: "deny", resolution: "deny_once" });
    expect(((await (await d.get("/v1/grants")).json()) as { grants: unknown[] }).grants).toHaveLength(0);
    dashboard.ws.close();
  });

  it("a companion may not hold or undo answers", async () => {
    const d = await device();
    const { promptId } = await pendingRead(d);
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "c" } });
    await companion.next("welcome");
    companion.send({ type: "undo_decision", id: "x", promptId });
    expect(await companion.next("error")).toMatchObject({ code: "forbidden" });
    companion.ws.close();
  });
});
