// Settling a prompt is atomic: the hub's state and its outbox rows commit together, and the alarm drains
// the outbox to D1 with retries. D1 failing mid-settle loses nothing and writes nothing twice.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { answerFirst, type Device, device, request } from "./approvals-helpers.ts";

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  return (
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n ?? 0
  );
}

const outboxRows = (d: Device) =>
  runInDurableObject(d.hub, (_hub, state) =>
    state.storage.sql.exec<{ kind: string; attempts: number }>("SELECT kind, attempts FROM outbox").toArray(),
  );

/** Makes the outbox rows due now and runs the alarm (the retry a real alarm would make later). */
async function retryNow(d: Device) {
  await runInDurableObject(d.hub, (_hub, state) => {
    state.storage.sql.exec("UPDATE outbox SET next_attempt_at = ?", Date.now() - 1);
  });
  return runDurableObjectAlarm(d.hub);
}

describe("the outbox", () => {
  it("D1 refusing the audit mid-settle: the answer and the grant stand, the audit arrives once on retry", async () => {
    const d = await device();
    const call = request({ input: { path: "/work/repo/src/a.ts" } });
    await d.decide(call);
    // D1 loses the audit table while the person answers.
    await env.DB.exec("ALTER TABLE audit_log RENAME TO audit_log_away");
    try {
      const { prompt, res } = await answerFirst(d, "approve", { scope: "always" });
      expect(res.status).toBe(200);
      expect(await (await d.get(`/v1/decisions/${call.call_id}`)).json()).toMatchObject({
        decision: "allow",
      });
      // The grant went to D1 (its own row); the audit rows (the decision, the grant's creation) wait in the
      // outbox, each counted as one failed attempt.
      expect(await count("SELECT count(*) AS n FROM grants WHERE user_id = ?", d.userId)).toBe(1);
      expect(await outboxRows(d)).toEqual([
        { kind: "audit", attempts: 1 },
        { kind: "audit", attempts: 1 },
      ]);
      // The hub keeps answering from its own state meanwhile.
      expect(
        await (await d.decide(request({ input: { path: "/work/repo/src/a.ts" } }))).json(),
      ).toMatchObject({
        source: "grant",
      });
      await env.DB.exec("ALTER TABLE audit_log_away RENAME TO audit_log");
      await retryNow(d);
      await retryNow(d);
      expect(await outboxRows(d)).toEqual([]);
      const resolutions = `SELECT count(*) AS n FROM audit_log WHERE user_id = ? AND target = ? AND event = 'policy.decision'`;
      expect(await count(resolutions, d.userId, prompt.promptId)).toBe(1);
      expect(await count("SELECT count(*) AS n FROM grants WHERE user_id = ?", d.userId)).toBe(1);
    } finally {
      await env.DB.exec("ALTER TABLE audit_log_away RENAME TO audit_log").catch(() => undefined);
    }
  });

  it("D1 refusing the grant: it reaches D1 exactly once when D1 is back, and the hub never lost it", async () => {
    const d = await device();
    await d.decide(request({ tool: "bash", input: { command: "npm test" } }));
    await env.DB.exec("ALTER TABLE grants RENAME TO grants_away");
    try {
      const { res } = await answerFirst(d, "approve", { scope: "always" });
      expect(res.status).toBe(200);
      expect((await outboxRows(d)).map((r) => r.kind)).toEqual(["grant.add"]);
      expect(
        await (await d.decide(request({ tool: "bash", input: { command: "npm test" } }))).json(),
      ).toMatchObject({
        decision: "allow",
        source: "grant",
      });
      await env.DB.exec("ALTER TABLE grants_away RENAME TO grants");
      // Retried twice: the second drain finds nothing left, and the first wrote the row once.
      await retryNow(d);
      await retryNow(d);
      expect(await outboxRows(d)).toEqual([]);
      expect(await count("SELECT count(*) AS n FROM grants WHERE user_id = ?", d.userId)).toBe(1);
      const listed = (await (await d.get("/v1/grants")).json()) as { grants: unknown[] };
      expect(listed.grants).toHaveLength(1);
    } finally {
      await env.DB.exec("ALTER TABLE grants_away RENAME TO grants").catch(() => undefined);
    }
  });

  it("a drain that ran after D1 took a row writes it no second time (idempotent by row id)", async () => {
    const d = await device();
    await d.decide(request({ tool: "bash", input: { command: "make" } }));
    await answerFirst(d, "reject", { scope: "once" });
    // Put the already-sent rows back, as if the hub had died between D1's write and the outbox delete.
    await d.get("/v1/audit");
    const sent = await env.DB.prepare("SELECT * FROM audit_log WHERE user_id = ?")
      .bind(d.userId)
      .all<Record<string, unknown>>();
    expect(sent.results.length).toBeGreaterThan(0);
    await runInDurableObject(d.hub, (_hub, state) => {
      for (const row of sent.results) {
        const item = {
          kind: "audit",
          row: {
            id: row.id,
            at: row.at,
            userId: row.user_id,
            deviceId: row.device_id,
            actor: row.actor,
            event: row.event,
            target: row.target,
            agentId: row.agent_id,
            decision: row.decision,
            details: row.details,
          },
        };
        state.storage.sql.exec(
          "INSERT INTO outbox (id, kind, payload, created_at, attempts, next_attempt_at) VALUES (?, 'audit', ?, ?, 0, ?)",
          `obx_replay_${String(row.id)}`,
          JSON.stringify(item),
          Date.now(),
          Date.now() - 1,
        );
      }
    });
    await runDurableObjectAlarm(d.hub);
    expect(await outboxRows(d)).toEqual([]);
    expect(await count("SELECT count(*) AS n FROM audit_log WHERE user_id = ?", d.userId)).toBe(
      sent.results.length,
    );
  });
});
