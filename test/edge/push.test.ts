// Web Push at the edge: subscriptions only for approver browsers and only to known push services (https; loopback
// only when the test switch allows it), a VAPID pair made once and stored sealed, the per-device rate limit, and
// notification text that names agent, tool and scope but never a secret.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/edge/db/client.ts";
import { pushKeys } from "../../src/edge/db/schema.ts";
import { checkEndpoint } from "../../src/edge/push/endpoints.ts";
import { promptPayload } from "../../src/edge/push/payload.ts";
import { DEFAULT_MIN_INTERVAL_MS, HOURLY_CAP, rateAllows } from "../../src/edge/push/send.ts";
import { generateVapidPair, seal, unseal, vapidKeys } from "../../src/edge/push/vapid.ts";
import type { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { api, bearer, errorOf, ORIGIN, pair } from "./helpers.ts";

const P256DH = `B${"A".repeat(86)}`;
const AUTH = "A".repeat(22);
const subscribe = (token: string, endpoint: string, keys = { p256dh: P256DH, auth: AUTH }) =>
  api("/v1/push/subscriptions", { method: "POST", headers: bearer(token), json: { endpoint, keys } });

function prompt(command: string): CapabilityPrompt {
  const agent = { id: "claude-code", name: "Claude Code" };
  return {
    promptId: "prm_0123456789abcdef",
    callIds: ["c1", "c2"],
    agent,
    extension: agent,
    sessionIds: ["s"],
    capability: "exec",
    method: "Bash",
    risk: "high",
    justification: "exec can run arbitrary commands",
    scopes: [{ kind: "command", summary: command }],
    moreScopes: 0,
    options: ["allow_once", "deny_once"],
    timeoutMs: 30_000,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 30_000).toISOString(),
    requiresConfirmation: true,
  };
}

describe("push subscriptions", () => {
  it("accepts an approver browser's subscription to a known push service", async () => {
    const browser = await pair("browser");
    const res = await subscribe(browser.token, "https://fcm.googleapis.com/fcm/send/abc123");
    expect(res.status).toBe(201);
    const list = (await (await api("/v1/push/subscriptions", { headers: bearer(browser.token) })).json()) as {
      subscriptions: { service: string; current: boolean }[];
    };
    expect(list.subscriptions).toEqual([
      expect.objectContaining({ service: "fcm.googleapis.com", current: true }),
    ]);
  });

  it("refuses companions", async () => {
    const companion = await pair("companion");
    const res = await subscribe(companion.token, "https://fcm.googleapis.com/fcm/send/x");
    expect(res.status).toBe(403);
  });

  it.each([
    "http://fcm.googleapis.com/fcm/send/x",
    "https://evil.example/push",
    "https://169.254.169.254/latest/meta-data",
    "https://user:pw@fcm.googleapis.com/x",
    "https://fcm.googleapis.com:8443/x",
    "http://127.0.0.1:9999/push",
    "not a url",
  ])("refuses the endpoint %s and stores nothing", async (endpoint) => {
    const browser = await pair("browser");
    const res = await subscribe(browser.token, endpoint);
    expect(res.status).toBe(400);
    const list = (await (await api("/v1/push/subscriptions", { headers: bearer(browser.token) })).json()) as {
      subscriptions: { current: boolean }[];
    };
    expect(list.subscriptions.filter((s) => s.current)).toEqual([]);
  });

  it("refuses malformed keys", async () => {
    const browser = await pair("browser");
    const res = await subscribe(browser.token, "https://fcm.googleapis.com/fcm/send/y", {
      p256dh: "short",
      auth: AUTH,
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("validation_failed");
  });

  it("allows a loopback endpoint only with the test switch", () => {
    expect(checkEndpoint("http://127.0.0.1:9999/push", false).ok).toBe(false);
    expect(checkEndpoint("http://127.0.0.1:9999/push", true).ok).toBe(true);
    expect(checkEndpoint("http://localhost:9999/push", true).ok).toBe(false);
    expect(checkEndpoint("http://10.0.0.1/push", true).ok).toBe(false);
  });

  it("unsubscribes a known endpoint and reports an unknown one", async () => {
    const a = await pair("browser");
    await subscribe(a.token, "https://fcm.googleapis.com/fcm/send/mine");
    const other = await api("/v1/push/subscriptions", {
      method: "DELETE",
      headers: { ...bearer(a.token), origin: ORIGIN },
      json: { endpoint: "https://fcm.googleapis.com/fcm/send/not-mine" },
    });
    expect(await other.json()).toEqual({ deleted: false });
    const mine = await api("/v1/push/subscriptions", {
      method: "DELETE",
      headers: bearer(a.token),
      json: { endpoint: "https://fcm.googleapis.com/fcm/send/mine" },
    });
    expect(await mine.json()).toEqual({ deleted: true });
  });
});

describe("VAPID keys", () => {
  it("are made once, served as a P-256 point, and the private key is stored sealed", async () => {
    const browser = await pair("browser");
    const first = (await (await api("/v1/push/key", { headers: bearer(browser.token) })).json()) as {
      public_key: string;
    };
    const second = (await (await api("/v1/push/key", { headers: bearer(browser.token) })).json()) as {
      public_key: string;
    };
    expect(first.public_key).toBe(second.public_key);
    expect(first.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const keys = await vapidKeys(env, openDb(env.DB));
    const rows = await openDb(env.DB).select().from(pushKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.privateKeyEnc).not.toContain(keys.privateKey);
  });

  it("seals and unseals, and a wrong pepper cannot unseal", async () => {
    const pair = await generateVapidPair();
    const sealed = await seal("pepper-one", pair.privateKey);
    expect(await unseal("pepper-one", sealed)).toBe(pair.privateKey);
    await expect(unseal("pepper-two", sealed)).rejects.toThrow();
  });
});

describe("push rate limit", () => {
  const fresh = { lastSentAt: null, hourStart: null, hourCount: 0 };
  it.each([
    ["a device never notified", fresh, 0, true],
    [
      "inside the interval",
      { ...fresh, lastSentAt: 0, hourStart: 0, hourCount: 1 },
      DEFAULT_MIN_INTERVAL_MS - 1,
      false,
    ],
    [
      "after the interval",
      { ...fresh, lastSentAt: 0, hourStart: 0, hourCount: 1 },
      DEFAULT_MIN_INTERVAL_MS,
      true,
    ],
    ["at the hourly cap", { lastSentAt: 0, hourStart: 0, hourCount: HOURLY_CAP }, 60_000, false],
    ["in a new hour", { lastSentAt: 0, hourStart: 0, hourCount: HOURLY_CAP }, 3_600_000, true],
  ])("%s", (_, row, now, ok) => {
    expect(rateAllows(row, now, DEFAULT_MIN_INTERVAL_MS).ok).toBe(ok);
  });
});

describe("notification text", () => {
  it("names agent, tool, risk and scope and counts the batch", () => {
    const payload = promptPayload(prompt("npm publish"), 3);
    expect(payload.title).toBe("Claude Code asks: Bash");
    expect(payload.body).toContain("HIGH risk");
    expect(payload.body).toContain("npm publish");
    expect(payload.body).toContain("+1 more");
    expect(payload.body).toContain("3 waiting");
  });

  it("never carries a secret part of the scope", () => {
    const secrets = ["ghp_abcdefghijklmnopqrstuvwxyz0123", "sk_live_abcdefghijklmnop", "hunter2hunter2"];
    const payload = promptPayload(
      prompt(
        `API_TOKEN=hunter2hunter2 curl -H "Authorization: Bearer ${secrets[0]}" https://x.test/?key=${secrets[1]}`,
      ),
      1,
    );
    const text = JSON.stringify(payload);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("stays short whatever the command", () => {
    const payload = promptPayload(prompt("x".repeat(5000)), 1);
    expect(payload.body.length).toBeLessThan(200);
  });
});
