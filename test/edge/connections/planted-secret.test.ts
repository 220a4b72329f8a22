// Every token the provider issued for a connection (access and refresh, at connect and at each refresh) never
// appears in D1 in plaintext (any table), in the log, in the audit export, or in any API answer the phone or a
// companion gets; the PKCE verifier and client secret never leave the edge either.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { connectionTokens } from "../../../src/edge/connectors/tokens.ts";
import { api, bearer, pair } from "../helpers.ts";
import { connect, issuedTokens, revokeAtProviderSide, uniqueAccount } from "./connect-helpers.ts";

let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(
        args
          .map((a) => (a instanceof Error ? `${a.message}\n${a.stack} ${String(a.cause)}` : String(a)))
          .join(" "),
      );
    });
  }
});
afterEach(() => vi.restoreAllMocks());

async function allOfD1(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const dumps: string[] = [];
  for (const { name } of tables.results) {
    dumps.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results));
  }
  return dumps.join("\n");
}

it("no issued token, client secret or verifier reaches D1, logs, the audit export or an API answer", async () => {
  const phone = await pair("browser", "phone");
  const google = uniqueAccount("google");
  const github = uniqueAccount("github");
  const googleId = await connect(
    phone,
    { provider: "google", identity: "user", capabilities: ["mail.read", "mail.compose"] },
    { account: google, expiresIn: 30, rotate: true },
  );
  const githubId = await connect(
    phone,
    { provider: "github", identity: "bot", capabilities: ["repo.public"] },
    { account: github },
  );
  const tokens = connectionTokens(env);
  // Refreshes (rotating), a 401 refresh, a refusal that marks broken: every path that handles a token.
  await tokens.access(phone.userId, "google", "user");
  await tokens.refreshAfterUnauthorized(phone.userId, googleId);
  await tokens.markUsed(phone.userId, googleId);
  await revokeAtProviderSide(google);
  await tokens.refreshAfterUnauthorized(phone.userId, googleId);
  await tokens.refreshAfterUnauthorized(phone.userId, githubId);

  const planted = [...(await issuedTokens(google)), ...(await issuedTokens(github))];
  expect(planted.length).toBeGreaterThanOrEqual(5);
  const secrets = [
    ...planted,
    env.AIRLOCK_GOOGLE_CLIENT_SECRET ?? "",
    env.AIRLOCK_GITHUB_CLIENT_SECRET ?? "",
  ];

  const answers = [
    await (await api("/v1/connections", { headers: bearer(phone.token) })).text(),
    await (await api("/v1/audit?format=ndjson", { headers: bearer(phone.token) })).text(),
    await (await api("/v1/audit", { headers: bearer(phone.token) })).text(),
    await (await api("/v1/openapi.json")).text(),
  ];
  const d1 = await allOfD1();
  expect(d1).toContain(googleId);
  expect(answers[1]).toContain("connection.connected");
  for (const secret of secrets) {
    expect(d1.includes(secret), "D1").toBe(false);
    expect(logged.join("\n").includes(secret), "logs").toBe(false);
    for (const answer of answers) expect(answer.includes(secret), "an API answer").toBe(false);
  }
});
