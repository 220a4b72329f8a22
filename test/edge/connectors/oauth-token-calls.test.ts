// Connector calls with the tokens the real OAuth flow stored (no in-memory port): the Gmail contract server accepts
// only what the OAuth contract server issued. An access token about to expire is refreshed before the call; a 401
// refreshes once (the provider rotates the refresh token) and the call goes through with the new token; a 429
// waits as Retry-After says; every request carried a token the provider issued, never one it did not.
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { connect, issuedTokens, providerEvents, uniqueAccount } from "../connections/connect-helpers.ts";
import { api, bearer, type Paired, pair } from "../helpers.ts";
import { contract } from "./support.ts";

async function search(companion: Paired): Promise<ProposalView> {
  const res = await api("/v1/proposals", {
    method: "POST",
    headers: bearer(companion.token),
    json: {
      tool: "gmail.search",
      identity: "user",
      idempotency_key: `search-${crypto.randomUUID()}`,
      justification: "Check the inbox.",
      args: { query: "is:unread in:inbox" },
    },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

async function connected(grant: { expiresIn?: number; rotate?: boolean } = {}) {
  const phone = await pair("browser", "phone");
  const companion = await pair("companion", "laptop");
  const account = uniqueAccount("google");
  await connect(
    phone,
    { provider: "google", identity: "user", capabilities: ["mail.read"] },
    { account, ...grant },
  );
  await contract.mail({ account, from: "bob@example.org", subject: "Lunch?", body: "Friday?" });
  return { companion, account };
}

const refreshes = async (account: string) =>
  (await providerEvents(account)).filter((e) => e.endpoint === "token" && e.grantType === "refresh_token");

describe("connector calls on OAuth-issued tokens", () => {
  it("a 401 refreshes once (rotating the refresh token) and the same call succeeds with the new token", async () => {
    const { companion, account } = await connected({ rotate: true });
    await contract.fault({ api: "gmail", account, status: 401 });
    const ran = await search(companion);
    expect(ran.state).toBe("EXECUTED");
    expect((await refreshes(account)).map((e) => e.outcome)).toEqual(["issued_rotated"]);
    const requests = (await contract.stats(account)).requests;
    const [first, second, ...rest] = requests;
    expect(first?.status).toBe(401);
    expect([second, ...rest].map((r) => r?.status)).toEqual([second, ...rest].map(() => 200));
    expect(first?.token).not.toBe(second?.token);
    const issued = await issuedTokens(account);
    for (const r of requests) {
      expect(r.tokenKind).toBe("oauth");
      expect(issued).toContain(r.token);
    }
  });

  it("an access token within a minute of expiry is refreshed before the call, never sent dying", async () => {
    const { companion, account } = await connected({ expiresIn: 30 });
    const [firstAccess] = (await issuedTokens(account)).filter((t) => t.startsWith("ya29."));
    expect((await search(companion)).state).toBe("EXECUTED");
    expect(await refreshes(account)).toHaveLength(1);
    const requests = (await contract.stats(account)).requests;
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      expect(r.status).toBe(200);
      expect(r.token).not.toBe(firstAccess);
    }
  });

  it("a 429 with Retry-After is waited out and the call succeeds, with no refresh", async () => {
    const { companion, account } = await connected();
    await contract.fault({ api: "gmail", account, status: 429, retryAfter: 1 });
    expect((await search(companion)).state).toBe("EXECUTED");
    const [limited, ...after] = (await contract.stats(account)).requests.map((r) => r.status);
    expect(limited).toBe(429);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((s) => s === 200)).toBe(true);
    expect(await refreshes(account)).toHaveLength(0);
  });
});
