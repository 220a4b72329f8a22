// The phone dashboard end to end: real `wrangler dev`, a Node websocket client as the companion, and real Chromium
// at 390×844. A tool call's prompt appears on the page; a tap on Allow once (or Deny) reaches the companion; a
// reload shows pending prompts again; the read-only switch round-trips through settings.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { EmergencyControls } from "../../src/protocol/capability.ts";
import type { DecisionRequest } from "../../src/protocol/decisions.ts";
import { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { type ClientMessage, ServerMessage } from "../../src/protocol/socket.ts";
import { launchBrowser, phoneContext } from "./support/browser.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

const WAIT_MS = 15_000;
const shot = (name: string) => join(ROOT, "test-results", name);
const SCREENSHOT = shot("dashboard-approvals.png");

/** The companion's side: a bearer-authenticated socket whose every message is parsed with ServerMessage. */
class Companion {
  readonly received: ServerMessage[] = [];
  readonly #ws: WebSocket;
  #listeners: (() => void)[] = [];

  constructor(url: string, token: string) {
    this.#ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    this.#ws.on("message", (raw) => {
      this.received.push(ServerMessage.parse(JSON.parse(String(raw))));
      for (const listener of this.#listeners) listener();
    });
  }

  async open(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#ws.once("open", () => resolve());
      this.#ws.once("error", reject);
    });
    this.send({ type: "hello", client: { name: "e2e-companion", version: "0.0.0" } });
    await this.next((m) => m.type === "welcome");
  }

  send(message: ClientMessage): void {
    this.#ws.send(JSON.stringify(message));
  }

  /** The first received message matching `match` (already buffered or still to come). */
  next<T extends ServerMessage>(match: (m: ServerMessage) => m is T, timeoutMs?: number): Promise<T>;
  next(match: (m: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  next(match: (m: ServerMessage) => boolean, timeoutMs = WAIT_MS): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(match);
        if (!found) return false;
        this.#listeners = this.#listeners.filter((l) => l !== listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        this.#listeners = this.#listeners.filter((l) => l !== listener);
        reject(
          new Error(
            `companion: no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.received)}`,
          ),
        );
      }, timeoutMs);
      if (!check()) this.#listeners.push(listener);
    });
  }

  /** Sends a tool call and returns the prompt id the hub opened for it (it must need a person). */
  async ask(request: DecisionRequest): Promise<string> {
    const id = `req-${request.call_id}`;
    this.send({ type: "tool_request", id, request });
    const answer = await this.next(
      (m) => (m.type === "decision_pending" || m.type === "capability_decision") && m.id === id,
    );
    if (answer.type !== "decision_pending")
      throw new Error(`expected a prompt, got ${JSON.stringify(answer)}`);
    return answer.promptId;
  }

  decisionFor(callId: string) {
    return this.next(
      (m): m is Extract<ServerMessage, { type: "capability_decision" }> =>
        m.type === "capability_decision" && m.data.call_id === callId,
    );
  }

  close(): void {
    this.#ws.close();
  }
}

function toolCall(callId: string, command: string): DecisionRequest {
  return {
    call_id: callId,
    session_id: "sess-e2e",
    agent: { id: "e2e-agent", name: "E2E Agent", version: "1.0.0" },
    tool: "bash",
    input: { command },
  };
}

let edge: Edge;
let companion: Companion;
let companionToken: string;
let browser: Browser;
let page: Page;
/** Script errors and CSP violations any dashboard page logged during the run. */
const pageProblems: string[] = [];

async function apiAs(token: string, path: string): Promise<unknown> {
  const res = await fetch(`${edge.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return res.json();
}
const apiAsCompanion = (path: string) => apiAs(companionToken, path);
/** Pending prompts are for approvers only: a second paired phone reads them. */
let observerToken: string;

const card = (promptId: string) => page.locator(`article[data-prompt-id="${promptId}"]`);

/** Taps an allow button and, for a high-risk prompt, the deliberate second step. */
async function tapAllow(promptId: string, label: string, requiresConfirmation: boolean): Promise<void> {
  await card(promptId).getByRole("button", { name: label, exact: true }).tap();
  if (requiresConfirmation) {
    await card(promptId)
      .getByText(/^Confirm: allow /)
      .waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: shot("dashboard-confirm.png") });
    await card(promptId)
      .getByRole("button", { name: `Yes, ${label.toLowerCase()}` })
      .tap();
  }
}

beforeAll(async () => {
  // vitest sets NODE_ENV=test; build what ships, not a development bundle.
  const built = spawnSync("npm", ["run", "-s", "build:web"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`build:web failed:\n${built.stdout}\n${built.stderr}`);
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  const paired = await edge.pairDevice("companion", "e2e companion");
  observerToken = (await edge.pairDevice("browser", "e2e observer")).token;
  companionToken = paired.token;
  companion = new Companion(`${edge.base.replace("http", "ws")}/v1/connect?role=companion`, companionToken);
  await companion.open();
  const context = await phoneContext(browser);
  // CSP violations are not console calls; surface them as one so the listener below sees them.
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`),
    );
  });
  context.on("page", (opened) => {
    opened.on("pageerror", (error) => pageProblems.push(`pageerror: ${error.message}`));
    opened.on("console", (message) => {
      if (message.text().startsWith("CSP violation")) pageProblems.push(message.text());
    });
  });
  page = await context.newPage();
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
});

afterAll(async () => {
  companion?.close();
  await browser?.close();
  await edge?.stop();
});

describe("phone dashboard", () => {
  it("pairs by URL with an editable device name", async () => {
    const code = await edge.newApproverCode();
    const response = await page.goto(`${edge.base}/pair?code=${code}`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await expect(page.getByLabel("Pairing code").inputValue()).resolves.toBe(code);
    await expect(page.getByLabel("Device name").inputValue()).resolves.toBe("Chrome on Android");
    await page.getByLabel("Device name").fill("E2E phone");
    await page.screenshot({ path: shot("dashboard-pairing.png") });
    await page.getByRole("button", { name: "Pair this device" }).tap();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate(() => JSON.stringify(localStorage) + document.cookie)).not.toContain("alk_");
    const { devices } = (await apiAsCompanion("/v1/devices")) as {
      devices: { name: string; kind: string }[];
    };
    expect(devices).toContainEqual(expect.objectContaining({ name: "E2E phone", kind: "browser" }));
  });

  it("shows the prompt live and a tap on Allow once reaches the companion as allow", async () => {
    const promptId = await companion.ask(toolCall("call-publish", "npm publish"));
    const { approvals } = (await apiAs(observerToken, "/v1/approvals?status=pending")) as {
      approvals: unknown[];
    };
    const prompt = approvals.map((a) => CapabilityPrompt.parse(a)).find((p) => p.promptId === promptId);
    if (!prompt) throw new Error(`prompt ${promptId} is not pending`);

    await card(promptId).waitFor({ timeout: WAIT_MS });
    const text = (await card(promptId).textContent()) ?? "";
    expect(text).toContain("E2E Agent");
    expect(text).toContain("e2e-agent");
    expect(text).toContain(`${prompt.risk.toUpperCase()} RISK`);
    expect(text).toContain(prompt.justification);
    expect(text).toContain("1 pending call");
    for (const scope of prompt.scopes.slice(0, 3)) expect(text).toContain(scope.summary);
    await expect(card(promptId).getByRole("timer").textContent()).resolves.toMatch(/^0:\d\d left$/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Allow once");
    const box = await card(promptId).getByRole("button", { name: "Deny always" }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(48);

    await page.screenshot({ path: SCREENSHOT });
    // Set AIRLOCK_UPDATE_DOCS_SCREENSHOT=1 to refresh the committed screenshot in docs/.
    if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT)
      copyFileSync(SCREENSHOT, join(ROOT, "docs/dashboard-approvals.png"));

    const details = card(promptId).getByRole("button", { name: "Details" });
    expect(await details.getAttribute("aria-expanded")).toBe("false");
    await details.tap();
    const detailText = (await card(promptId).locator("dl.details").textContent()) ?? "";
    for (const value of [promptId, "call-publish", "sess-e2e", prompt.method])
      expect(detailText).toContain(value);

    const decision = companion.decisionFor("call-publish");
    await tapAllow(promptId, "Allow once", prompt.requiresConfirmation);
    const { data } = await decision;
    expect(data.decision).toBe("allow");
    expect(data.source).toBe("user");
    await card(promptId).waitFor({ state: "detached", timeout: WAIT_MS });
    const resolvedItem = page.locator(`li.resolved-item[data-prompt-id="${promptId}"]`);
    await expect(resolvedItem.textContent()).resolves.toMatch(/Allowed once[\s\S]*by this device/);
  });

  it("a tap on Deny reaches the companion as deny", async () => {
    const promptId = await companion.ask(toolCall("call-rm", "rm -rf build"));
    await card(promptId).waitFor({ timeout: WAIT_MS });
    const decision = companion.decisionFor("call-rm");
    await card(promptId).getByRole("button", { name: "Deny", exact: true }).tap();
    const { data } = await decision;
    expect(data.decision).toBe("deny");
    expect(data.source).toBe("user");
    await card(promptId).waitFor({ state: "detached", timeout: WAIT_MS });
  });

  it("grows a batch live and shows pending prompts again after a reload", async () => {
    const promptId = await companion.ask(toolCall("call-curl-1", "curl https://example.com/a"));
    await card(promptId).getByText("1 pending call").waitFor({ timeout: WAIT_MS });
    // Same agent, capability, risk and command binary: the hub appends to the open prompt (prompt_updated).
    expect(await companion.ask(toolCall("call-curl-2", "curl https://example.com/b"))).toBe(promptId);
    await card(promptId).getByText("2 pending calls").waitFor({ timeout: WAIT_MS });

    await page.reload();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    await card(promptId).getByText("2 pending calls").waitFor({ timeout: WAIT_MS });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: shot("dashboard-dark.png") });
    await page.emulateMedia({ colorScheme: "light" });

    const decisions = [companion.decisionFor("call-curl-1"), companion.decisionFor("call-curl-2")];
    await card(promptId).getByRole("button", { name: "Deny", exact: true }).tap();
    for (const { data } of await Promise.all(decisions)) expect(data.decision).toBe("deny");
  });

  it("loads pending prompts and decides over REST while the socket cannot connect", async () => {
    const promptId = await companion.ask(toolCall("call-offline", "git push --force"));
    const cut = await page.context().newPage();
    try {
      // Every socket attempt of this page is refused; the rest of the API stays reachable.
      await cut.routeWebSocket(/\/v1\/connect/, (ws) => ws.close({ code: 1011, reason: "e2e: socket cut" }));
      await cut.goto(edge.base);
      await cut.getByRole("status", { name: "Connection: Reconnecting…" }).waitFor({ timeout: WAIT_MS });
      const offlineCard = cut.locator(`article[data-prompt-id="${promptId}"]`);
      await offlineCard.waitFor({ timeout: WAIT_MS });
      const decision = companion.decisionFor("call-offline");
      await offlineCard.getByRole("button", { name: "Deny", exact: true }).tap();
      const { data } = await decision;
      expect(data.decision).toBe("deny");
      expect(data.source).toBe("user");
      await offlineCard.waitFor({ state: "detached", timeout: WAIT_MS });
    } finally {
      await cut.close();
    }
  });

  it("turns read-only mode on (after a confirm step) and off from settings", async () => {
    await page.getByRole("link", { name: "Settings" }).tap();
    const readOnly = page.getByRole("switch", { name: "Read-only mode" });
    await readOnly.waitFor({ timeout: WAIT_MS });
    expect(await readOnly.getAttribute("aria-checked")).toBe("false");

    const pushed = companion.next((m) => m.type === "emergency_updated" && m.data.readOnly);
    await readOnly.tap();
    await page.getByRole("button", { name: "Turn on" }).tap();
    await page.locator('[role="switch"][aria-checked="true"]').first().waitFor({ timeout: WAIT_MS });
    expect(EmergencyControls.parse(await apiAsCompanion("/v1/settings/emergency")).readOnly).toBe(true);
    await pushed;
    await page.screenshot({ path: shot("dashboard-settings.png") });

    await readOnly.tap();
    await page.locator('button.switch[aria-checked="true"]').waitFor({ state: "detached", timeout: WAIT_MS });
    expect(EmergencyControls.parse(await apiAsCompanion("/v1/settings/emergency")).readOnly).toBe(false);
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect(pageProblems).toEqual([]);
  });
});
