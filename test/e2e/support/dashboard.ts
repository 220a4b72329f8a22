// Shared parts of the dashboard e2e files: the companion's websocket, tool calls, the production build, a phone
// page that pairs by URL and reports script errors and CSP violations, and waits for a steady layout.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import WebSocket from "ws";
import type { DecisionRequest } from "../../../src/protocol/decisions.ts";
import { type ClientMessage, ServerMessage } from "../../../src/protocol/socket.ts";
import { launchBrowser, phoneContext } from "./browser.ts";
import { type Edge, ROOT, startEdge } from "./edge.ts";

export const WAIT_MS = 15_000;

/** The newest modification time under the dashboard's sources (web/ without its output, and the src/ it imports). */
function dashboardSourcesStamp(): string {
  const newest = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    let max = stat.mtimeMs;
    for (const entry of readdirSync(path)) {
      if (path === join(ROOT, "web") && entry === "dist") continue;
      max = Math.max(max, newest(join(path, entry)));
    }
    return max;
  };
  const roots = ["web", "src/protocol", "src/policy", "package-lock.json"].map((p) => join(ROOT, p));
  return `production ${Math.max(...roots.map(newest))}`;
}

/**
 * Builds what ships (vitest sets NODE_ENV=test, which would make Vite emit a development bundle), once per
 * source state: the e2e files run one at a time, and the eleven that need the dashboard share one build.
 */
export function buildDashboard(): void {
  // Kept outside web/dist (whose every file the asset manifest and the parity checks account for), and naming
  // the built index.html's time too, so a build by anything else since (npm run build) is never taken for ours.
  const stampFile = join(tmpdir(), `airlock-e2e-dashboard-${Buffer.from(ROOT).toString("hex").slice(-16)}`);
  const index = join(ROOT, "web", "dist", "index.html");
  const builtAt = () => (existsSync(index) ? statSync(index).mtimeMs : 0);
  const want = dashboardSourcesStamp();
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === `${want} ${builtAt()}`) return;
  const built = spawnSync("npm", ["run", "-s", "build:web"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`build:web failed:\n${built.stdout}\n${built.stderr}`);
  writeFileSync(stampFile, `${want} ${builtAt()}`);
}

/** The companion's side: a bearer-authenticated socket whose every message is parsed with ServerMessage. */
export class Companion {
  readonly received: ServerMessage[] = [];
  readonly #ws: WebSocket;
  #listeners: (() => void)[] = [];
  #closed = "";

  constructor(base: string, token: string) {
    this.#ws = new WebSocket(`${base.replace("http", "ws")}/v1/connect?role=companion`, {
      headers: { authorization: `Bearer ${token}` },
    });
    this.#ws.on("message", (raw) => {
      this.received.push(ServerMessage.parse(JSON.parse(String(raw))));
      for (const listener of this.#listeners) listener();
    });
    this.#ws.on("close", (code, reason) => {
      this.#closed = ` (socket closed ${code} ${String(reason)})`;
    });
  }

  async open(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.#ws.once("open", () => resolve());
      this.#ws.once("error", reject);
    });
    this.send({ type: "hello", client: { name: "e2e-companion", version: "0.0.0" } });
    await this.next((m) => m.type === "welcome");
    return this;
  }

  send(message: ClientMessage): void {
    this.#ws.send(JSON.stringify(message));
  }

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
            `companion: no matching message in ${timeoutMs} ms${this.#closed}; last: ${JSON.stringify(this.received.slice(-2))}`,
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

  /**
   * Sends same-key calls at once so they join one prompt during its batch window (250 ms from the first card).
   * A machine too loaded for the hub to take them all in that window splits them, as it should: then the calls
   * are withdrawn and sent again under new ids, up to three times. Returns the last attempt's ids and prompts.
   */
  async askBatch(
    commands: string[],
    idOf: (attempt: number, index: number) => string,
    extra: Parameters<typeof toolCall>[2] = {},
  ): Promise<{ ids: string[]; prompts: string[] }> {
    let ids: string[] = [];
    let prompts: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      ids = commands.map((_, i) => idOf(attempt, i));
      prompts = await Promise.all(
        commands.map((command, i) => this.ask(toolCall(ids[i] ?? "", command, extra))),
      );
      if (new Set(prompts).size === 1) break;
      this.send({ type: "withdraw", id: `withdraw-${ids[0]}`, callIds: ids });
      await this.next((m) => m.type === "response" && m.id === `withdraw-${ids[0]}`);
    }
    return { ids, prompts };
  }

  async decisionFor(callId: string) {
    const m = await this.next((x) => x.type === "capability_decision" && x.data.call_id === callId);
    if (m.type !== "capability_decision") throw new Error("unreachable");
    return m.data;
  }

  close(): void {
    this.#ws.close();
  }
}

export function toolCall(
  callId: string,
  command: string,
  extra: { description?: string; cwd?: string; agent?: string } = {},
): DecisionRequest {
  return {
    call_id: callId,
    session_id: "sess-e2e",
    agent: { id: extra.agent ?? "e2e-agent", name: "E2E Agent", version: "1.0.0" },
    tool: "bash",
    input: { command, ...(extra.description ? { description: extra.description } : {}) },
    ...(extra.cwd ? { cwd: extra.cwd } : {}),
  };
}

export interface Phone {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** A phone-sized context whose pages report script errors and CSP violations into `problems`. */
export async function phone(
  browser: Browser,
  colorScheme: "light" | "dark" = "light",
  options: { permissions?: string[]; baseURL?: string } = {},
): Promise<Phone> {
  const context = await phoneContext(browser, colorScheme);
  if (options.permissions && options.baseURL)
    await context.grantPermissions(options.permissions, { origin: options.baseURL });
  const problems: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`),
    );
  });
  context.on("page", (opened) => {
    opened.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    opened.on("console", (message) => {
      if (message.text().startsWith("CSP violation")) problems.push(message.text());
    });
  });
  const page = await context.newPage();
  return { context, page, problems };
}

/**
 * The start of a dashboard e2e file: test-results/ for its screenshots, the dashboard built, then a local edge
 * (started with `options`) and Chromium, together.
 */
export async function startStage(
  options: Parameters<typeof startEdge>[0] = {},
): Promise<{ edge: Edge; browser: Browser }> {
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  buildDashboard();
  const [edge, browser] = await Promise.all([startEdge(options), launchBrowser()]);
  return { edge, browser };
}

/** A phone (see `phone`) paired to the edge by URL as `name`, its page live. */
export async function pairedPhone(browser: Browser, edge: Edge, name = "E2E phone"): Promise<Phone> {
  const ui = await phone(browser);
  await pairPhone(ui.page, edge.base, edge, name);
  return ui;
}

/** Pairs the page's browser by the pairing URL and waits for the live link; `name: null` keeps the name offered. */
export async function pairPhone(
  page: Page,
  base: string,
  edge: Edge,
  name: string | null = "E2E phone",
): Promise<void> {
  const code = await edge.newApproverCode();
  await page.goto(`${base}/pair?code=${code}`);
  if (name !== null) await page.getByLabel("Device name").fill(name);
  await page.getByRole("button", { name: "Pair this device" }).tap();
  await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
}

/** Waits until the card list has been still long enough for a tap to count (see web/src/layout-guard.ts). */
export async function steady(page: Page): Promise<void> {
  // Two frames first: a layout change made by the last action is observed (and marked) by then.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.locator(".cards:not([data-settling])").waitFor({ timeout: WAIT_MS });
}

export const card = (page: Page, promptId: string) => page.locator(`article[data-prompt-id="${promptId}"]`);

/**
 * Taps a decision button of a card once the layout is steady; if the card says the tap was dropped because the
 * list had just moved (web/src/layout-guard.ts), waits for steadiness and taps again, as a person would.
 */
export async function tapDecision(page: Page, promptId: string, name: string | RegExp): Promise<void> {
  const button = card(page, promptId).getByRole(
    "button",
    typeof name === "string" ? { name, exact: true } : { name },
  );
  for (let attempt = 0; attempt < 3; attempt++) {
    await steady(page);
    await button.tap();
    const dropped = await card(page, promptId)
      .locator(".tap-hint")
      .waitFor({ timeout: 300 })
      .then(
        () => true,
        () => false,
      );
    if (!dropped) return;
  }
  throw new Error(`the tap on "${String(name)}" kept being dropped as a layout change`);
}

/** Taps "Allow once", then the second tap a high-risk card asks for ("Yes, allow once") once the layout is steady. */
export async function allowOnceConfirmed(page: Page, promptId: string): Promise<void> {
  await tapDecision(page, promptId, "Allow once");
  const confirm = card(page, promptId).getByRole("button", { name: "Yes, allow once" });
  await confirm.waitFor({ timeout: WAIT_MS });
  await steady(page);
  await confirm.tap();
}

/** An email proposal's card once its decisions are docked: whose identity it sends as, and the mail it shows. */
export async function emailCard(page: Page, promptId: string): Promise<{ identity: string; email: string }> {
  const c = card(page, promptId);
  await c.locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
  return {
    identity: (await c.locator(".identity-banner").textContent()) ?? "",
    email: (await c.locator(".connector-email").textContent()) ?? "",
  };
}

/** Rejects every prompt still pending, so a test that failed half-way leaves none in front of the next one. */
export async function rejectPending(edge: Edge, approverToken: string): Promise<void> {
  const headers = { authorization: `Bearer ${approverToken}`, "content-type": "application/json" };
  const res = await fetch(`${edge.base}/v1/approvals?status=pending`, { headers });
  const { approvals } = (await res.json()) as { approvals: { promptId: string }[] };
  for (const { promptId } of approvals)
    await fetch(`${edge.base}/v1/approvals/${promptId}/reject`, { method: "POST", headers, body: "{}" });
}
