// Bootstrap, pairing codes and device tokens.
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bindPairingCode, createPairingCode } from "../../src/edge/auth/pairing.ts";
import { RENEW_WINDOW_MS, TOKEN_TTL_MS, verifyToken } from "../../src/edge/auth/tokens.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { ADMIN, api, bearer, errorOf, ownerCode, pair } from "./helpers.ts";

const bind = (code: string, extra: Record<string, unknown> = {}, ip = "203.0.113.7") =>
  api("/v1/pairing/bind", {
    method: "POST",
    headers: { "cf-connecting-ip": ip },
    json: { code, device_name: "laptop", kind: "companion", ...extra },
  });

/** Every text value in every table of D1, to prove a secret is stored nowhere. */
async function allStoredText(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    parts.push(JSON.stringify(rows.results));
  }
  return parts.join("\n");
}

describe("bootstrap", () => {
  it("creates the owner exactly once", async () => {
    await reset();
    const { applyD1Migrations } = await import("cloudflare:test");
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const first = await api("/v1/bootstrap", { method: "POST", headers: { authorization: ADMIN } });
    expect(first.status).toBe(201);
    const body = (await first.json()) as { code: string; user_id: string };
    expect(body.code).toMatch(/^\d{8}$/);
    const second = await api("/v1/bootstrap", { method: "POST", headers: { authorization: ADMIN } });
    expect(second.status).toBe(409);
    expect(await errorOf(second)).toMatchObject({ code: "conflict" });
    const owners = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE role='owner'").first<{
      n: number;
    }>();
    expect(owners?.n).toBe(1);
  });

  it("refuses a wrong bootstrap token", async () => {
    const res = await api("/v1/bootstrap", {
      method: "POST",
      headers: { authorization: "Bearer wrong-token-wrong" },
    });
    expect(res.status).toBe(401);
  });
});

describe("pairing codes", () => {
  it("binds once, then refuses the same code", async () => {
    const code = await ownerCode();
    const first = await bind(code);
    expect(first.status).toBe(201);
    const body = (await first.json()) as { token: string; device_id: string; expires_at: string };
    expect(body.token).toMatch(/^alk_[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(body.device_id).toMatch(/^dev_/);
    const second = await bind(code, {}, "203.0.113.8");
    expect(second.status).toBe(401);
  });

  it("an approver creates a new code that binds", async () => {
    const device = await pair("browser");
    const res = await api("/v1/pairing/code", { method: "POST", headers: bearer(device.token) });
    expect(res.status).toBe(201);
    const { code, expires_at } = (await res.json()) as { code: string; expires_at: string };
    expect(code).toMatch(/^\d{8}$/);
    const ttl = Date.parse(expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(10 * 60 * 1000);
    expect((await bind(code, {}, "203.0.113.9")).status).toBe(201);
  });

  it("refuses an expired code", async () => {
    const db = openDb(env.DB);
    const device = await pair();
    const past = Date.now() - 11 * 60 * 1000;
    const { code } = await createPairingCode(db, env.TOKEN_PEPPER, device.userId, "companion", past);
    const res = await bind(code, {}, "203.0.113.10");
    expect(res.status).toBe(401);
  });

  it("locks a client out after 5 wrong codes (429 with Retry-After)", async () => {
    await ownerCode();
    for (let i = 0; i < 5; i++) expect((await bind("00000000", {}, "198.51.100.1")).status).toBe(401);
    const locked = await bind("00000000", {}, "198.51.100.1");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await errorOf(locked)).toMatchObject({ code: "rate_limited" });
  });

  it("a locked-out client is refused even with a right code", async () => {
    for (let i = 0; i < 5; i++) await bind("00000001", {}, "198.51.100.2");
    const code = await ownerCode();
    expect((await bind(code, {}, "198.51.100.2")).status).toBe(429);
  });

  it("audits pairing without the code or the token", async () => {
    const code = await ownerCode();
    const res = await bind(code, {}, "203.0.113.50");
    const { token } = (await res.json()) as { token: string };
    const audit = await env.DB.prepare("SELECT event, details FROM audit_log").all<{
      event: string;
      details: string;
    }>();
    expect(audit.results.map((r) => r.event)).toContain("auth.device_paired");
    const stored = await allStoredText();
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.split(".")[1]);
  });
});

describe("tokens", () => {
  it("stores only an HMAC of the secret", async () => {
    const device = await pair();
    const secret = device.token.split(".")[1]!;
    const stored = await allStoredText();
    expect(stored).not.toContain(secret);
    const row = await env.DB.prepare("SELECT secret_hash FROM auth_tokens WHERE device_id = ?")
      .bind(device.deviceId)
      .first<{ secret_hash: string }>();
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("browser binds set a secure httpOnly SameSite=Strict cookie that authenticates", async () => {
    const device = await pair("browser");
    expect(device.setCookie).toMatch(/airlock_session=/);
    expect(device.setCookie).toMatch(/HttpOnly/i);
    expect(device.setCookie).toMatch(/Secure/i);
    expect(device.setCookie).toMatch(/SameSite=Strict/i);
    const res = await api("/v1/devices", { headers: { cookie: `airlock_session=${device.token}` } });
    expect(res.status).toBe(200);
  });

  it("companion binds set no cookie", async () => {
    const device = await pair("companion");
    expect(device.setCookie).toBeNull();
  });

  it("slides the expiry when used in the last 7 days of life", async () => {
    const device = await pair();
    const tokenId = device.token.slice(4, 20);
    const db = openDb(env.DB);
    const nearEnd = Date.now() + RENEW_WINDOW_MS - 3600_000;
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ? WHERE id = ?").bind(nearEnd, tokenId).run();
    const verified = await verifyToken(db, env.TOKEN_PEPPER, device.token);
    expect(verified?.expiresAt).toBeGreaterThan(Date.now() + TOKEN_TTL_MS - 60_000);
    const row = await env.DB.prepare("SELECT expires_at FROM auth_tokens WHERE id = ?").bind(tokenId).first<{
      expires_at: number;
    }>();
    expect(row?.expires_at).toBe(verified?.expiresAt);
  });

  it("does not slide a token early in its life", async () => {
    const device = await pair();
    const tokenId = device.token.slice(4, 20);
    const before = await env.DB.prepare("SELECT expires_at FROM auth_tokens WHERE id = ?")
      .bind(tokenId)
      .first<{
        expires_at: number;
      }>();
    await api("/v1/devices", { headers: bearer(device.token) });
    const after = await env.DB.prepare("SELECT expires_at FROM auth_tokens WHERE id = ?")
      .bind(tokenId)
      .first<{
        expires_at: number;
      }>();
    expect(after?.expires_at).toBe(before?.expires_at);
  });

  it("refuses an expired token", async () => {
    const device = await pair();
    const tokenId = device.token.slice(4, 20);
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, tokenId)
      .run();
    expect((await api("/v1/devices", { headers: bearer(device.token) })).status).toBe(401);
  });

  it("refuses a token whose secret was altered", async () => {
    const device = await pair();
    const altered = `${device.token.slice(0, -1)}${device.token.endsWith("A") ? "B" : "A"}`;
    expect((await api("/v1/devices", { headers: bearer(altered) })).status).toBe(401);
  });
});

describe("devices", () => {
  it("lists devices with kind, created and last seen", async () => {
    const device = await pair("companion", "work laptop");
    const res = await api("/v1/devices", { headers: bearer(device.token) });
    const { devices } = (await res.json()) as {
      devices: {
        id: string;
        kind: string;
        name: string;
        created_at: string;
        last_seen_at: string | null;
        current: boolean;
      }[];
    };
    const me = devices.find((d) => d.id === device.deviceId);
    expect(me).toMatchObject({ kind: "companion", name: "work laptop", current: true });
    expect(Date.parse(me!.created_at)).toBeGreaterThan(0);
    expect(me!.last_seen_at).not.toBeNull();
  });

  it("revoking a device kills all its tokens at once and is audited", async () => {
    const admin = await pair("browser", "phone");
    const victim = await pair("companion", "stolen");
    expect((await api("/v1/devices", { headers: bearer(victim.token) })).status).toBe(200);
    const res = await api(`/v1/devices/${victim.deviceId}/revoke`, {
      method: "POST",
      headers: bearer(admin.token),
    });
    expect(res.status).toBe(200);
    expect((await api("/v1/devices", { headers: bearer(victim.token) })).status).toBe(401);
    const again = await api(`/v1/devices/${victim.deviceId}/revoke`, {
      method: "POST",
      headers: bearer(admin.token),
    });
    expect(again.status).toBe(404);
    const audit = await env.DB.prepare(
      "SELECT target FROM audit_log WHERE event = 'auth.device_revoked'",
    ).all<{
      target: string;
    }>();
    expect(audit.results.map((r) => r.target)).toContain(victim.deviceId);
  });

  it("binding directly through the module honours the same lockout", async () => {
    const db = openDb(env.DB);
    for (let i = 0; i < 5; i++) {
      await expect(
        bindPairingCode(
          db,
          env.TOKEN_PEPPER,
          { code: "11111111", device_name: "x", kind: "companion" },
          "10.9.9.9",
        ),
      ).rejects.toMatchObject({ status: 401 });
    }
    await expect(
      bindPairingCode(
        db,
        env.TOKEN_PEPPER,
        { code: "11111111", device_name: "x", kind: "companion" },
        "10.9.9.9",
      ),
    ).rejects.toMatchObject({ status: 429 });
  });
});
