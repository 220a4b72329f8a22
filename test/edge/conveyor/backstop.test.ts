// An approved proposal's run backstop (a wakeup a minute on, in case the instance dies mid-run) is withdrawn once
// the run has ended: the hub no longer wakes a minute after every executed proposal to read D1 for runs that had
// all finished (what the scale simulator saw as hub alarms and D1 reads landing in later windows). A run that
// did not end keeps its backstop.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeAuditBatch } from "../../../src/edge/audit/audit-log.ts";
import * as store from "../../../src/edge/conveyor/proposals.ts";
import { toolRegistry } from "../../../src/edge/conveyor/registry.ts";
import { ConveyorRuntime } from "../../../src/edge/conveyor/runtime.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { idempotency } from "../../../src/edge/db/schema.ts";
import { NO_EMERGENCY } from "../../../src/policy/index.ts";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { device } from "../approvals-helpers.ts";
import { newOwner, TARGET, testEgress, uniqueKey } from "./support.ts";

/**
 * A conveyor on real D1 and egress whose wakeups are recorded. `execute` of an approved proposal answers with the
 * run its approval started (shared while it runs), after the callbacks registered on it first: the withdrawal.
 */
function recordingConveyor(owner: string) {
  const db = openDb(env.DB);
  const asked: number[] = [];
  const withdrawn: number[] = [];
  const conveyor = new ConveyorRuntime({
    db,
    userId: () => owner,
    egress: testEgress(),
    registry: toolRegistry(),
    emergency: () => NO_EMERGENCY,
    grants: { match: async () => undefined, save: async () => undefined, used: async () => undefined },
    openPrompt: async () => undefined,
    newPromptId: () => `prm_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    wakeAt: async (at) => {
      asked.push(at);
    },
    withdrawWake: async (at) => {
      withdrawn.push(at);
    },
    announce: () => undefined,
    audit: (entries) => writeAuditBatch(db, entries),
  });
  return { conveyor, asked, withdrawn };
}

async function proposeAndApprove(
  c: ReturnType<typeof recordingConveyor>,
  owner: string,
  key: string,
): Promise<string> {
  const by = { kind: "api" as const, ref: null, deviceId: null, actor: "test" };
  const proposed = await c.conveyor.propose(
    {
      tool: "http.request",
      identity: "bot",
      idempotency_key: key,
      justification: "Backstop.",
      args: { method: "POST", url: `${TARGET}/effect?k=${key}` },
    },
    by,
  );
  if (!proposed.ok) throw new Error(proposed.message);
  expect(await store.byId(openDb(env.DB), owner, proposed.value.view.id)).toMatchObject({ state: "PENDING" });
  await c.conveyor.onResolved(proposed.value.view.id, "allow_once", { actor: "test", deviceId: null }, null);
  return proposed.value.view.id;
}

describe("the run backstop of an approved proposal", () => {
  it("is withdrawn, at the instant it was asked for, once the run has executed", async () => {
    const owner = await newOwner();
    const c = recordingConveyor(owner);
    const id = await proposeAndApprove(c, owner, uniqueKey("backstop-done"));
    const run = await c.conveyor.execute(id, "test");
    expect(run.ok && run.value.state).toBe("EXECUTED");
    expect(c.asked).toHaveLength(1);
    expect(c.withdrawn).toEqual(c.asked);
  });

  it("stays when the run did not end (its key is held by other arguments): the alarm still looks a minute on", async () => {
    const owner = await newOwner();
    const c = recordingConveyor(owner);
    const key = uniqueKey("backstop-held");
    await openDb(env.DB)
      .insert(idempotency)
      .values({
        ownerId: owner,
        toolName: "http.request",
        key,
        argsHash: "other-arguments",
        state: "dispatched",
        attempt: 1,
        leaseUntil: Date.now() + 60_000,
        startedAt: Date.now(),
      });
    const id = await proposeAndApprove(c, owner, key);
    const run = await c.conveyor.execute(id, "test");
    expect(run.ok).toBe(false);
    expect(c.asked).toHaveLength(1);
    expect(c.withdrawn).toEqual([]);
  });

  it("leaves the hub nothing to wake for: no conveyor wakeup, and its due alarm arms nothing after it", async () => {
    const d = await device();
    const key = uniqueKey("backstop-hub");
    const created = await d.companion.post("/v1/proposals", {
      tool: "http.request",
      identity: "bot",
      idempotency_key: key,
      justification: "Backstop.",
      args: { method: "POST", url: `${TARGET}/effect?k=${key}` },
    });
    const { proposal } = (await created.json()) as { proposal: ProposalView };
    expect((await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" })).status).toBe(200);
    const done = (await (await d.post(`/v1/proposals/${proposal.id}/execute`)).json()) as {
      proposal: ProposalView;
    };
    expect(done.proposal.state).toBe("EXECUTED");
    const wakeups = () =>
      runInDurableObject(
        d.hub,
        (_hub, state) =>
          state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM conveyor_wakeups").one().n,
      );
    expect(await wakeups()).toBe(0);
    // Whatever is armed now (the outbox's safety deadline) runs; after it nothing is left for a minute on,
    // where the backstop used to wake the hub.
    await runDurableObjectAlarm(d.hub);
    const alarm = await runInDurableObject(d.hub, (_hub, state) => state.storage.getAlarm());
    expect(alarm === null || alarm > Date.now() + 60 * 60_000).toBe(true);
    expect(await wakeups()).toBe(0);
  });
});
