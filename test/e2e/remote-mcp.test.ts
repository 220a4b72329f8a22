// Remote MCP end to end: the MCP SDK's own Client over streamable HTTP against `wrangler dev`, doing the
// whole OAuth dance itself (discovery, dynamic registration, PKCE), the consent page in a phone-sized
// Chromium (390×844), a READ that runs, a WRITE the phone approves with a tap, and the result.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EgressServers, startEgressServers } from "../support/egress-servers.ts";
import { launchBrowser } from "./support/browser.ts";
import { buildDashboard, type Phone, pairPhone, phone, tapDecision, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

/** The MCP client app's side of OAuth, kept in memory as a desktop app would keep it on disk. */
class MemoryAuth implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly redirect: string;
  readonly name: string;
  constructor(redirect: string, name: string) {
    this.redirect = redirect;
    this.name = name;
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "airlock:tools airlock:approvals",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The app's loopback redirect target: resolves with the query the browser brings back. */
function callbackServer(): Promise<{ url: string; next: Promise<URLSearchParams>; server: Server }> {
  let deliver: (query: URLSearchParams) => void = () => {};
  const next = new Promise<URLSearchParams>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
    if (url.pathname === "/callback") deliver(url.searchParams);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/callback`, next, server });
    }),
  );
}

let servers: EgressServers;
let edge: Edge;
let browser: Browser;
let handset: Phone;

beforeAll(async () => {
  buildDashboard();
  servers = await startEgressServers();
  [edge, browser] = await Promise.all([
    startEdge({
      entry: "test/edge/worker-entry.ts",
      vars: { AIRLOCK_DOH_URL: servers.dohUrl, TEST_TARGET_PORT: String(servers.targetPort) },
    }),
    launchBrowser(),
  ]);
  handset = await phone(browser);
  await pairPhone(handset.page, edge.base, edge);
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await servers?.close();
});

describe("an MCP client connects through the phone and uses the governed tools", () => {
  it("authorizes on the consent page, runs a READ, and waits for the phone on a WRITE", async () => {
    const callback = await callbackServer();
    const auth = new MemoryAuth(callback.url, "Claude Desktop");
    const endpoint = new URL(`${edge.base}/mcp`);

    // 1. The SDK finds no token, discovers the OAuth server, registers itself and asks to authorize.
    const first = new Client({ name: "e2e-claude-desktop", version: "1.0.0" });
    await expect(
      first.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: auth })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizeUrl = auth.authorizationUrl;
    expect(authorizeUrl?.pathname).toBe("/oauth/authorize");
    expect(auth.info?.client_id).toBeTruthy();

    // 2. The person sees who asks, where access goes and what it may do, at 390×844, and allows it.
    const { page } = handset;
    await page.goto(String(authorizeUrl));
    await page.getByRole("heading", { name: "Connect an app" }).waitFor({ timeout: WAIT_MS });
    await expect(page.locator(".consent-client").textContent()).resolves.toBe("Claude Desktop");
    await expect(page.locator(".consent-redirect").textContent()).resolves.toBe(callback.url);
    await expect(page.getByRole("note").textContent()).resolves.toContain("an app on your computer");
    const scopes = page.getByRole("checkbox");
    await expect(scopes.count()).resolves.toBe(2);
    // The SDK asks for the scope the 401 named; the person also lets it see pending approvals.
    await expect(page.getByRole("checkbox", { name: /airlock:tools/ }).isChecked()).resolves.toBe(true);
    const approvalsScope = page.getByRole("checkbox", { name: /airlock:approvals/ });
    await expect(approvalsScope.isChecked()).resolves.toBe(false);
    await approvalsScope.tap();
    await page.screenshot({ path: join(ROOT, "test-results/mcp-consent.png") });
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(fits).toBe(true);
    const allow = page.getByRole("button", { name: "Allow" });
    const box = await allow.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
    await allow.tap();
    const back = await callback.next;
    expect(back.get("error")).toBeNull();
    const code = back.get("code") ?? "";
    expect(code).not.toBe("");
    callback.server.close();

    // 3. The SDK trades the code for tokens, then connects for real.
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: auth });
    await transport.finishAuth(code);
    expect(auth.saved?.access_token).toBeTruthy();
    const client = new Client({ name: "e2e-claude-desktop", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: auth }));
    expect(client.getServerVersion()?.name).toBe("airlock");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "web.fetch",
        "http.request",
        "airlock.proposal_status",
        "airlock.pending_approvals",
      ]),
    );

    // 4. A READ runs at once through the gate.
    const target = `http://127.0.0.1:${servers.targetPort}`;
    const read = await client.callTool({ name: "web.fetch", arguments: { url: `${target}/ok` } });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ state: "EXECUTED", tool: "web.fetch" });

    // 5. A WRITE becomes a proposal; the phone taps Allow once; the client waits for the outcome.
    const write = await client.callTool({
      name: "http.request",
      arguments: { method: "POST", url: `${target}/effect` },
    });
    expect(write.structuredContent).toMatchObject({ state: "PENDING", tool: "http.request" });
    const proposalId = String((write.structuredContent as { proposal_id: string }).proposal_id);
    const pending = await client.callTool({ name: "airlock.pending_approvals", arguments: {} });
    const { approvals } = pending.structuredContent as {
      approvals: { prompt_id: string; proposal_id: string }[];
    };
    const promptId = approvals.find((a) => a.proposal_id === proposalId)?.prompt_id ?? "";
    expect(promptId).not.toBe("");

    const outcome = client.callTool(
      { name: "airlock.proposal_status", arguments: { proposal_id: proposalId, wait_s: 45 } },
      undefined,
      { timeout: 60_000 },
    );
    await page.goto(`${edge.base}/`);
    await page.locator(`article[data-prompt-id="${promptId}"]`).waitFor({ timeout: WAIT_MS });
    await expect(page.locator(`article[data-prompt-id="${promptId}"]`).textContent()).resolves.toContain(
      "MCP client",
    );
    await tapDecision(page, promptId, "Allow once");
    const settled = await outcome;
    expect(settled.structuredContent).toMatchObject({ proposal_id: proposalId, state: "EXECUTED" });
    await client.close();
    expect(handset.problems).toEqual([]);
  });

  it("lists the app on the phone's Connected apps; a tap on Revoke stops its next call", async () => {
    const callback = await callbackServer();
    const auth = new MemoryAuth(callback.url, "ChatGPT");
    const endpoint = new URL(`${edge.base}/mcp`);
    await expect(
      new Client({ name: "e2e-chatgpt", version: "1.0.0" }).connect(
        new StreamableHTTPClientTransport(endpoint, { authProvider: auth }),
      ),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const { page } = handset;
    await page.goto(String(auth.authorizationUrl));
    await page.getByRole("button", { name: "Allow" }).tap();
    const code = (await callback.next).get("code") ?? "";
    callback.server.close();
    await new StreamableHTTPClientTransport(endpoint, { authProvider: auth }).finishAuth(code);
    const client = new Client({ name: "e2e-chatgpt", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: auth }));

    await page.goto(`${edge.base}/apps`);
    const row = page.locator("li[data-mcp-grant-id]", { hasText: "ChatGPT" });
    await row.waitFor({ timeout: WAIT_MS });
    await expect(row.textContent()).resolves.toContain("airlock:tools");
    await row.getByRole("button", { name: /Revoke/ }).tap();
    await row.getByRole("button", { name: "Revoke app" }).tap();
    await row.waitFor({ state: "detached", timeout: WAIT_MS });
    // Its stored token is now refused: the SDK has to ask the person again.
    await expect(client.listTools()).rejects.toThrow();
    expect(handset.problems).toEqual([]);
  });

  it("shows a hostile client name as text, never as markup", async () => {
    const callback = await callbackServer();
    const name = `<img src=x onerror="document.title='owned'">Evil`;
    const auth = new MemoryAuth(callback.url, name);
    const client = new Client({ name: "e2e-hostile", version: "1.0.0" });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(`${edge.base}/mcp`), { authProvider: auth })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const { page } = handset;
    await page.goto(String(auth.authorizationUrl));
    await page.getByRole("heading", { name: "Connect an app" }).waitFor({ timeout: WAIT_MS });
    await expect(page.locator(".consent-client").textContent()).resolves.toBe(name);
    await expect(page.locator(".consent img").count()).resolves.toBe(0);
    await expect(page.title()).resolves.not.toBe("owned");
    // Deny sends the browser back to the app with access_denied and no code.
    await page.getByRole("button", { name: "Deny" }).tap();
    const back = await callback.next;
    expect(back.get("error")).toBe("access_denied");
    expect(back.has("code")).toBe(false);
    callback.server.close();
  });
});
