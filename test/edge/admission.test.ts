// Admission control in the hub: budgets per socket and device (retry hints, then 1008), the person's lane
// ahead of a companion's flood, and revocation dropping the device's queued work at once.
import { describe, expect, it } from "vitest";
import { Admission, BUDGETS, TokenBucket } from "../../src/edge/hub/admission.ts";
import {
  COMPANION_CONCURRENCY,
  HubLanes,
  LaneDropped,
  LaneFull,
  MAX_QUEUED_PER_DEVICE,
} from "../../src/edge/hub/lanes.ts";
import { CLOSE_CODES } from "../../src/protocol/socket.ts";
import { device, request } from "./approvals-helpers.ts";
import { connect } from "./socket-client.ts";

describe("token buckets", () => {
  it("admits a burst, then the rate; says how long to wait", () => {
    const bucket = new TokenBucket({ rate: 10, burst: 3 }, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(bucket.waitMs(0)).toBe(100);
    expect(bucket.take(99)).toBe(false);
    expect(bucket.take(100)).toBe(true);
  });

  it("one flooding socket gets its burst, retry hints, then is closed with 1008", () => {
    const admission = new Admission();
    const socket = {};
    const verdicts = Array.from({ length: 2_000 }, () => admission.admitSocket(socket, "dev_a", 1_000));
    const admitted = verdicts.filter((v) => v.ok).length;
    const hinted = verdicts.filter((v) => !v.ok && "retryAfterMs" in v);
    const closeAt = verdicts.findIndex((v) => !v.ok && "close" in v);
    expect(admitted).toBe(BUDGETS.socket.burst);
    expect(hinted.length).toBe(BUDGETS.strikes.burst);
    expect(hinted[0]).toMatchObject({ retryAfterMs: 1000 / BUDGETS.socket.rate, scope: "socket" });
    expect(verdicts[closeAt]).toMatchObject({ close: { code: CLOSE_CODES.policy_violation } });
    // Another socket of the same device still gets its own burst (the device budget is larger).
    expect(admission.admitSocket({}, "dev_a", 1_000).ok).toBe(true);
  });

  it("many sockets of one device share the device's budget", () => {
    const admission = new Admission();
    let admitted = 0;
    for (let s = 0; s < 50; s++) {
      const socket = {};
      for (let i = 0; i < BUDGETS.socket.burst; i++)
        if (admission.admitSocket(socket, "dev_b", 0).ok) admitted++;
    }
    expect(admitted).toBe(BUDGETS.device.burst);
    expect(admission.admitDevice("dev_b", 0)).toMatchObject({ ok: false, scope: "device" });
    expect(admission.admitDevice("dev_c", 0).ok).toBe(true);
  });
});

describe("lanes", () => {
  it("the person's work starts before any queued companion work", async () => {
    const lanes = new HubLanes();
    const order: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const flood = Array.from({ length: 100 }, (_, i) =>
      lanes.companion("dev_flood", async () => {
        await gate;
        order.push(`c${i}`);
      }),
    );
    const person = lanes.person(async () => {
      order.push("person");
    });
    await person;
    release();
    await Promise.all(flood);
    expect(order[0]).toBe("person");
    expect(order).toHaveLength(101);
  });

  it("serves devices round-robin, bounds each queue, and drops a revoked device's queue", async () => {
    const lanes = new HubLanes();
    const order: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // Fill the running slots so later items queue.
    const blockers = Array.from({ length: COMPANION_CONCURRENCY }, () =>
      lanes.companion("dev_busy", () => gate),
    );
    const a = Array.from({ length: 3 }, (_, i) => lanes.companion("dev_a", async () => order.push(`a${i}`)));
    const b = Array.from({ length: 3 }, (_, i) => lanes.companion("dev_b", async () => order.push(`b${i}`)));
    const doomed = Array.from({ length: MAX_QUEUED_PER_DEVICE }, () =>
      lanes.companion("dev_x", async () => 1),
    );
    await expect(lanes.companion("dev_x", async () => 1)).rejects.toBeInstanceOf(LaneFull);
    expect(lanes.drop("dev_x", "device revoked")).toBe(MAX_QUEUED_PER_DEVICE);
    const dropped = await Promise.allSettled(doomed);
    expect(dropped.every((r) => r.status === "rejected" && r.reason instanceof LaneDropped)).toBe(true);
    release();
    await Promise.all([...blockers, ...a, ...b]);
    expect(order).toEqual(["a0", "b0", "a1", "b1", "a2", "b2"]);
  });
});

describe("the hub under a companion's flood", () => {
  it("the person's emergency switch lands while the flood is throttled; revoke drops the rest", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "flooder" } });
    await companion.next("welcome");
    const approver = await connect(d.approver.headers, "approver");
    approver.send({ type: "hello", client: { name: "phone" } });
    await approver.next("welcome");

    const FLOOD = 1_500;
    for (let i = 0; i < FLOOD; i++) {
      const call = request({ input: { path: `/work/repo/flood/${i}.ts` } });
      companion.send({ type: "tool_request", id: `f${i}`, request: call });
    }
    const switched = await d.post("/v1/settings/emergency", { readOnly: true });
    expect(switched.status).toBe(200);
    await approver.next("emergency_updated");
    // The switch was applied while the flood was still being worked through: fewer answers than messages.
    const answered = () =>
      companion.received.filter((m) => m.type === "capability_decision" || m.type === "decision_pending")
        .length;
    expect(answered()).toBeLessThan(FLOOD);

    const closed = await companion.closed;
    expect(closed.code).toBe(CLOSE_CODES.policy_violation);
    const limited = companion.received.filter((m) => m.type === "error" && m.code === "rate_limited");
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ details: { retryAfterMs: expect.any(Number), scope: "socket" } });
    // No more than the socket's burst (plus its refill while the flood lasted) was ever admitted.
    expect(answered()).toBeLessThan(BUDGETS.socket.burst * 2);
  }, 60_000);

  it("a flood's messages are refused before they are read: past the budget even unreadable ones get the hint", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "flooder" } });
    await companion.next("welcome");
    // Pings are answered at once; the hello above took one token.
    for (let i = 1; i < BUDGETS.socket.burst; i++) companion.send({ type: "ping", id: `p${i}` });
    for (let i = 1; i < BUDGETS.socket.burst; i++) await companion.next("pong");
    // The bucket is empty (bar its refill meanwhile): text that is not JSON is now refused for the budget,
    // not read and answered invalid_json, and a refused ping's hint still names its id.
    const late = new Promise<{ type: string; code?: string }>((resolve) =>
      companion.ws.addEventListener("message", (event) => {
        const m = JSON.parse(String(event.data));
        if (m.id === "late") resolve(m);
      }),
    );
    for (let i = 0; i < 30; i++) companion.ws.send("{ not json");
    companion.send({ type: "ping", id: "late" });
    // Answered in order: whatever names "late" comes after the thirty.
    const last = await late;
    const errors = () => companion.received.filter((m) => m.type === "error");
    const codes = errors().map((m) => (m.type === "error" ? m.code : ""));
    expect(codes.filter((c) => c === "rate_limited").length).toBeGreaterThan(20);
    // Refilled tokens admit a few of them, which are read and answered invalid_json.
    expect(codes.filter((c) => c === "invalid_json").length).toBeLessThan(10);
    // Unless the bucket refilled by then, the ping's hint names it.
    if (last.type === "error") expect(last).toMatchObject({ code: "rate_limited" });
  }, 30_000);

  it("revoking a device closes its sockets at once and its queued calls never run", async () => {
    const d = await device();
    const sockets = await Promise.all([connect(d.headers, "companion"), connect(d.headers, "companion")]);
    for (const s of sockets) {
      s.send({ type: "hello", client: { name: "victim" } });
      await s.next("welcome");
    }
    for (const [n, s] of sockets.entries())
      for (let i = 0; i < 30; i++)
        s.send({
          type: "tool_request",
          id: `q${n}-${i}`,
          request: request({ input: { path: `/r/${n}/${i}` } }),
        });
    const revoked = await d.post(`/v1/devices/${d.deviceId}/revoke`);
    expect(revoked.status).toBe(200);
    const closes = await Promise.all(sockets.map((s) => s.closed));
    expect(closes.map((c) => c.code)).toEqual([CLOSE_CODES.revoked, CLOSE_CODES.revoked]);
    const pending = (await (await d.get("/v1/approvals?status=pending")).json()) as {
      approvals: { callIds: string[] }[];
    };
    const stored = pending.approvals.reduce((n, p) => n + p.callIds.length, 0);
    // A few calls were answered before the revoke; the queued rest never reached the prompt queue.
    expect(stored).toBeLessThan(60);
  });
});
