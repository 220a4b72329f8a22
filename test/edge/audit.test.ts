// Audit: policy.decision fields, filters, cursor pagination, NDJSON export, and no raw secret stored anywhere.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";

const SECRET = "sk_live_51HcQeLkT0pSecretValue9876543210";

describe("policy.decision audit", () => {
  it("records prompt id, call ids, agent, capability, decision, mode, risk, scope hashes and who decided", async () => {
    const d = await device();
    const call = request({ tool: "write", input: { path: "/work/repo/src/app.ts", content: "x" } });
    await d.decide(call);
    const [prompt] = await pendingPrompts(d.get);
    await d.post(`/v1/approvals/${prompt?.promptId}/reject`, { scope: "once" });
    const res = await d.get("/v1/audit?event=policy.decision");
    const { events } = (await res.json()) as {
      events: { details: Record<string, unknown>; actor: string; device_id: string }[];
    };
    const event = events.find((e) => e.details.prompt_id === prompt?.promptId);
    expect(event?.details).toMatchObject({
      prompt_id: prompt?.promptId,
      call_ids: [call.call_id],
      agent_id: "claude-code",
      capability: "write",
      decision: "deny_once",
      policy_mode: "prompt",
      // A write inside the workspace is a reversible scoped write: medium (the rubric).
      risk: "medium",
      decided_by: `device:${d.approver.deviceId}`,
      device_id: d.approver.deviceId,
    });
    expect((event?.details.scope_hashes as string[] | undefined)?.[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(event?.actor).toBe(`device:${d.approver.deviceId}`);
  });

  it("never stores a raw secret from a tool call in D1 or the hub", async () => {
    const d = await device();
    await d.decide(
      request({
        tool: "bash",
        input: {
          command: `curl -H "Authorization: Bearer ${SECRET}" https://api.example.com/charge?key=${SECRET}`,
        },
      }),
    );
    await d.decide(
      request({ tool: "webfetch", input: { url: `https://api.example.com/v1?token=${SECRET}` } }),
    );
    const [prompt] = await pendingPrompts(d.get);
    await d.post(`/v1/approvals/${prompt?.promptId}/reject`, { scope: "always" });
    const tables = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'",
    ).all<{ name: string }>();
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      expect(JSON.stringify(rows.results), `D1 table ${name}`).not.toContain(SECRET);
    }
    const hubRows = await runInDurableObject(d.hub, (_hub, state) => {
      const names = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%'")
        .toArray();
      return names.map(({ name }) =>
        JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()),
      );
    });
    for (const rows of hubRows) expect(rows).not.toContain(SECRET);
    const approvals = await (await d.get("/v1/approvals?status=resolved")).text();
    expect(approvals).not.toContain(SECRET);
  });
});

describe("GET /v1/audit", () => {
  it("filters by agent and decision, paginates with a cursor, and exports NDJSON with redaction markers", async () => {
    const d = await device();
    await d.post("/v1/settings/emergency", { blockedTools: ["deploy.prod"] });
    for (let i = 0; i < 5; i++) {
      await d.decide(
        request({ agent: { id: `agent-${i % 2}`, name: "A" }, tool: "deploy.prod", input: { i } }),
      );
    }
    const filtered = (await (await d.get("/v1/audit?agent=agent-0&decision=deny")).json()) as {
      events: unknown[];
    };
    expect(filtered.events).toHaveLength(3);

    const page1 = (await (await d.get("/v1/audit?event=policy.decision&limit=2")).json()) as {
      events: { id: string }[];
      next_cursor: string;
    };
    expect(page1.events).toHaveLength(2);
    const page2 = (await (
      await d.get(`/v1/audit?event=policy.decision&limit=2&cursor=${page1.next_cursor}`)
    ).json()) as {
      events: { id: string }[];
      next_cursor: string | null;
    };
    expect(page2.events).toHaveLength(2);
    expect(page2.events.map((e) => e.id)).not.toContain(page1.events[0]?.id);
    const page3 = (await (
      await d.get(`/v1/audit?event=policy.decision&limit=2&cursor=${page2.next_cursor}`)
    ).json()) as {
      events: unknown[];
      next_cursor: string | null;
    };
    expect(page3.events).toHaveLength(1);
    expect(page3.next_cursor).toBeNull();

    const ndjson = await d.get("/v1/audit?format=ndjson&event=policy.decision");
    expect(ndjson.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await ndjson.text()).trim().split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ redaction: { applied: true, marker: "<redacted>" } });
  });

  it("filters by time range", async () => {
    const d = await device();
    await d.post("/v1/settings/emergency", { readOnly: true });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = (await (await d.get(`/v1/audit?from=${future}`)).json()) as { events: unknown[] };
    expect(none.events).toHaveLength(0);
    const past = new Date(Date.now() - 3600_000).toISOString();
    const some = (await (await d.get(`/v1/audit?from=${past}&event=emergency.changed`)).json()) as {
      events: unknown[];
    };
    expect(some.events.length).toBeGreaterThan(0);
  });

  it("rejects a bad cursor and a bad date with 400", async () => {
    const d = await device();
    expect((await d.get("/v1/audit?cursor=%%%")).status).toBe(400);
    expect((await d.get("/v1/audit?from=yesterday")).status).toBe(400);
  });

  it("accepts a companion's local decisions", async () => {
    const d = await device();
    const res = await d.post("/v1/audit/events", {
      events: [
        {
          call_id: "local-1",
          session_id: "s",
          agent_id: "pi",
          tool: "read",
          capability: "read",
          risk: "medium",
          action: "allow",
          layer: "user",
          rule: "Reads > project",
          scope_hash: "a".repeat(64),
          at: new Date().toISOString(),
        },
      ],
    });
    expect(res.status).toBe(202);
    const { events } = (await (await d.get("/v1/audit?agent=pi")).json()) as {
      events: { details: unknown }[];
    };
    // An event without policy_mode (an older companion) reads as prompt.
    expect(events[0]?.details).toMatchObject({ policy_mode: "prompt", rule: "Reads > project" });
    expect((await d.post("/v1/audit/events", { events: [{ call_id: "x" }] })).status).toBe(400);
  });
});
