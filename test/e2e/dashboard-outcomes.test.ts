// Issue 25, fault 6, on a phone at 390×844 against a real local edge: a proposal card names the companion that
// proposed it by its device name (never its raw id) and never scrolls sideways, and once allowed its outcome —
// EXECUTED or FAILED with the envelope's verification line — shows on the card and in the Resolved list.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProposalView } from "../../src/protocol/index.ts";
import { type EgressServers, startEgressServers } from "../support/egress-servers.ts";
import {
  card,
  type Phone,
  pairedPhone,
  rejectPending,
  startStage,
  steady,
  tapDecision,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let servers: EgressServers;
let edge: Edge;
let browser: Browser;
let ui: Phone;
let page: Page;
let companion: { token: string; deviceId: string };
let approverToken: string;

/** A POST to the local target as the bot, proposed by the companion. */
async function propose(path: string, args: Record<string, unknown> = {}): Promise<ProposalView> {
  const res = await fetch(`${edge.base}/v1/proposals`, {
    method: "POST",
    headers: { authorization: `Bearer ${companion.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      tool: "http.request",
      identity: "bot",
      idempotency_key: `outcome-${crypto.randomUUID()}`,
      justification: "Tell the build service the tests passed.",
      args: { method: "POST", url: `http://127.0.0.1:${servers.targetPort}${path}`, ...args },
    }),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

/** Allow once, through the confirm step when the card asks for one. */
async function allowOnce(promptId: string): Promise<void> {
  await tapDecision(page, promptId, "Allow once");
  const confirm = card(page, promptId).getByRole("button", { name: "Yes, allow once" });
  const asked = await confirm.waitFor({ timeout: 1_500 }).then(
    () => true,
    () => false,
  );
  if (asked) {
    await steady(page);
    await confirm.tap();
  }
}

beforeAll(async () => {
  servers = await startEgressServers();
  ({ edge, browser } = await startStage({
    stateDir: mkdtempSync(join(tmpdir(), "airlock-outcomes-e2e-")),
    entry: "test/edge/worker-entry.ts",
    vars: { AIRLOCK_DOH_URL: servers.dohUrl, TEST_TARGET_PORT: String(servers.targetPort) },
  }));
  companion = await edge.pairDevice("companion", "dev laptop");
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  ui = await pairedPhone(browser, edge);
  page = ui.page;
}, 240_000);

// A test that failed half-way leaves no prompt open in front of the next one (one card is answered at a time).
afterEach(() => rejectPending(edge, approverToken));

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await servers?.close();
});

describe("outcomes on the phone (issue 25)", () => {
  it("names the companion, never scrolls sideways, and shows a FAILED outcome with its verification", async () => {
    const proposal = await propose("/fail", { json: { blob: "x".repeat(1500) } });
    const promptId = proposal.prompt_id ?? "";
    await card(page, promptId).locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
    const from = (await card(page, promptId).locator(".proposal-from").textContent()) ?? "";
    expect(from).toContain("dev laptop");
    expect(from).not.toContain(companion.deviceId);
    const shown = (await card(page, promptId).textContent()) ?? "";
    expect(shown).toContain("Companion dev laptop");
    expect(shown).not.toContain(companion.deviceId);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await card(page, promptId).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // High risk with long arguments: the allow waits until they were shown whole.
    await steady(page);
    await card(page, promptId)
      .getByRole("button", { name: /^Show all [\d,]+ characters$/ })
      .tap();
    await allowOnce(promptId);
    const onCard = card(page, promptId).locator('.proposal-outcome[data-state="FAILED"]');
    await onCard.waitFor({ timeout: WAIT_MS });
    expect(await onCard.textContent()).toMatch(/FAILED.*·.*(verified|verification|not verifiable)/);
    const resolved = page.locator(`li.resolved-item[data-prompt-id="${promptId}"] .proposal-outcome`);
    await resolved.waitFor({ timeout: WAIT_MS });
    await expect(resolved.getAttribute("data-state")).resolves.toBe("FAILED");
    const item = (await page.locator(`li.resolved-item[data-prompt-id="${promptId}"]`).textContent()) ?? "";
    expect(item).toContain("Companion dev laptop");
    expect(item).not.toContain(companion.deviceId);
    await page.screenshot({ path: join(ROOT, "test-results", "dashboard-outcome-failed.png") });
  });

  it("shows EXECUTED with the verification line, also after a reload", async () => {
    const proposal = await propose("/effect");
    const promptId = proposal.prompt_id ?? "";
    await card(page, promptId).locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
    await allowOnce(promptId);
    await card(page, promptId)
      .locator('.proposal-outcome[data-state="EXECUTED"]')
      .waitFor({ timeout: WAIT_MS });
    // A page opened later reads the outcome from the API.
    await page.reload();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    const resolved = page.locator(`li.resolved-item[data-prompt-id="${promptId}"] .proposal-outcome`);
    await resolved.waitFor({ timeout: WAIT_MS });
    await expect(resolved.getAttribute("data-state")).resolves.toBe("EXECUTED");
    expect(await resolved.textContent()).toContain("EXECUTED · ");
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
