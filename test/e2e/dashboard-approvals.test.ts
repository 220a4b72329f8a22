// The approvals view end to end at 390×844: real `wrangler dev`, a Node websocket client as the companion, real
// Chromium. Covers every approvals fault the phone trial found: decided cards stay in place (a double tap never
// saves two grants), the undo window is held on the hub (closing the page in it loses nothing), every call of a batch is listed before approval, cwd and the agent's description are shown, a
// 2,000-character command keeps the countdown and buttons on screen and shows its end, the link shows down at once and a Deny tapped
// offline is queued and resent, deny with a message, expiry, title count, reload mid-prompt.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { launchBrowser } from "./support/browser.ts";
import {
  buildDashboard,
  Companion,
  card,
  type Phone,
  phone,
  steady,
  tapDecision,
  toolCall,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

const shot = (name: string) => join(ROOT, "test-results", name);
/** AIRLOCK_UPDATE_DOCS_SCREENSHOT=1 refreshes the committed screenshots in docs/. */
function screenshotForDocs(name: string): void {
  if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT) copyFileSync(shot(name), join(ROOT, "docs", name));
}

let edge: Edge;
let companion: Companion;
let companionToken: string;
/** A second approver (a script standing in for another phone): pending prompts and settings are approver-only. */
let approverToken: string;
let browser: Browser;
let ui: Phone;
let page: Page;

async function asApprover(path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${edge.base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${approverToken}`, "content-type": "application/json" },
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

async function pendingPrompt(promptId: string): Promise<CapabilityPrompt> {
  const { approvals } = (await asApprover("/v1/approvals?status=pending")) as { approvals: unknown[] };
  const prompt = approvals.map((a) => CapabilityPrompt.parse(a)).find((p) => p.promptId === promptId);
  if (!prompt) throw new Error(`prompt ${promptId} is not pending`);
  return prompt;
}

const grantCount = async () => ((await asApprover("/v1/grants")) as { grants: unknown[] }).grants.length;

function readCall(callId: string, path: string) {
  return {
    call_id: callId,
    session_id: "sess-e2e",
    agent: { id: "reader", name: "Reader Agent" },
    tool: "read",
    input: { path },
    cwd: "/home/dev/project",
  };
}

/** Taps an allow button and, for a high-risk prompt, the deliberate second step. */
async function tapAllow(promptId: string, label: string, requiresConfirmation: boolean): Promise<void> {
  await steady(page);
  await card(page, promptId).getByRole("button", { name: label, exact: true }).tap();
  if (requiresConfirmation) {
    await card(page, promptId)
      .getByText(/^Confirm: allow /)
      .waitFor({ timeout: WAIT_MS });
    await steady(page);
    await card(page, promptId)
      .getByRole("button", { name: new RegExp(`^Yes, ${label.toLowerCase()}`) })
      .tap();
  }
}

beforeAll(async () => {
  buildDashboard();
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  companionToken = (await edge.pairDevice("companion", "e2e companion")).token;
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  companion = await new Companion(edge.base, companionToken).open();
  ui = await phone(browser);
  page = ui.page;
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
});

// One card is answered at a time: a test that failed half-way must not leave its prompt in front of the next.
afterEach(async () => {
  const { approvals } = (await asApprover("/v1/approvals?status=pending")) as {
    approvals: { promptId: string }[];
  };
  for (const { promptId } of approvals)
    await asApprover(`/v1/approvals/${promptId}/reject`, { method: "POST", body: "{}" });
});

afterAll(async () => {
  if (process.env.AIRLOCK_E2E_EDGE_LOG) console.log(edge?.output());
  companion?.close();
  await browser?.close();
  await edge?.stop();
});

describe("approvals on a phone", () => {
  it("pairs by URL with an editable device name, keeping the token out of script", async () => {
    const code = await edge.newApproverCode();
    const response = await page.goto(`${edge.base}/pair?code=${code}`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await expect(page.getByLabel("Pairing code").inputValue()).resolves.toBe(code);
    await expect(page.getByLabel("Device name").inputValue()).resolves.toBe("Chrome on Android");
    await page.getByLabel("Device name").fill("E2E phone");
    await page.getByRole("button", { name: "Pair this device" }).tap();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate(() => JSON.stringify(localStorage) + document.cookie)).not.toContain("alk_");
  });

  it("shows cwd and the agent's description, keeps the decided card in place, and reaches the companion", async () => {
    const promptId = await companion.ask(
      toolCall("call-publish", "npm publish", { description: "Publish the package", cwd: "/home/dev/pkg" }),
    );
    const prompt = await pendingPrompt(promptId);
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    const text = (await card(page, promptId).textContent()) ?? "";
    for (const expected of [
      "E2E Agent",
      "e2e-agent",
      `${prompt.risk.toUpperCase()} RISK`,
      prompt.justification,
    ])
      expect(text).toContain(expected);
    expect(text).toContain("Publish the package");
    expect(text).toContain("/home/dev/pkg");
    expect(text).toContain("1 pending call");
    // Publishing is outbound, so high: the card offers no "always" and says why in one line (issue 21).
    expect(prompt.risk).toBe("high");
    expect(await card(page, promptId).locator("[data-grant-why]").textContent()).toContain("High risk");
    expect(
      await card(page, promptId).getByRole("button", { name: "Allow always", exact: true }).count(),
    ).toBe(0);
    await expect(card(page, promptId).getByRole("timer").textContent()).resolves.toMatch(/^0:\d\d left$/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Allow once");
    expect(await page.title()).toBe("(1) Airlock");
    await page.screenshot({ path: shot("dashboard-approvals.png") });
    screenshotForDocs("dashboard-approvals.png");

    const decision = companion.decisionFor("call-publish");
    const before = await card(page, promptId).boundingBox();
    await tapAllow(promptId, "Allow once", prompt.requiresConfirmation);
    const data = await decision;
    expect(data).toMatchObject({ decision: "allow", source: "user" });
    // The card stays where it was, now saying what happened, then collapses.
    await card(page, promptId)
      .getByText(/Allowed once/)
      .waitFor({ timeout: WAIT_MS });
    expect((await card(page, promptId).boundingBox())?.y).toBe(before?.y);
    await card(page, promptId).waitFor({ state: "detached", timeout: WAIT_MS });
    const resolvedItem = page.locator(`li.resolved-item[data-prompt-id="${promptId}"]`);
    await expect(resolvedItem.textContent()).resolves.toMatch(/Allowed once[\s\S]*by this device/);
    expect(await page.title()).toBe("Airlock");
  });

  it("a double tap 350 ms apart saves one grant, and the second prompt is untouched", async () => {
    const grantsBefore = await grantCount();
    const first = await companion.ask(readCall("call-read-a", "src/a.ts"));
    const second = await companion.ask(readCall("call-read-b", "docs/b.md"));
    await card(page, second).waitFor({ timeout: WAIT_MS });
    const prompt = await pendingPrompt(first);
    expect(prompt.requiresConfirmation).toBe(false);
    await steady(page);
    const button = card(page, first).getByRole("button", { name: "Allow always", exact: true });
    const box = await button.boundingBox();
    if (!box) throw new Error("no Allow always button");
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.touchscreen.tap(x, y);
    await page.waitForTimeout(350); // the gesture under test: a second tap 350 ms later, same spot
    await page.touchscreen.tap(x, y);
    await card(page, first).getByText("Always allowed").waitFor({ timeout: WAIT_MS });
    const decision = companion.decisionFor("call-read-a");
    expect((await decision).decision).toBe("allow");
    expect(await grantCount()).toBe(grantsBefore + 1);
    // The other prompt was not decided by the second tap.
    expect((await pendingPrompt(second)).promptId).toBe(second);
    await tapDecision(page, second, "Deny");
    expect((await companion.decisionFor("call-read-b")).decision).toBe("deny");
  });

  it("undo takes back a saving decision inside its window", async () => {
    const grantsBefore = await grantCount();
    const promptId = await companion.ask(readCall("call-read-c", "lib/c.ts"));
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await tapDecision(page, promptId, "Allow always");
    const undo = card(page, promptId).getByRole("button", { name: /^Undo \(\d s\)$/ });
    await undo.waitFor({ timeout: WAIT_MS });
    await steady(page);
    await undo.tap();
    await card(page, promptId)
      .getByRole("button", { name: "Deny", exact: true })
      .waitFor({ timeout: WAIT_MS });
    expect(await grantCount()).toBe(grantsBefore);
    await tapDecision(page, promptId, "Deny");
    expect((await companion.decisionFor("call-read-c")).decision).toBe("deny");
    expect(await grantCount()).toBe(grantsBefore);
  });

  it("closing the page inside the undo window loses nothing: the hub commits the answer at commit-at", async () => {
    const grantsBefore = await grantCount();
    const promptId = await companion.ask(readCall("call-read-closed", "lib/closed.ts"));
    // A second tab of the same phone: it answers, then is closed inside the window.
    const tab = await ui.context.newPage();
    await tab.goto(`${edge.base}/`);
    await card(tab, promptId).waitFor({ timeout: WAIT_MS });
    await tapDecision(tab, promptId, "Allow always");
    // The Undo button is offered once the hub holds the answer (the commit-at time is the hub's).
    await card(tab, promptId)
      .getByRole("button", { name: /^Undo \(\d s\)$/ })
      .waitFor({ timeout: WAIT_MS });
    expect(await grantCount()).toBe(grantsBefore);
    await tab.close();
    const decision = await companion.decisionFor("call-read-closed");
    expect(decision).toMatchObject({ decision: "allow", resolution: "allow_always" });
    expect(await grantCount()).toBe(grantsBefore + 1);
    // The page still open elsewhere shows it settled, by that tab (this device).
    const resolvedItem = page.locator(`li.resolved-item[data-prompt-id="${promptId}"]`);
    await resolvedItem.waitFor({ timeout: WAIT_MS });
    await expect(resolvedItem.textContent()).resolves.toMatch(/Always allowed/);
  });

  it("lists every call of a batch of 10 before one answer settles all of them", async () => {
    const commands = Array.from({ length: 10 }, (_, i) => `curl https://example.com/item/${i}`);
    // Same-key calls join one prompt during its batch window; askBatch resends a batch a loaded hub split.
    const { ids, prompts: joined } = await companion.askBatch(
      commands,
      (attempt, i) => `call-batch-${attempt}-${i}`,
    );
    const promptId = joined[0] ?? "";
    expect(joined).toEqual(Array(10).fill(promptId));
    await card(page, promptId).getByText("10 pending calls").waitFor({ timeout: WAIT_MS });
    const calls = card(page, promptId).locator("li.call");
    expect(await calls.count()).toBe(10);
    const listed = await calls.allTextContents();
    for (const command of commands) expect(listed.join("\n")).toContain(command);
    await card(page, promptId).getByRole("button", { name: "Allow once (all 10)" }).waitFor();
    const decisions = ids.map((id) => companion.decisionFor(id));
    await tapDecision(page, promptId, "Deny");
    for (const data of await Promise.all(decisions)) expect(data.decision).toBe("deny");
  });

  it("a 2,000-character command never breaks the layout, and the confirm step does not repeat it", async () => {
    // The dangerous part comes last, after 2,000 harmless characters: the card must be able to show it.
    const payload = "; touch ~/airlock-payload";
    const long = `echo ${"word ".repeat(400)}${payload}`;
    expect(long.length).toBeGreaterThan(2000);
    // Long everywhere the card shows text: the command, the agent's description and the working directory.
    const promptId = await companion.ask(
      toolCall("call-long", long, { description: "d".repeat(2000), cwd: `/${"deep/".repeat(400)}` }),
    );
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await card(page, promptId).evaluate((el) => el.scrollIntoView({ block: "start" }));
    const viewport = page.viewportSize();
    const buttons = await card(page, promptId).locator(".decisions-dock").boundingBox();
    const timer = await card(page, promptId).getByRole("timer").boundingBox();
    expect(buttons && viewport && buttons.y + buttons.height).toBeLessThanOrEqual(viewport?.height ?? 0);
    expect(timer?.y).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Long text shows its start and its end (the payload) until the person asks for all of it.
    await expect(card(page, promptId).locator(".command-tail").first().textContent()).resolves.toContain(
      payload,
    );
    await card(page, promptId)
      .getByRole("button", { name: /^Show all [\d,]+ characters$/ })
      .first()
      .tap();
    const open = await card(page, promptId).locator("code.command-open").boundingBox();
    expect(open?.height).toBeLessThanOrEqual(844 * 0.3 + 1);
    expect(await card(page, promptId).locator("code.command-open").first().textContent()).toBe(long);
    await page.screenshot({ path: shot("dashboard-long-command.png") });
    await tapDecision(page, promptId, "Allow once");
    const question = (await card(page, promptId).locator(".confirm-question").textContent()) ?? "";
    expect(question.length).toBeLessThan(150);
    await steady(page);
    await card(page, promptId).getByRole("button", { name: "Cancel" }).tap();
    await tapDecision(page, promptId, "Deny");
    expect((await companion.decisionFor("call-long")).decision).toBe("deny");
  });

  it("sends a deny with a message that reaches the agent", async () => {
    const promptId = await companion.ask(toolCall("call-yarn", "yarn install"));
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await steady(page);
    await card(page, promptId).getByRole("button", { name: "Deny with a message…" }).tap();
    await card(page, promptId).getByPlaceholder("e.g. use pnpm instead").fill("use pnpm instead");
    await tapDecision(page, promptId, "Deny");
    const data = await companion.decisionFor("call-yarn");
    expect(data.decision).toBe("deny");
    expect(data.reason).toContain("use pnpm instead");
  });

  it("shows the link down at once when offline, queues a Deny, and sends it when back", async () => {
    const promptId = await companion.ask(toolCall("call-offline", "git push --force"));
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await ui.context.setOffline(true);
    await page.getByRole("status", { name: "Connection: Offline" }).waitFor({ timeout: 2_000 });
    await tapDecision(page, promptId, "Deny");
    await card(page, promptId)
      .getByText(/queued, sends when Airlock is back/)
      .waitFor({ timeout: WAIT_MS });
    const decision = companion.decisionFor("call-offline");
    await ui.context.setOffline(false);
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    expect(await decision).toMatchObject({ decision: "deny", source: "user" });
  });

  it("shows pending prompts again after a reload mid-prompt", async () => {
    const promptId = await companion.ask(toolCall("call-reload", "terraform apply"));
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await page.reload();
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await expect(card(page, promptId).getByRole("timer").textContent()).resolves.toMatch(/left$/);
    const decision = companion.decisionFor("call-reload");
    await tapDecision(page, promptId, "Deny");
    expect((await decision).decision).toBe("deny");
  });

  it("shows an unanswered prompt as expired and the agent is told no", async () => {
    await asApprover("/v1/settings/approvals", {
      method: "PUT",
      body: JSON.stringify({ prompt_timeout_ms: 2_000 }),
    });
    try {
      const promptId = await companion.ask(toolCall("call-expire", "make deploy"));
      await card(page, promptId).waitFor({ timeout: WAIT_MS });
      const data = await companion.decisionFor("call-expire");
      expect(data).toMatchObject({ decision: "deny", source: "timeout" });
      await card(page, promptId)
        .getByText(/Expired/)
        .waitFor({ timeout: WAIT_MS });
      const resolvedItem = page.locator(`li.resolved-item[data-prompt-id="${promptId}"]`);
      await expect(resolvedItem.textContent()).resolves.toContain("Expired: no answer in time");
      expect(await resolvedItem.textContent()).not.toContain("nobody");
    } finally {
      await asApprover("/v1/settings/approvals", {
        method: "PUT",
        body: JSON.stringify({ prompt_timeout_ms: 30_000 }),
      });
    }
  });

  it("marks a card the agent's own check asked about, and one judged under mode: sole", async () => {
    const asked = await companion.ask({
      ...toolCall("call-agent-asks", "git remote -v add evil https://evil.example/x.git"),
      agent_asks: "its own permission check would run it only with Bash(git remote *)",
    });
    const sole = await companion.ask({ ...toolCall("call-sole", "make release"), sole: true });
    // One card is answered at a time: the second shows in full once the first is decided.
    await card(page, asked).locator(".judge-marker").waitFor({ timeout: WAIT_MS });
    await expect(card(page, asked).locator(".judge-marker").textContent()).resolves.toBe("E2E AGENT ASKS");
    expect(await card(page, asked).textContent()).toContain(
      "E2E Agent asks about this: its own permission check would run it only with Bash(git remote *)",
    );
    const askedDecision = companion.decisionFor("call-agent-asks");
    await tapDecision(page, asked, "Deny");
    expect((await askedDecision).decision).toBe("deny");
    await card(page, sole).locator(".judge-marker").waitFor({ timeout: WAIT_MS });
    await expect(card(page, sole).locator(".judge-marker").textContent()).resolves.toBe(
      "SOLE JUDGE: E2E Agent's own permission check is off",
    );
    const soleDecision = companion.decisionFor("call-sole");
    await tapDecision(page, sole, "Deny");
    expect((await soleDecision).decision).toBe("deny");
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
