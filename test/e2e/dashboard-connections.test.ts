// Connecting Google from the phone (Chromium at 390×844) against a real local edge whose OAuth goes to the contract
// server: Connections is reachable from More, "Connect Google" as you with only "Read mail" opens the provider's
// consent page, Allow comes back through the edge's callback to the view, which lists the connection with its
// scopes and "as you"; Revoke with its confirm removes it, and the provider's revoke endpoint was called.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthContractServer, startOAuthContractServer } from "../support/oauth-contract-server.ts";
import { OAUTH_TEST_SECRETS } from "../support/oauth-test-secrets.ts";
import { pairedPhone, startStage, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let oauth: OAuthContractServer;
let page: Page;
let problems: string[];

beforeAll(async () => {
  oauth = await startOAuthContractServer();
  ({ edge, browser } = await startStage({
    stateDir: mkdtempSync(join(tmpdir(), "airlock-connections-e2e-")),
    entry: "test/edge/worker-entry.ts",
    vars: { TEST_OAUTH_URL: oauth.url, ...OAUTH_TEST_SECRETS },
  }));
  const ui = await pairedPhone(browser, edge);
  page = ui.page;
  problems = ui.problems;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await oauth?.close();
});

describe("Connections on the phone", () => {
  it("connects Google as you through the provider's consent, lists it with its scopes, and revokes it", async () => {
    const account = "person-e2e@example.com";
    await page.getByRole("link", { name: "More" }).tap();
    await page.getByRole("link", { name: /Connections/ }).tap();
    await page.getByRole("heading", { name: "Connections" }).waitFor({ timeout: WAIT_MS });
    await page.getByText("Nothing connected").waitFor({ timeout: WAIT_MS });

    const google = page.locator('section[data-provider="google"]');
    await google.getByLabel("As you (your Google account)").check();
    expect(await google.getByLabel("Read mail").isChecked()).toBe(true);
    await google.getByRole("button", { name: "Connect Google" }).tap();

    // The provider's consent page (the contract server), listing exactly what was asked for.
    await page.waitForURL(`${oauth.url}/**`, { timeout: WAIT_MS });
    const scopes = await page.locator("li.scope").allTextContents();
    expect(scopes).toEqual(["openid", "email", "https://www.googleapis.com/auth/gmail.readonly"]);
    await page.getByLabel("Account").fill(account);
    await page.getByRole("button", { name: "Allow" }).tap();

    // Back through the edge's callback to the view.
    await page.waitForURL(`${edge.base}/connections?connected=*`, { timeout: WAIT_MS });
    await page.getByRole("status").filter({ hasText: "Connected." }).waitFor({ timeout: WAIT_MS });
    const row = page.locator("li[data-connection-id]");
    await row.waitFor({ timeout: WAIT_MS });
    expect(await row.locator(".identity").textContent()).toBe("as you");
    expect(await row.locator(".account").textContent()).toBe(account);
    expect(await row.locator(".scopes li").allTextContents()).toContain("Read mail");
    expect(await row.textContent()).toContain("Last used never");
    const box = await row.locator(".identity").boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(18);
    // One-handed use: every button, and every choice's whole label row, is at least 44 px tall.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("main button, main label")]
        .filter((el) => el.getBoundingClientRect().height < 44)
        .map((el) => el.textContent?.trim() ?? el.tagName),
    );
    expect(small).toEqual([]);
    await page.screenshot({ path: join(ROOT, "test-results", "dashboard-connections.png") });
    if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT) {
      copyFileSync(
        join(ROOT, "test-results", "dashboard-connections.png"),
        join(ROOT, "docs", "dashboard-connections.png"),
      );
    }
    expect(
      oauth
        .events()
        .filter((e) => e.endpoint === "token")
        .map((e) => e.outcome),
    ).toEqual(["issued"]);

    // Revoke, with its confirm.
    await row.getByRole("button", { name: /Revoke/ }).tap();
    await row.getByText(`Revoke Google as you (${account})?`).waitFor({ timeout: WAIT_MS });
    await row.locator("fieldset.confirm").getByRole("button", { name: "Revoke", exact: true }).tap();
    await row.waitFor({ state: "detached", timeout: WAIT_MS });
    await page.getByText("Nothing connected").waitFor({ timeout: WAIT_MS });
    const revoked = oauth.events().filter((e) => e.endpoint === "revoke");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ provider: "google", account, outcome: "revoked" });
    expect(revoked[0]?.token?.startsWith("1//")).toBe(true);

    expect(problems).toEqual([]);
  });
});
