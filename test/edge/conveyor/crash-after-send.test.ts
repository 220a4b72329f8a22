// No automatic re-send after a possible send (issue 22 §7): an approved http.request whose run crashed
// after dispatch is recovered as PARTIAL with remediation, and the target saw exactly one request; sending
// it again is a new proposal for a person, never the recovery's own decision.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeAuditBatch } from "../../../src/edge/audit/audit-log.ts";
import type { FaultPoint } from "../../../src/edge/conveyor/executor.ts";
import * as store from "../../../src/edge/conveyor/proposals.ts";
import { toolRegistry } from "../../../src/edge/conveyor/registry.ts";
import { ConveyorRuntime } from "../../../src/edge/conveyor/runtime.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { NO_EMERGENCY } from "../../../src/policy/index.ts";
import { newOwner, TARGET, targetStats, testEgress, uniqueKey } from "./support.ts";

class Crash extends Error {}

function conveyor(owner: string, now: () => number, fault?: (p: FaultPoint) => void) {
  const db = openDb(env.DB);
  return new ConveyorRuntime({
    db,
    userId: () => owner,
    egress: testEgress(),
    registry: toolRegistry(),
    emergency: () => NO_EMERGENCY,
    openPrompt: async () => `prm_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
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
});
