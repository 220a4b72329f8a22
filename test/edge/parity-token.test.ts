// The parity token: approver-minted (or with the recovery code), short-lived, and read-only. Every route it may not
// use answers 403 read_only_token and changes nothing: it cannot approve, revoke, mint, change policy or emergency
// controls, or open the websocket. A forged, tampered, expired token, or one whose minting device is revoked, is 401.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mintParityToken, verifyParityToken } from "../../src/edge/auth/parity-token.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { ParityToken } from "../../src/protocol/parity-token.ts";
import { type Action, PARITY_TOKEN_ACTIONS } from "../../src/protocol/roles.ts";
import { device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api, bearer, errorOf, recoveryCode } from "./helpers.ts";

type Operation = { "x-airlock-role": string; "x-airlock-access": string };
type Document = { paths: Record<string, Record<string, Operation>> };

async function minted(d: Awaited<ReturnType<typeof device>>, ttl_minutes?: number) {
  const res = await d.approver.post("/v1/parity/token", ttl_minutes === undefined ? {} : { ttl_minutes });
  expect(res.status).toBe(201);
  return ParityToken.parse(await res.json());
}

const parityCall = (token: string, method: string, path: string) =>
  api(
    path.replace(/\{(\w+)\}/g, (_, n: string) => (n === "id" ? "prm_AAAAAAAAAAAAAAAA" : n)),
    {
      method,
      headers: bearer(token),
      ...(method === "GET" || method === "DELETE" ? {} : { json: {} }),
    },
  );

/** The attributes of a Set-Cookie line, value and name left out. */
const attributes = (line: string | null) =>
  (line ?? "")
    .split(";")
    .slice(1)
    .map((a) => a.trim().toLowerCase())
    .sort();

describe("minting", () => {
  it("an approver mints a token of 1–60 minutes (default 15); a companion, a parity token and bad input cannot", async () => {
    const d = await device();
    const before = Date.now();
    const token = await minted(d);
    expect(token.read_only).toBe(true);
    expect(token.actions).toEqual([...PARITY_TOKEN_ACTIONS]);
    const ttl = Date.parse(token.expires_at) - before;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect((await d.companion.post("/v1/parity/token", {})).status).toBe(403);
    expect(await errorOf(await parityCall(token.token, "POST", "/v1/parity/token"))).toMatchObject({
      code: "read_only_token",
    });
    for (const ttl_minutes of [0, 61, 1.5, "10"])
      expect((await d.approver.post("/v1/parity/token", { ttl_minutes })).status).toBe(400);
  });

  it("the recovery code mints one; a wrong recovery code is 401 and audited", async () => {
    const code = await recoveryCode();
    const ok = await api("/v1/recovery/parity-token", {
      method: "POST",
      json: { recovery_code: code, ttl_minutes: 5 },
    });
    expect(ok.status).toBe(201);
    const token = ParityToken.parse(await ok.json());
    expect((await api("/v1/audit?limit=5", { headers: bearer(token.token) })).status).toBe(200);
    const wrong = await api("/v1/recovery/parity-token", {
      method: "POST",
      json: { recovery_code: "0000-0000-0000-0000-0000-0000" },
    });
    expect(wrong.status).toBe(401);
  });
});

describe("read-only", () => {
  it("reads the audit feed, devices, policy, grants and pending prompts", async () => {
    const d = await device();
    const { token } = await minted(d);
    for (const path of [
      "/v1/audit?limit=10",
      "/v1/devices",
      "/v1/settings/policy",
      "/v1/grants",
      "/v1/approvals",
    ])
      expect((await api(path, { headers: bearer(token) })).status, path).toBe(200);
  });

  it("every route outside its reads answers 403 read_only_token, audited", async () => {
    const d = await device();
    const { token } = await minted(d);
    const doc = (await (await api("/v1/openapi.json")).json()) as Document;
    let refused = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const access = op["x-airlock-access"];
        if (access === "public" || access === "admin") continue;
        const res = await parityCall(token, method.toUpperCase(), path);
        if ((PARITY_TOKEN_ACTIONS as readonly string[]).includes(access as Action)) {
          expect([401, 403], `${method} ${path}`).not.toContain(res.status);
        } else {
          refused++;
          expect(res.status, `${method} ${path}`).toBe(403);
          expect((await errorOf(res)).code, `${method} ${path}`).toBe("read_only_token");
        }
      }
    }
    expect(refused).toBeGreaterThanOrEqual(30);
    const audited = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_log WHERE event = 'auth.read_only_refused' AND user_id = ?",
    )
      .bind(d.userId)
      .first<{ n: number }>();
    expect(audited?.n).toBe(refused);
  });

  it("cannot approve a prompt, revoke a device, change the policy or emergency controls, mint codes, or connect", async () => {
    const d = await device();
    const { token } = await minted(d);
    expect((await d.decide(request({ tool: "bash", input: { command: "make deploy" } }))).status).toBe(202);
    const [prompt] = await pendingPrompts(d.approver.get);
    if (!prompt) throw new Error("no prompt");
    const attempts: [string, string, unknown][] = [
      ["POST", `/v1/approvals/${prompt.promptId}/approve`, { scope: "always" }],
      ["POST", `/v1/approvals/${prompt.promptId}/reject`, {}],
      ["POST", `/v1/devices/${d.deviceId}/revoke`, {}],
      ["PUT", "/v1/settings/policy", { policy: "rules: []\n" }],
      ["POST", "/v1/settings/emergency", { readOnly: true }],
      ["POST", "/v1/pairing/code", { role: "approver" }],
    ];
    for (const [method, path, json] of attempts) {
      const res = await api(path, { method, headers: bearer(token), json });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const upgrade = await api("/v1/connect", { headers: { ...bearer(token), upgrade: "websocket" } });
    expect(upgrade.status).toBe(403);
    // Nothing changed: the prompt still waits, the device is live, no emergency switch is on, no grant exists.
    expect((await pendingPrompts(d.approver.get)).map((p) => p.promptId)).toContain(prompt.promptId);
    const devices = (await (await d.approver.get("/v1/devices")).json()) as {
      devices: { id: string; revoked_at: string | null }[];
    };
    expect(devices.devices.find((x) => x.id === d.deviceId)?.revoked_at).toBeNull();
    const emergency = (await (await d.approver.get("/v1/settings/emergency")).json()) as {
      readOnly: boolean;
    };
    expect(emergency.readOnly).toBe(false);
    const grants = (await (await d.approver.get("/v1/grants")).json()) as { grants: unknown[] };
    expect(grants.grants).toEqual([]);
  });

  it("the cookie probe carries exactly the session cookie's attributes, under another name", async () => {
    const d = await device();
    const { token } = await minted(d);
    const probe = await api("/v1/parity/cookie", { headers: bearer(token) });
    expect(probe.status).toBe(200);
    const line = probe.headers.get("set-cookie");
    expect(line?.startsWith("airlock_parity_probe=1;")).toBe(true);
    const code = await (await d.approver.post("/v1/pairing/code", { role: "approver" })).json();
    const bound = await api("/v1/pairing/bind", {
      method: "POST",
      headers: { "cf-connecting-ip": "parity-probe" },
      json: { code: (code as { code: string }).code, device_name: "second phone", kind: "browser" },
    });
    expect(attributes(line)).toEqual(attributes(bound.headers.get("set-cookie")));
    expect(attributes(line)).toContain("httponly");
  });
});

describe("verification", () => {
  it("expired, forged under another pepper, or minted by a revoked device: 401", async () => {
    const d = await device();
    const db = openDb(env.DB);
    const old = await mintParityToken(
      env.TOKEN_PEPPER,
      d.userId,
      d.approver.deviceId,
      60_000,
      Date.now() - 120_000,
    );
    expect(await verifyParityToken(db, env.TOKEN_PEPPER, old.token)).toBeNull();
    expect((await api("/v1/devices", { headers: bearer(old.token) })).status).toBe(401);
    const forged = await mintParityToken(
      "another-pepper-0123456789abcdef0123",
      d.userId,
      d.approver.deviceId,
      60_000,
    );
    expect((await api("/v1/devices", { headers: bearer(forged.token) })).status).toBe(401);
    // A companion's id as the minter: never valid, whatever the MAC.
    const companionMinted = await mintParityToken(env.TOKEN_PEPPER, d.userId, d.deviceId, 60_000);
    expect((await api("/v1/devices", { headers: bearer(companionMinted.token) })).status).toBe(401);
    const { token } = await minted(d);
    expect((await api("/v1/devices", { headers: bearer(token) })).status).toBe(200);
    expect((await d.approver.post(`/v1/devices/${d.approver.deviceId}/revoke`)).status).toBe(200);
    expect((await api("/v1/devices", { headers: bearer(token) })).status).toBe(401);
  });

  it("any one-character change to a valid token is refused", async () => {
    const d = await device();
    const db = openDb(env.DB);
    const { token } = await minted(d);
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: token.length - 1 }),
        fc.constantFrom(...alphabet),
        async (at, ch) => {
          fc.pre(token[at] !== ch);
          const tampered = `${token.slice(0, at)}${ch}${token.slice(at + 1)}`;
          expect(await verifyParityToken(db, env.TOKEN_PEPPER, tampered)).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });
});
