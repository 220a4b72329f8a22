// ConnectionTokens (the port connector tools call) over D1 and the contract server: live tokens per identity,
// refresh on expiry and after a 401 with the provider's rotated refresh token kept, a dead grant marks the
// connection broken, revoking ends it at the provider and here, and a retired sealing key still opens old rows.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { connectionTokens } from "../../../src/edge/connectors/tokens.ts";
import { TEST_OAUTH_KEY } from "../../support/oauth-test-secrets.ts";
import { api, bearer, pair } from "../helpers.ts";
import {
  connect,
  issuedTokens,
  providerEvents,
  revokeAtProviderSide,
  uniqueAccount,
} from "./connect-helpers.ts";

const row = (id: string) =>
  env.DB.prepare("SELECT * FROM oauth_tokens WHERE id = ?").bind(id).first<Record<string, unknown>>();

describe("access", () => {
  it("answers the identity's own connection and nothing for the other identity or provider", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const id = await connect(
      phone,
      { provider: "google", identity: "user", capabilities: ["mail.read"] },
      { account },
    );
    await env.DB.prepare("DELETE FROM oauth_tokens WHERE user_id = ? AND identity = 'bot'")
      .bind(phone.userId)
      .run();
    const tokens = connectionTokens(env);
    const access = await tokens.access(phone.userId, "google", "user");
    expect(access).toMatchObject({ connectionId: id, provider: "google", identity: "user", account });
    expect(access?.scopes).toContain("https://www.googleapis.com/auth/gmail.readonly");
    expect(await issuedTokens(account)).toContain(access?.accessToken);
    expect(await tokens.access(phone.userId, "google", "bot")).toBeNull();
    expect(await tokens.access("usr_nobody", "google", "user")).toBeNull();
  });

  it("markUsed shows as last used on the phone", async () => {
    const phone = await pair("browser", "phone");
    const id = await connect(
      phone,
      { provider: "github", identity: "user", capabilities: ["repo.public"] },
      { account: uniqueAccount("github") },
    );
    const tokens = connectionTokens(env, () => Date.parse("2026-11-26T12:00:00Z"));
    await tokens.markUsed(phone.userId, id);
    const res = await api("/v1/connections", { headers: bearer(phone.token) });
    const body = (await res.json()) as { connections: { id: string; last_used_at: string | null }[] };
    expect(body.connections.find((c) => c.id === id)?.last_used_at).toBe("2026-11-26T12:00:00.000Z");
  });
});

describe("refresh", () => {
  it("an expired access token is refreshed first, and a rotated refresh token replaces the old one", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    // Tokens that live 30 s are inside the 60 s margin: expired for Airlock from the start.
    const id = await connect(
      phone,
      { provider: "google", identity: "user", capabilities: ["calendar.read"] },
      { account, expiresIn: 30, rotate: true },
    );
    const tokens = connectionTokens(env);
    const issuedAtConnect = await issuedTokens(account);
    const first = await tokens.access(phone.userId, "google", "user");
    expect(first?.connectionId).toBe(id);
    expect(issuedAtConnect).not.toContain(first?.accessToken);
    const second = await tokens.access(phone.userId, "google", "user");
    expect(second?.accessToken).not.toBe(first?.accessToken);
    // Each refresh used the refresh token the previous one rotated in: the provider accepted both.
    const refreshes = (await providerEvents(account)).filter((e) => e.grantType === "refresh_token");
    expect(refreshes.map((e) => e.outcome)).toEqual(["issued_rotated", "issued_rotated"]);
    expect((await row(id))?.last_refreshed_at).not.toBeNull();
  });

  it("two refreshes racing on a rotating refresh token leave the connection active with a live refresh token", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const id = await connect(
      phone,
      { provider: "google", identity: "bot", capabilities: ["calendar.read"] },
      { account, expiresIn: 30, rotate: true },
    );
    const tokens = connectionTokens(env);
    const both = await Promise.all([
      tokens.access(phone.userId, "google", "bot"),
      tokens.access(phone.userId, "google", "bot"),
    ]);
    expect(both.some((a) => a !== null)).toBe(true);
    expect((await row(id))?.status).toBe("active");
    // The stored refresh token is the one the provider rotated in last: another refresh is accepted.
    expect(await tokens.refreshAfterUnauthorized(phone.userId, id)).not.toBeNull();
    const outcomes = (await providerEvents(account))
      .filter((e) => e.grantType === "refresh_token")
      .map((e) => e.outcome);
    expect(outcomes.at(-1)).toBe("issued_rotated");
  });

  it("after a 401 it refreshes once; when the provider killed the grant the connection turns broken", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const id = await connect(
      phone,
      { provider: "google", identity: "bot", capabilities: ["mail.read"] },
      { account },
    );
    const tokens = connectionTokens(env);
    const before = await tokens.access(phone.userId, "google", "bot");
    const after = await tokens.refreshAfterUnauthorized(phone.userId, id);
    expect(after?.accessToken).toBeTruthy();
    expect(after?.accessToken).not.toBe(before?.accessToken);

    await revokeAtProviderSide(account);
    expect(await tokens.refreshAfterUnauthorized(phone.userId, id)).toBeNull();
    expect((await row(id))?.status).toBe("broken");
    expect(await tokens.access(phone.userId, "google", "bot")).toBeNull();
    const refused = (await providerEvents(account)).filter((e) => e.outcome.startsWith("invalid_grant"));
    expect(refused).toHaveLength(1);
    const audit = await env.DB.prepare(
      "SELECT details FROM audit_log WHERE event = 'connection.broken' AND target = ?",
    )
      .bind(id)
      .first<{ details: string }>();
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ reason: "invalid_grant", account });
  });

  it("a GitHub OAuth app token has no refresh token: a 401 marks it broken at once", async () => {
    const phone = await pair("browser", "phone");
    const id = await connect(
      phone,
      { provider: "github", identity: "bot", capabilities: ["repo.public"] },
      { account: uniqueAccount("github") },
    );
    const tokens = connectionTokens(env);
    expect(await tokens.access(phone.userId, "github", "bot")).not.toBeNull();
    expect(await tokens.refreshAfterUnauthorized(phone.userId, id)).toBeNull();
    expect((await row(id))?.status).toBe("broken");
  });
});

describe("revoke", () => {
  it("calls Google's revoke endpoint with the refresh token, deletes the tokens, and the next access is null", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const id = await connect(
      phone,
      { provider: "google", identity: "user", capabilities: ["mail.compose"] },
      { account },
    );
    const tokens = connectionTokens(env);
    expect(await tokens.access(phone.userId, "google", "user")).not.toBeNull();
    const res = await api(`/v1/connections/${id}/revoke`, { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, revoked: true, provider_revoked: true });
    const revoked = (await providerEvents(account)).filter((e) => e.endpoint === "revoke");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.outcome).toBe("revoked");
    expect(revoked[0]?.token?.startsWith("1//")).toBe(true);
    expect(await row(id)).toBeNull();
    expect(await tokens.access(phone.userId, "google", "user")).toBeNull();
    const again = await api(`/v1/connections/${id}/revoke`, { method: "POST", headers: bearer(phone.token) });
    expect(again.status).toBe(404);
  });

  it("calls GitHub's DELETE /applications/{client_id}/token", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("github");
    const id = await connect(
      phone,
      { provider: "github", identity: "user", capabilities: ["repo.private"] },
      { account },
    );
    const res = await api(`/v1/connections/${id}/revoke`, { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    const revoked = (await providerEvents(account)).filter((e) => e.endpoint === "revoke");
    expect(revoked.map((e) => e.outcome)).toEqual(["revoked"]);
  });

  it("another account's connection id is 404 and stays", async () => {
    const phone = await pair("browser", "phone");
    const id = await connect(
      phone,
      { provider: "github", identity: "bot", capabilities: ["repo.public"] },
      { account: uniqueAccount("github") },
    );
    await env.DB.prepare(
      "INSERT OR IGNORE INTO users (id, name, role, created_at) VALUES ('usr_other', 'o', 'member', 0)",
    ).run();
    await env.DB.prepare("UPDATE oauth_tokens SET user_id = 'usr_other' WHERE id = ?").bind(id).run();
    const res = await api(`/v1/connections/${id}/revoke`, { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(404);
    expect(await row(id)).not.toBeNull();
  });
});

describe("key rotation", () => {
  const NEW_KEY = "k2:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";

  it("with two keys configured, a row sealed under the old key opens and is sealed again under the new one", async () => {
    const phone = await pair("browser", "phone");
    const id = await connect(
      phone,
      { provider: "github", identity: "user", capabilities: ["repo.public"] },
      { account: uniqueAccount("github") },
    );
    expect((await row(id))?.key_id).toBe("k1");
    const plain = await connectionTokens(env).access(phone.userId, "github", "user");

    const rotated = connectionTokens({ ...env, AIRLOCK_OAUTH_KEYS: `${NEW_KEY},${TEST_OAUTH_KEY}` });
    expect((await rotated.access(phone.userId, "github", "user"))?.accessToken).toBe(plain?.accessToken);
    expect((await row(id))?.key_id).toBe("k2");

    // The old key can now leave the ring; a ring without the row's key cannot open it.
    const newOnly = connectionTokens({ ...env, AIRLOCK_OAUTH_KEYS: NEW_KEY });
    expect((await newOnly.access(phone.userId, "github", "user"))?.accessToken).toBe(plain?.accessToken);
    await expect(connectionTokens(env).access(phone.userId, "github", "user")).rejects.toThrow(/k2/);
  });

  it("a sealed token copied into another row does not open there (bound to its row)", async () => {
    const phone = await pair("browser", "phone");
    const a = await connect(
      phone,
      { provider: "google", identity: "user", capabilities: ["mail.read"] },
      { account: uniqueAccount("google") },
    );
    const b = await connect(
      phone,
      { provider: "google", identity: "bot", capabilities: ["mail.read"] },
      { account: uniqueAccount("google") },
    );
    await env.DB.prepare(
      "UPDATE oauth_tokens SET access_token_sealed = (SELECT access_token_sealed FROM oauth_tokens WHERE id = ?) WHERE id = ?",
    )
      .bind(a, b)
      .run();
    await expect(connectionTokens(env).access(phone.userId, "google", "bot")).rejects.toThrow(
      /does not open/,
    );
  });
});
