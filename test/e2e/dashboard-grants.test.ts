// Issue 31 on a phone at 390×844 against a real local edge: the Grants view, read before the grant existed,
// shows a grant saved with "Allow always" on a proposal card (what it covers, who saved it, from which card,
// last use) and revokes it; the next such proposal asks again. The CLI lists it with an approver token and
// is refused with the companion's.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GrantList } from "../../src/protocol/grants.ts";
import type { ProposalView } from "../../src/protocol/index.ts";
import { ensureBuilt } from "../support/build.ts";
import { type EgressServers, startEgressServers } from "../support/egress-servers.ts";
import { runToEnd } from "../support/run-process.ts";
import { card, pairedPhone, startStage, tapDecision, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let servers: EgressServers;
let edge: Edge;
let browser: Browser;
let page: Page;
let companionToken: string;
let approverToken: string;
let problems: string[];

async function as<T>(token: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${edge.base}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A POST to the local target as the bot; with `body`, data leaves (an EXFILTRATION). */
async function propose(label: string, body?: unknown): Promise<ProposalView> {
  const url = `http://127.0.0.1:${servers.targetPort}/effect`;
  const { body: answer } = await as<{ proposal: ProposalView }>(companionToken, "/v1/proposals", {
    method: "POST",
    json: {
      tool: "http.request",
      identity: "bot",
      idempotency_key: `${label}-${crypto.randomUUID()}`,
      justification: "Tell the build service the tests passed.",
      args: { method: "POST", url, ...(body === undefined ? {} : { json: body }) },
    },
  });
  return answer.proposal;
}

function cli(args: string[], token: string) {
  return runToEnd(process.execPath, [join(ROOT, "bin/airlock.js"), ...args], ROOT, {
    ...process.env,
    AIRLOCK_HOME: mkdtempSync(join(tmpdir(), "airlock-home-")),
    AIRLOCK_SERVER: edge.base,
    AIRLOCK_APPROVER_TOKEN: token,
  });
}

async function go(target: string): Promise<void> {
  await page.goto(`${edge.base}${target}`);
  await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
}

beforeAll(async () => {
  servers = await startEgressServers();
  const [stage] = await Promise.all([
    startStage({
      stateDir: mkdtempSync(join(tmpdir(), "airlock-grants-e2e-")),
      entry: "test/edge/worker-entry.ts",
      vars: { AIRLOCK_DOH_URL: servers.dohUrl, TEST_TARGET_PORT: String(servers.targetPort) },
    }),
    ensureBuilt(),
  ]);
  ({ edge, browser } = stage);
  companionToken = (await edge.pairDevice("companion", "dev laptop")).token;
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  const ui = await pairedPhone(browser, edge);
  page = ui.page;
  problems = ui.problems;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await servers?.close();
});

describe("a proposal grant on the phone's Grants view", () => {
  it("read before it existed, then shown with what it covers, revoked, and the next proposal asks again", async () => {
    // The person looks at Grants first (the read that used to freeze the hub's copy).
    await go("/grants");
    await page.getByText("No proposal grants.").waitFor({ timeout: WAIT_MS });

    // A proposal reaches the phone; the person taps "Allow always" on its card.
    const first = await propose("grants-e2e");
    expect(first.state).toBe("PENDING");
    await go("/");
    await card(page, first.prompt_id ?? "").waitFor({ timeout: WAIT_MS });
    await tapDecision(page, first.prompt_id ?? "", "Allow always");
    await card(page, first.prompt_id ?? "").waitFor({ state: "detached", timeout: WAIT_MS });

    // The same proposal again runs on the grant (its last use).
    const covered = await propose("grants-e2e-covered");
    expect(covered).toMatchObject({ gate: "none" });
    expect(["APPROVED", "EXECUTED"]).toContain(covered.state);

    // It never covers a POST with a body to the same endpoint (issue 22): that waits for a person and a token.
    const effects = async () =>
      Object.keys(
        ((await (await fetch(`${servers.controlUrl}/stats`)).json()) as { effects: object }).effects,
      ).length;
    const before = await effects();
    const exfil = await propose("grants-e2e-exfil", { build: "green", token: "x" });
    expect(exfil).toMatchObject({ state: "PENDING", risk_class: "EXFILTRATION", gate: "ask_confirm" });
    expect(await effects()).toBe(before);

    // The Grants view lists it: what it covers, who saved it, from which card, when last used.
    await go("/grants");
    const item = page.locator("li[data-proposal-grant]");
    await item.waitFor({ timeout: WAIT_MS });
    const text = (await item.textContent()) ?? "";
    expect(text).toContain(`http.request POST 127.0.0.1:${servers.targetPort}/effect`);
    expect(text).toContain("as bot, WRITE only");
    expect(text).toContain("by E2E phone");
    expect(text).toContain(`card ${first.prompt_id}`);
    expect(text).not.toContain("last used never");
    await page.screenshot({ path: join(ROOT, "test-results", "dashboard-grants-proposal.png") });

    // The CLI lists the same grant with an approver token; the companion's token is refused.
    const listed = await cli(["grants", "list", "--json"], approverToken);
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout) as GrantList;
    expect(list.conveyor_grants).toEqual([
      expect.objectContaining({
        tool: "http.request",
        risk_class: "WRITE",
        identity: "bot",
        prompt_id: first.prompt_id,
      }),
    ]);
    const refused = await cli(["grants", "list"], companionToken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403|approver/);

    // Revoked on the phone: gone from the list, and the next such proposal waits for a person.
    await item.getByRole("button", { name: /^Revoke/ }).tap();
    await item.getByRole("button", { name: "Revoke grant" }).tap();
    await page.getByText("No proposal grants.").waitFor({ timeout: WAIT_MS });
    const { body } = await as<GrantList>(approverToken, "/v1/grants");
    expect(body.conveyor_grants).toEqual([]);
    const after = await propose("grants-e2e-after");
    expect(after).toMatchObject({ state: "PENDING", gate: "ask" });
    expect(problems).toEqual([]);
  });
});
