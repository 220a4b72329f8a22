// Which user a UserHub belongs to: its Durable Object name (the Worker names each hub by user id), recorded once
// so an alarm that wakes an object without its name (a cold start after a restart) still knows the user.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";

const storedUser = (sql: SqlStorage) =>
  sql.exec<{ value: string }>(`SELECT value FROM hub_meta WHERE key = 'user_id'`).toArray()[0]?.value;

describe("a hub's user", () => {
  it("is its name, recorded before any call names a caller", async () => {
    const userId = `usr_identity_${crypto.randomUUID().slice(0, 8)}`;
    const hub = env.USER_HUB.get(env.USER_HUB.idFromName(userId));
    expect(await hub.connectionCounts()).toEqual({ companion: 0, approver: 0 });
    await runInDurableObject(hub, (_instance, state) => {
      expect(state.id.name).toBe(userId);
      expect(storedUser(state.storage.sql)).toBe(userId);
    });
  });

  it("survives eviction: a prompt that times out on the alarm alone is audited under the user", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    await runInDurableObject(d.hub, (_instance, state) => {
      state.storage.sql.exec("UPDATE prompts SET expires_at = ?", Date.now() - 1);
    });
    await evictDurableObject(d.hub);
    expect(await runDurableObjectAlarm(d.hub)).toBe(true);
    await runInDurableObject(d.hub, (_instance, state) => {
      expect(storedUser(state.storage.sql)).toBe(d.userId);
    });
    await d.get("/v1/audit");
    const rows = await env.DB.prepare(
      "SELECT user_id, decision FROM audit_log WHERE event = 'policy.decision' AND target = ?",
    )
      .bind(prompt?.promptId ?? "")
      .all<{ user_id: string; decision: string }>();
    expect(rows.results).toEqual([{ user_id: d.userId, decision: "deny_timeout" }]);
  });
});
