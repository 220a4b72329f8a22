// Connecting Google and GitHub end to end in workerd: PKCE and state at the edge, the browser binding, the
// callback's refusals (each changes nothing), and who may list, start and revoke.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, bearer, errorOf, pair } from "../helpers.ts";
import { callback, connect, consent, providerEvents, start, uniqueAccount } from "./connect-helpers.ts";

const count = async (table: string) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;

async function list(token: string) {
  const res = await api("/v1/connections", { headers: bearer(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    connections: {
      id: string;
      provider: string;
      identity: string;
      account: string;
      scopes: string[];
      status: string;
      last_used_at: string | null;
    }[];
    configured: string[];
  };
}

describe("connecting Google", () => {
  it("asks only for the capability's scopes with PKCE S256, and lists the connection with what Google granted", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const started = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const q = started.authorizationUrl.searchParams;
    expect(q.get("scope")?.split(" ")).toEqual([
      "openid",
      "email",
      "https://www.googleapis.com/auth/gmail.readonly",
    ]);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("access_type")).toBe("offline");
    expect(q.get("include_granted_scopes")).toBe("true");
    expect(q.get("redirect_uri")).toBe("https://airlock.test/v1/connections/callback/google");
    expect([...q.keys()]).not.toContain("code_verifier");

    const redirect = await consent(started, { account });
    const res = await callback(redirect, started.binding);
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(/airlock_oauth_binding=;.*Max-Age=0/);
    const { connections, configured } = await list(phone.token);
    expect(configured).toEqual(["google", "github"]);
    const mine = connections.find((c) => c.account === account);
    expect(mine).toMatchObject({
      provider: "google",
      identity: "user",
      status: "active",
      last_used_at: null,
    });
    expect(mine?.scopes).toContain("https://www.googleapis.com/auth/gmail.readonly");
    const token = (await providerEvents(account)).find((e) => e.endpoint === "token");
    expect(token).toMatchObject({ grantType: "authorization_code", outcome: "issued" });
  });

  it("adds a capability later without losing the first (incremental consent, one connection per identity)", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("google");
    const first = await connect(
      phone,
      { provider: "google", identity: "bot", capabilities: ["calendar.read"] },
      { account },
    );
    const started = await start(phone, {
      provider: "google",
      identity: "bot",
      capabilities: ["calendar.write"],
    });
    expect(started.authorizationUrl.searchParams.get("scope")).toBe(
      "openid email https://www.googleapis.com/auth/calendar.events",
    );
    const res = await callback(await consent(started, { account }), started.binding);
    expect(res.status).toBe(303);
    const bots = (await list(phone.token)).connections.filter(
      (c) => c.identity === "bot" && c.provider === "google",
    );
    expect(bots).toHaveLength(1);
    expect(bots[0]?.id).toBe(first);
  });
});

describe("connecting GitHub", () => {
  it("connects the assistant's own account with public_repo and names it by its login", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("github");
    const id = await connect(
      phone,
      { provider: "github", identity: "bot", capabilities: ["repo.public"] },
      { account },
    );
    const mine = (await list(phone.token)).connections.find((c) => c.id === id);
    expect(mine).toMatchObject({ provider: "github", identity: "bot", account, scopes: ["public_repo"] });
  });

  it("another account connected into the same identity replaces it, and the old grant is revoked at GitHub", async () => {
    const phone = await pair("browser", "phone");
    const first = uniqueAccount("github");
    const second = uniqueAccount("github");
    const body = { provider: "github", identity: "user", capabilities: ["repo.public"] } as const;
    const oldId = await connect(phone, { ...body, capabilities: [...body.capabilities] }, { account: first });
    const newId = await connect(
      phone,
      { ...body, capabilities: [...body.capabilities] },
      { account: second },
    );
    expect(newId).not.toBe(oldId);
    const github = (await list(phone.token)).connections.filter(
      (c) => c.provider === "github" && c.identity === "user",
    );
    expect(github.map((c) => c.account)).toEqual([second]);
    expect(
      (await providerEvents(first)).filter((e) => e.endpoint === "revoke").map((e) => e.outcome),
    ).toEqual(["revoked"]);
  });

  it("a code GitHub refuses (used twice) connects nothing and says so", async () => {
    const phone = await pair("browser", "phone");
    const account = uniqueAccount("github");
    const started = await start(phone, {
      provider: "github",
      identity: "user",
      capabilities: ["repo.private"],
    });
    const redirect = await consent(started, { account });
    // Spend the code at the provider first (as a replayed callback would have).
    await fetch(`${env.TEST_OAUTH_URL}/github.com/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: env.AIRLOCK_GITHUB_CLIENT_ID ?? "",
        client_secret: env.AIRLOCK_GITHUB_CLIENT_SECRET ?? "",
        code: redirect.searchParams.get("code") ?? "",
      }),
    });
    const res = await callback(redirect, started.binding);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain("bad_verification_code");
    expect((await list(phone.token)).connections.some((c) => c.account === account)).toBe(false);
  });
});

describe("the callback refuses, and changes nothing", () => {
  it("without a state, with an unknown one, or a second time with the same one", async () => {
    const phone = await pair("browser", "phone");
    expect((await api("/v1/connections/callback/google?code=x")).status).toBe(400);
    expect((await api("/v1/connections/callback/google?code=x&state=nope")).status).toBe(400);
    const started = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const redirect = await consent(started, { account: uniqueAccount("google") });
    expect((await callback(redirect, started.binding)).status).toBe(303);
    const stored = await env.DB.prepare("SELECT id, version FROM oauth_tokens ORDER BY id").all();
    const replay = await callback(redirect, started.binding);
    expect(replay.status).toBe(400);
    expect((await errorOf(replay)).message).toContain("unknown, used or expired");
    expect((await env.DB.prepare("SELECT id, version FROM oauth_tokens ORDER BY id").all()).results).toEqual(
      stored.results,
    );
  });

  it("from another browser (no or another binding cookie): 403, and the state is spent", async () => {
    const phone = await pair("browser", "phone");
    const started = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const redirect = await consent(started, { account: uniqueAccount("google") });
    const before = await count("oauth_tokens");
    expect((await callback(redirect, "someone-elses-binding")).status).toBe(403);
    expect((await callback(redirect, started.binding)).status).toBe(400);
    expect(await count("oauth_tokens")).toBe(before);
  });

  it("after ten minutes, for the other provider's path, or when the starting phone was revoked", async () => {
    const phone = await pair("browser", "phone");
    const started = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const redirect = await consent(started, { account: uniqueAccount("google") });
    const wrongPath = new URL(redirect.href.replace("/callback/google", "/callback/github"));
    expect((await callback(wrongPath, started.binding)).status).toBe(400);

    const late = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const lateRedirect = await consent(late, { account: uniqueAccount("google") });
    await env.DB.prepare("UPDATE oauth_states SET expires_at = ?")
      .bind(Date.now() - 1)
      .run();
    expect((await callback(lateRedirect, late.binding)).status).toBe(400);

    const other = await pair("browser", "other phone");
    const third = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const thirdRedirect = await consent(third, { account: uniqueAccount("google") });
    const revoked = await api(`/v1/devices/${phone.deviceId}/revoke`, {
      method: "POST",
      headers: bearer(other.token),
    });
    expect(revoked.status).toBe(200);
    expect((await callback(thirdRedirect, third.binding)).status).toBe(403);
  });

  it("when the person cancels at Google: a browser goes back to Connections with the reason", async () => {
    const phone = await pair("browser", "phone");
    const started = await start(phone, { provider: "google", identity: "user", capabilities: ["mail.read"] });
    const redirect = await consent(started, { account: uniqueAccount("google"), decision: "deny" });
    expect(redirect.searchParams.get("error")).toBe("access_denied");
    const res = await callback(redirect, started.binding, {
      accept: "text/html",
      "sec-fetch-mode": "navigate",
    });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location") ?? "", "https://airlock.test");
    expect(back.pathname).toBe("/connections");
    expect(back.searchParams.get("error")).toBe("bad_request");
    expect(back.searchParams.get("message")).toContain("access_denied");
  });
});

describe("who may", () => {
  it("a companion's token gets 403 on list, start and revoke", async () => {
    const companion = await pair("companion", "laptop");
    for (const [path, init] of [
      ["/v1/connections", {}],
      [
        "/v1/connections/start",
        { method: "POST", json: { provider: "google", identity: "user", capabilities: ["mail.read"] } },
      ],
      ["/v1/connections/con_AAAAAAAAAAAAAAAA/revoke", { method: "POST" }],
    ] as const) {
      const res = await api(path, { ...init, headers: bearer(companion.token) });
      expect(res.status, path).toBe(403);
    }
  });

  it("bad bodies are 400 naming the field, and start nothing", async () => {
    const phone = await pair("browser", "phone");
    const before = await count("oauth_states");
    for (const json of [
      { provider: "google", identity: "user", capabilities: ["repo.public"] },
      { provider: "github", identity: "user", capabilities: ["mail.read"] },
      { provider: "google", identity: "someone", capabilities: ["mail.read"] },
      { provider: "google", identity: "user", capabilities: [] },
      { provider: "google", identity: "user", capabilities: ["mail.read", "mail.read"] },
      { provider: "slack", identity: "user", capabilities: ["mail.read"] },
      {
        provider: "google",
        identity: "user",
        capabilities: ["mail.read"],
        scope: "https://mail.google.com/",
      },
    ]) {
      const res = await api("/v1/connections/start", { method: "POST", headers: bearer(phone.token), json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await errorOf(res)).code).toBe("validation_failed");
    }
    expect(await count("oauth_states")).toBe(before);
    const res = await api("/v1/connections/not-an-id/revoke", {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(res.status).toBe(400);
  });

  it("without the key ring the server refuses to start (409) rather than store tokens it cannot seal", async () => {
    const { startConnection } = await import("../../../src/edge/connectors/oauth/flow.ts");
    const { openDb } = await import("../../../src/edge/db/client.ts");
    const phone = await pair("browser", "phone");
    const bare = { ...env, AIRLOCK_OAUTH_KEYS: "" };
    await expect(
      startConnection(
        bare,
        openDb(env.DB),
        { userId: phone.userId, deviceId: phone.deviceId, tokenId: "x" },
        {
          provider: "google",
          identity: "user",
          capabilities: ["mail.read"],
          requestUrl: "https://airlock.test/v1/connections/start",
        },
        Date.now(),
      ),
    ).rejects.toMatchObject({ status: 409 });
  });
});
