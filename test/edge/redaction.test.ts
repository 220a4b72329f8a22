// A secret planted in every field of a call never reaches a store: D1, the hub's SQLite, API answers,
// the NDJSON export or the log. Identifiers that look like credentials are refused instead of stored.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DecisionRequest } from "../../src/protocol/decisions.ts";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";
import { connect } from "./socket-client.ts";

const SECRETS = {
  stripe: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  github: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
  slack: "xoxb-1234567890-abcdefghijklmnop",
  aws: "AKIAIOSFODNN7EXAMPLE",
  mysql: "MysqlS3cretPw",
  curl: "CurlS3cretPw",
  apiKey: "ApiKeyS3cretValue",
  bearer: "BearerS3cretTokenValue",
  json: "JsonS3cretPassword",
  cookie: "CookieS3cretValue",
  urlUser: "UrlUserS3cret",
  urlQuery: "UrlQueryS3cret",
  source: "SourceS3cretToken",
};

const command = [
  `mysql -u root -p${SECRETS.mysql} app -e 'select 1'`,
  `curl -u alice:${SECRETS.curl} -H 'X-Api-Key: ${SECRETS.apiKey}' -H 'Authorization: Bearer ${SECRETS.bearer}'`,
  `-H 'Cookie: session=${SECRETS.cookie}' -d '{"password": "${SECRETS.json}"}' https://api.example/v1`,
  `&& STRIPE=${SECRETS.stripe} GH=${SECRETS.github} deploy --slack ${SECRETS.slack} --aws ${SECRETS.aws}`,
].join(" ");

function plantedCalls(): DecisionRequest[] {
  const agent = {
    id: "claude-code",
    name: "Claude Code",
    version: "2.1.0",
    source: `https://ext.example/pkg?token=${SECRETS.source}`,
  };
  const local = {
    action: "ask" as const,
    rule: `local rule ${SECRETS.stripe}`,
    capability: "exec" as const,
    risk: "high" as const,
  };
  return [
    request({ agent, tool: "bash", input: { command }, local }),
    request({
      agent,
      tool: "custom_tool",
      input: { password: SECRETS.json, note: `Bearer ${SECRETS.bearer}`, key: SECRETS.aws },
    }),
    request({
      agent,
      tool: "webfetch",
      input: { url: `https://bob:${SECRETS.urlUser}@api.example/x?api_key=${SECRETS.urlQuery}` },
    }),
    request({ agent, tool: "read", input: { path: `/work/repo/.env.${SECRETS.github}` } }),
  ];
}

async function d1Text(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    parts.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results));
  }
  return parts.join("\n");
}

async function hubText(hub: DurableObjectStub): Promise<string> {
  return runInDurableObject(hub, (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%'")
      .toArray();
    return tables
      .map(({ name }) => JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()))
      .join("\n");
  });
}

let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

function expectClean(where: string, text: string) {
  for (const [name, secret] of Object.entries(SECRETS)) {
    expect(text.includes(secret), `${name} leaked into ${where}`).toBe(false);
  }
}

describe("redaction wherever Airlock stores text", () => {
  it("refuses identifiers that carry a credential, storing nothing", async () => {
    const d = await device();
    const fields: Partial<DecisionRequest>[] = [
      { call_id: `call-${SECRETS.github}` },
      { session_id: `s-${SECRETS.slack}` },
      { tool: `mcp__x__${SECRETS.stripe}` },
      { agent: { id: SECRETS.aws, name: "x" } },
      { agent: { id: "a", name: `Bearer ${SECRETS.bearer}` } },
      { agent: { id: "a", name: "a", version: SECRETS.github } },
    ];
    for (const field of fields) {
      const res = await d.decide(request(field));
      expect(res.status, JSON.stringify(field)).toBe(400);
    }
    expectClean("D1", await d1Text());
    expectClean("the hub", await hubText(d.hub));
  });

  it("masks every planted secret in D1, the hub, API answers, the NDJSON export and the log", async () => {
    const d = await device();
    const answers: string[] = [];
    for (const call of plantedCalls()) {
      const res = await d.decide(call);
      expect([200, 202], await res.clone().text()).toContain(res.status);
      answers.push(await res.text());
    }
    // The same over the socket, and a local decision reported for the audit log.
    const socket = await connect(d.headers);
    const [first] = plantedCalls();
    socket.send({ type: "tool_request", id: "s", request: { ...first, call_id: "socket-call" } });
    answers.push(JSON.stringify(await socket.next("decision_pending")));
    socket.ws.close();
    const local = await d.companion.post("/v1/audit/events", {
      events: [
        {
          call_id: `local-${SECRETS.github}`,
          session_id: "session-1",
          agent_id: "claude-code",
          tool: `bash ${SECRETS.stripe}`,
          capability: "exec",
          risk: "high",
          action: "allow",
          layer: "user",
          rule: `allow ${SECRETS.slack}`,
          scope_hash: "0".repeat(64),
          at: new Date().toISOString(),
        },
      ],
    });
    expect(local.status).toBe(202);

    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET opens_at = ?", Date.now() - 1);
    });
    await runDurableObjectAlarm(d.hub);
    const pending = await pendingPrompts(d.approver.get);
    expect(pending.length).toBeGreaterThan(0);
    answers.push(await (await d.approver.get("/v1/approvals?status=pending")).text());
    for (const prompt of pending) {
      const token = (await (await d.approver.post(`/v1/approvals/${prompt.promptId}/confirm`)).json()) as {
        token?: string;
      };
      const res = await d.approver.post(`/v1/approvals/${prompt.promptId}/approve`, {
        scope: "always",
        ...(token.token ? { confirmation_token: token.token } : {}),
      });
      answers.push(await res.text());
    }
    answers.push(await (await d.approver.get("/v1/approvals?status=resolved")).text());
    answers.push(await (await d.approver.get("/v1/grants")).text());
    answers.push(await (await d.approver.get("/v1/audit")).text());
    const ndjson = await (await d.approver.get("/v1/audit?format=ndjson&limit=1000")).text();
    expect(ndjson).toContain("<redacted>");

    expectClean("API answers", answers.join("\n"));
    expectClean("the NDJSON export", ndjson);
    expectClean("D1", await d1Text());
    expectClean("the hub's SQLite", await hubText(d.hub));
    expectClean("the log", logged.join("\n"));
  });

  it("masks secrets in the log of an unexpected failure", async () => {
    const res = await api("/v1/pairing/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"code": "${SECRETS.github}`,
    });
    expect(res.status).toBe(400);
    expectClean("the log", logged.join("\n"));
  });
});
