// The conveyor end to end: real `wrangler dev`, `airlock hooks create` from the CLI, a delivery signed
// with the Standard Webhooks reference library, the proposal's card on a real phone-sized Chromium, a
// tap on Allow once, the executor calling a local HTTP server exactly once, and the audit of it all.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditEvent, HookWithSecret, type ProposalView } from "../../src/protocol/index.ts";
import { ensureBuilt } from "../support/build.ts";
import { type EgressServers, startEgressServers } from "../support/egress-servers.ts";
import { runToEnd } from "../support/run-process.ts";
import { launchBrowser, phoneContext } from "./support/browser.ts";
import { buildDashboard, pairPhone, tapDecision } from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

const WAIT_MS = 15_000;

let servers: EgressServers;
let edge: Edge;
let browser: Browser;
let page: Page;
let approverToken: string;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${edge.base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${approverToken}`,
      "content-type": "application/json",
      ...init.headers,
    },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  // The dashboard must be built from the current protocol (vitest sets NODE_ENV=test; build what ships).
  buildDashboard();
  servers = await startEgressServers();
  const stateDir = mkdtempSync(join(tmpdir(), "airlock-conveyor-e2e-"));
  [edge, browser] = await Promise.all([
    startEdge({
      stateDir,
      entry: "test/edge/worker-entry.ts",
      vars: { AIRLOCK_DOH_URL: servers.dohUrl, TEST_TARGET_PORT: String(servers.targetPort) },
    }),
    launchBrowser(),
    ensureBuilt(),
  ]);
  approverToken = (await edge.pairDevice("browser", "e2e approver CLI")).token;
  page = await (await phoneContext(browser)).newPage();
  await pairPhone(page, edge.base, edge);
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await servers?.close();
});

describe("signed webhook → proposal → phone → executor → audit", () => {
  it("runs the hook's action once, after a tap on the phone, with every transition audited", async () => {
    // 1. The person creates the hook from the CLI with an approver token.
    const home = mkdtempSync(join(tmpdir(), "airlock-home-"));
    const actionFile = join(home, "action.json");
    writeFileSync(
      actionFile,
      JSON.stringify({
        type: "proposal",
        tool: "http.request",
        identity: "bot",
        args: { method: "POST", url: `http://127.0.0.1:${servers.targetPort}/effect` },
        justification: "CI passed on main: start the deploy.",
      }),
    );
    const created = await runToEnd(
      process.execPath,
      [join(ROOT, "bin/airlock.js"), "hooks", "create", "ci", "--action-file", actionFile, "--json"],
      ROOT,
      {
        ...process.env,
        AIRLOCK_HOME: home,
        AIRLOCK_SERVER: edge.base,
        AIRLOCK_APPROVER_TOKEN: approverToken,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const hook = HookWithSecret.parse(JSON.parse(created.stdout));

    // 2. CI sends a delivery signed with the reference library.
    const payload = JSON.stringify({ workflow: "ci", conclusion: "success" });
    const webhookId = `msg_${crypto.randomUUID()}`;
    const signature = new Webhook(hook.secret).sign(webhookId, new Date(), payload);
    const res = await fetch(hook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": webhookId,
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": signature,
      },
      body: payload,
    });
    expect(res.status).toBe(202);
    const { proposal_id } = (await res.json()) as { proposal_id: string };
    const { proposal } = await api<{ proposal: ProposalView }>(`/v1/proposals/${proposal_id}`);
    expect(proposal).toMatchObject({ state: "PENDING", source: { kind: "webhook", ref: hook.id } });
    expect((await fetch(`${servers.controlUrl}/stats`).then((r) => r.json())) as unknown).toMatchObject({
      effects: {},
    });

    // 3. The phone shows it as a card in the approvals queue, with the backend-rendered summary.
    const card = page.locator(`article[data-prompt-id="${proposal.prompt_id}"]`);
    await card.waitFor({ timeout: WAIT_MS });
    const text = (await card.textContent()) ?? "";
    expect(text).toContain(proposal.summary.what);
    expect(text).toContain(proposal.summary.where);
    expect(text).toContain("CI passed on main");
    await page.screenshot({ path: join(ROOT, "test-results", "conveyor-proposal.png") });

    // 4. A tap on Allow once (once the card list is still: a tap right after it moved is refused as a
    // mis-tap); the executor calls the local server exactly once.
    await tapDecision(page, proposal.prompt_id ?? "", "Allow once");
    await card.waitFor({ state: "detached", timeout: WAIT_MS });
    const done = await api<{ proposal: ProposalView }>(`/v1/proposals/${proposal_id}/execute`, {
      method: "POST",
    });
    expect(done.proposal).toMatchObject({
      state: "EXECUTED",
      envelope: { status: "executed", verification: { outcome: "passed" } },
    });
    const stats = (await fetch(`${servers.controlUrl}/stats`).then((r) => r.json())) as {
      effects: Record<string, number>;
    };
    expect(Object.values(stats.effects)).toEqual([1]);

    // 5. A replay of the same delivery changes nothing.
    const replay = await fetch(hook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": webhookId,
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": new Webhook(hook.secret).sign(webhookId, new Date(), payload),
      },
      body: payload,
    });
    expect(await replay.json()).toMatchObject({ duplicate: true, proposal_id });

    // 6. The audit shows every transition, with who decided.
    const { events } = await api<{ events: AuditEvent[] }>("/v1/audit?limit=200");
    const about = (target: string) =>
      events
        .filter((e) => e.target === target)
        .map((e) => [e.event, e.actor])
        .reverse();
    expect(about(proposal_id)).toEqual([
      ["conveyor.proposed", `webhook:${hook.id}`],
      ["conveyor.approved", expect.stringMatching(/^device:dev_/)],
      ["conveyor.executing", "system"],
      ["conveyor.executed", "system"],
    ]);
    expect(about(hook.id).map(([event]) => event)).toEqual([
      "webhook.hook_created",
      "webhook.received",
      "webhook.duplicate",
    ]);
    const list = await runToEnd(
      process.execPath,
      [join(ROOT, "bin/airlock.js"), "hooks", "list", "--json"],
      ROOT,
      {
        ...process.env,
        AIRLOCK_HOME: home,
        AIRLOCK_SERVER: edge.base,
        AIRLOCK_APPROVER_TOKEN: approverToken,
      },
    );
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(hook.id);
    expect(list.stdout).not.toContain(hook.secret);
  });
});
