// Issue 21 on a phone at 390×844 against a real local edge: after the person approved the same call three
// times, the Approvals view offers the rule that would have allowed it (YAML, the account policy's diff, what
// else it allows); one tap adds it and the next such call runs without asking. The Policy view shows asks per
// 100 calls by reason.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionResponse } from "../../src/protocol/decisions.ts";
import { pairedPhone, startStage, toolCall, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let page: Page;
let companionToken: string;
let approverToken: string;
let problems: string[];

async function as<T>(token: string, path: string, json?: unknown) {
  const res = await fetch(`${edge.base}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

let calls = 0;
/** A companion's call; answered "Allow once" by the script approver when it asks. */
async function approvedOnce(command: string): Promise<void> {
  const request = toolCall(`ins-${++calls}`, command, { cwd: "/work/repo" });
  const asked = await as<{ prompt_id: string }>(companionToken, "/v1/decisions?wait=false", request);
  expect(asked.status).toBe(202);
  const answered = await as(approverToken, `/v1/approvals/${asked.body.prompt_id}/approve`, {
    scope: "once",
  });
  expect(answered.status).toBe(200);
}

beforeAll(async () => {
  ({ edge, browser } = await startStage());
  companionToken = (await edge.pairDevice("companion", "dev laptop")).token;
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  for (let i = 0; i < 3; i++) await approvedOnce("git log --oneline");
  await approvedOnce("ls src");
  const ui = await pairedPhone(browser, edge);
  page = ui.page;
  problems = ui.problems;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
});

describe("suggestions and stats on the phone", () => {
  it("the Policy view shows asks per 100 calls, by reason", async () => {
    await page.goto(`${edge.base}/policy`);
    const panel = page.locator(".policy-stats");
    await panel.waitFor({ timeout: WAIT_MS });
    expect(await panel.locator(".stats-total").textContent()).toContain(
      "100 asks per 100 calls over the last 7 days",
    );
    expect(await panel.locator('tr[data-reason="no_rule"] .stats-number').textContent()).toBe("100");
    expect(await panel.locator('tr[data-reason="high"] .stats-number').textContent()).toBe("0");
    const rows = await panel.locator("tr th").allTextContents();
    expect(rows).toEqual(["Not understood", "No rule", "HIGH risk", "Causal change", "A rule asks"]);
    // The panel fits the phone's width.
    const box = await panel.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ROOT, "test-results/dashboard-stats.png"), fullPage: true });
  });

  it("Approvals offers the rule for the call approved 3 times; one tap adds it and the call then runs", async () => {
    await page.goto(`${edge.base}/`);
    const cardLocator = page.getByRole("article", { name: "Suggested rule: Allow git log --oneline" });
    await cardLocator.waitFor({ timeout: WAIT_MS });
    // Only the call approved three times: `ls src` was approved once.
    expect(await page.locator("article.suggestion").count()).toBe(1);
    const text = (await cardLocator.textContent()) ?? "";
    expect(text).toContain("You approved git log --oneline 3 times in /work/repo");
    expect(await cardLocator.locator(".suggestion-yaml").textContent()).toBe(
      '- name: Allow git log --oneline\n  condition: tool == "bash" && command == "git log --oneline" && dir == "/work/repo"\n  action: allow',
    );
    await cardLocator.getByText("Account policy diff").tap();
    expect(await cardLocator.locator(".suggestion-diff").textContent()).toContain(
      "+   - name: Allow git log --oneline",
    );
    await cardLocator.getByText("Explain: what else it allows").tap();
    expect(await cardLocator.locator(".suggestion-explain li").first().textContent()).toBe(
      "Allows exactly `git log --oneline`, for every agent, run in /work/repo.",
    );
    const box = await cardLocator.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ROOT, "test-results/dashboard-suggestion.png"), fullPage: true });

    await cardLocator.getByRole("button", { name: "Add to account policy" }).tap();
    await page
      .getByRole("status")
      .filter({ hasText: "Added “Allow git log --oneline” to the account policy." })
      .waitFor({
        timeout: WAIT_MS,
      });
    await cardLocator.waitFor({ state: "detached", timeout: WAIT_MS });

    const now = await as<DecisionResponse>(
      companionToken,
      "/v1/decisions",
      toolCall(`ins-${++calls}`, "git log --oneline", { cwd: "/work/repo" }),
    );
    expect(now.body).toMatchObject({ decision: "allow", source: "policy" });
    const audit = await as<{ events: { event: string; actor: string }[] }>(
      approverToken,
      "/v1/audit?event=policy.suggestion_accepted",
    );
    expect(audit.body.events).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
