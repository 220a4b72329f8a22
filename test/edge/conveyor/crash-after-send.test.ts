// No automatic re-send after a possible send (issue 22 §7): an approved http.request whose run crashed
// after dispatch is recovered as PARTIAL with remediation, and the target saw exactly one request; sending
// it again is a new proposal for a person, never the recovery's own decision.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeAuditBatch } from "../../../src/edge/audit/audit-log.ts";
import type { FaultPoint } from "../../../src/edge/conveyor/executor.ts";
import { declareTarget } from "../../../src/edge/conveyor/idempotent-targets.ts";
import * as store from "../../../src/edge/conveyor/proposals.ts";
import { toolRegistry } from "../../../src/edge/conveyor/registry.ts";
import { ConveyorRuntime } from "../../../src/edge/conveyor/runtime.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { NO_EMERGENCY } from "../../../src/policy/index.ts";
import { device as pairedDevice } from "../approvals-helpers.ts";
import { api } from "../helpers.ts";
import { auditOf, effectsOf, newOwner, TARGET, targetStats, testEgress, uniqueKey } from "./support.ts";

async function device() {
  const d = await pairedDevice();
  const send = (headers: Record<string, string>, method: string) => (path: string, json?: unknown) =>
    api(path, { method, headers, ...(json === undefined ? {} : { json }) });
  return {
    ...d,
    get: send(d.approver.headers, "GET"),
    put: send(d.approver.headers, "PUT"),
    del: send(d.approver.headers, "DELETE"),
    companion: { ...d.companion, put: send(d.companion.headers, "PUT") },
  };
}

class Crash extends Error {}

function conveyor(owner: string, now: () => number, fault?: (p: FaultPoint) => void) {
  const db = openDb(env.DB);
  return new ConveyorRuntime({
    db,
    userId: () => owner,
    egress: testEgress(),
    registry: toolRegistry(),
    emergency: () => NO_EMERGENCY,
    // No grant ever covers these proposals: the test is about the run after a person's approval.
    grants: { match: async () => undefined, save: async () => undefined, used: async () => undefined },
    openPrompt: async () => undefined,
    newPromptId: () => `prm_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    wakeAt: async () => undefined,
    announce: () => undefined,
    audit: (entries) => writeAuditBatch(db, entries),
    now,
    ...(fault ? { fault } : {}),
  });
}

describe("a crash after an http.request was sent", () => {
  it("ends PARTIAL with remediation and exactly one request at the target; a re-send needs a new approval", async () => {
    const owner = await newOwner();
    const key = uniqueKey("sent");
    const args = { method: "POST", url: `${TARGET}/effect?k=${key}`, json: { deploy: "v2" } };
    let clock = Date.now();
    const crashing = conveyor(
      owner,
      () => clock,
      (p) => {
        if (p === "after_effect") throw new Crash(p);
      },
    );
    const by = { kind: "api" as const, ref: null, deviceId: null, actor: "test" };
    const proposed = await crashing.propose(
      { tool: "http.request", identity: "bot", args, idempotency_key: key, justification: "Deploy." },
      by,
    );
    if (!proposed.ok) throw new Error(proposed.message);
    const id = proposed.value.view.id;
    expect(proposed.value.view.state).toBe("PENDING");
    // The person approved (what onResolved records), then the run crashed right after the request left.
    expect(await store.transition(openDb(env.DB), id, "PENDING", "APPROVED", { decidedAt: clock })).toBe(
      true,
    );
    await expect(crashing.execute(id, "system")).rejects.toThrow(Crash);

    // Later, the backstop alarm finds the approved proposal unfinished, its lease long gone.
    clock += 10 * 60_000;
    await conveyor(owner, () => clock).onAlarm();
    const row = await store.byId(openDb(env.DB), owner, id);
    const view = row ? store.proposalView(row) : undefined;
    expect(view).toMatchObject({
      state: "PARTIAL",
      envelope: { status: "partial", failure: { class: "partial_execution" } },
    });
    expect(view?.envelope?.failure?.remediation).toMatch(/new proposal .*new approval/);
    const sent = (await targetStats()).paths.filter((p) => p === `POST /effect?k=${key}`);
    expect(sent).toHaveLength(1);

    // Asking again with the same key answers the same PARTIAL proposal; nothing is sent.
    const again = await conveyor(owner, () => clock).propose(
      { tool: "http.request", identity: "bot", args, idempotency_key: key, justification: "Deploy." },
      by,
    );
    expect(again.ok && again.value).toMatchObject({ created: false, view: { id, state: "PARTIAL" } });
    // A re-send is a new proposal, and it waits for a person.
    const resend = await conveyor(owner, () => clock).propose(
      { tool: "http.request", identity: "bot", args, idempotency_key: `${key}-2`, justification: "Retry." },
      by,
    );
    expect(resend.ok && resend.value.view.state).toBe("PENDING");
    expect((await targetStats()).paths.filter((p) => p === `POST /effect?k=${key}`)).toHaveLength(1);
  });

  it("to a target the person declared idempotent, the recovery sends it again (the target deduplicates)", async () => {
    const owner = await newOwner();
    const key = uniqueKey("declared");
    const args = { method: "POST", url: `${TARGET}/effect?k=${key}`, json: { deploy: "v3" } };
    await declareTarget(openDb(env.DB), {
      userId: owner,
      tool: "http.request",
      target: new URL(TARGET).host,
      deviceId: null,
      now: Date.now(),
    });
    let clock = Date.now();
    const crashing = conveyor(
      owner,
      () => clock,
      (p) => {
        if (p === "after_effect") throw new Crash(p);
      },
    );
    const by = { kind: "api" as const, ref: null, deviceId: null, actor: "test" };
    const proposed = await crashing.propose(
      { tool: "http.request", identity: "bot", args, idempotency_key: key, justification: "Deploy." },
      by,
    );
    if (!proposed.ok) throw new Error(proposed.message);
    const id = proposed.value.view.id;
    expect(await store.transition(openDb(env.DB), id, "PENDING", "APPROVED", { decidedAt: clock })).toBe(
      true,
    );
    await expect(crashing.execute(id, "system")).rejects.toThrow(Crash);
    clock += 10 * 60_000;
    await conveyor(owner, () => clock).onAlarm();
    const row = await store.byId(openDb(env.DB), owner, id);
    expect(row?.state).toBe("EXECUTED");
    // Two requests reached the target, one effect: it honoured the Idempotency-Key, as declared.
    expect((await targetStats()).paths.filter((p) => p === `POST /effect?k=${key}`)).toHaveLength(2);
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
  });
});

describe("declaring a target idempotent", () => {
  it("is the person's: approvers list, declare and remove (audited), companions none of it; other tools are a 400", async () => {
    const d = await device();
    const host = "deploy.example.com";
    expect(
      (await d.companion.put("/v1/idempotent-targets", { tool: "http.request", target: host })).status,
    ).toBe(403);
    const declared = await d.put("/v1/idempotent-targets", {
      tool: "http.request",
      target: "Deploy.Example.com",
    });
    expect(declared.status).toBe(200);
    expect(((await declared.json()) as { targets: { target: string }[] }).targets).toEqual([
      expect.objectContaining({ tool: "http.request", target: host }),
    ]);
    expect((await d.put("/v1/idempotent-targets", { tool: "memory.note", target: host })).status).toBe(400);
    expect((await d.put("/v1/idempotent-targets", { tool: "http.request", target: "a b" })).status).toBe(400);
    // Like grants, the declared targets are the person's settings: a companion token cannot read them.
    expect((await d.companion.get("/v1/idempotent-targets")).status).toBe(403);
    const listed = await d.get("/v1/idempotent-targets");
    expect(((await listed.json()) as { targets: unknown[] }).targets).toHaveLength(1);
    const removed = await d.del(`/v1/idempotent-targets/http.request/${host}`);
    expect(((await removed.json()) as { targets: unknown[] }).targets).toEqual([]);
    const events = (await auditOf(d.userId)).map((r) => r.event);
    expect(events).toEqual(
      expect.arrayContaining(["conveyor.idempotent_target_declared", "conveyor.idempotent_target_removed"]),
    );
  });
});
