// Issue 25, fault 3, at 390×844: a passkey registered on http://localhost, and the same phone on another host
// (http://phone.localhost here; pages.dev vs a custom domain in production) or on http://127.0.0.1 (where WebAuthn
// never works). Where no passkey signs, the phone says where it works and offers the recovery code once instead of
// the browser's "127.0.0.1 is an invalid domain"; on a host that can hold one, "Add a passkey for this host" makes the
// next step-up there a fingerprint. An emergency switch turns on without a passkey, and off with the recovery code,
// which is then used up: the same code never works twice, and a wrong one changes nothing.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVirtualAuthenticator, launchBrowser } from "./support/browser.ts";
import {
  buildDashboard,
  Companion,
  card,
  type Phone,
  pairPhone,
  phone,
  tapDecision,
  toolCall,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let companion: Companion;
let companionToken: string;
/** One phone on three addresses: its passkey is made on localhost. */
let owner: Phone;
let byIp: Phone;
let recovery: string;
let named: string;
let other: string;

async function readOnly(): Promise<boolean> {
  const res = await fetch(`${edge.base}/v1/settings/emergency`, {
    headers: { authorization: `Bearer ${companionToken}` },
  });
  return ((await res.json()) as { readOnly: boolean }).readOnly;
}

/** Taps Allow once and its confirmation on a high-risk card. */
async function allowHighRisk(page: Page, promptId: string): Promise<void> {
  await card(page, promptId).locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
  await tapDecision(page, promptId, "Allow once");
  await tapDecision(page, promptId, "Yes, allow once");
}

beforeAll(async () => {
  buildDashboard();
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  named = `http://localhost:${edge.port}`;
  other = `http://phone.localhost:${edge.port}`;
  const paired = await edge.pairDevice("companion", "build box");
  companionToken = paired.token;
  companion = await new Companion(edge.base, companionToken).open();
  owner = await phone(browser);
  await addVirtualAuthenticator(owner.page);
  await pairPhone(owner.page, named, edge, "Phone on localhost");
  await owner.page.goto(`${named}/devices`);
  await owner.page.getByText("Loading…").first().waitFor({ state: "detached", timeout: WAIT_MS });
  await owner.page.getByRole("button", { name: "Register a passkey" }).tap();
  await owner.page.getByText("Passkey registered.").waitFor({ timeout: WAIT_MS });
  // The same phone opens the other host (its own cookie there), and another browser sits on the IP address.
  await pairPhone(owner.page, other, edge, "Phone on phone.localhost");
  byIp = await phone(browser);
  await addVirtualAuthenticator(byIp.page);
  await pairPhone(byIp.page, edge.base, edge, "Phone on 127.0.0.1");
  // Every phone is paired before the recovery code is first used up (pairing codes come from it here).
  recovery = edge.recoveryCode;
}, 180_000);

afterAll(async () => {
  companion?.close();
  await browser?.close();
  await edge?.stop();
});

describe("passkeys across hosts (issue 25)", () => {
  it("on another host: says where the passkey works, takes the recovery code once, adds a passkey here", async () => {
    const page = owner.page;
    await page.goto(`${other}/`);
    const promptId = await companion.ask(toolCall("call-publish-1", "npm publish"));
    await allowHighRisk(page, promptId);
    const sheet = page.getByRole("dialog");
    await sheet.waitFor({ timeout: WAIT_MS });
    const reason = (await sheet.getByTestId("step-up-reason").textContent()) ?? "";
    expect(reason).toContain(`Your passkey works on ${named}, not on phone.localhost`);
    expect(reason).not.toMatch(/invalid domain/);
    const link = sheet.getByRole("link", { name: `Open localhost:${edge.port} instead` });
    expect(await link.getAttribute("href")).toBe(`${named}/`);

    // A wrong code: said in the sheet, nothing decided, the code not used up.
    await sheet.getByLabel("Recovery code").fill("0000-0000-0000-0000-0000-0000");
    await sheet.getByRole("button", { name: "Use the recovery code" }).tap();
    await sheet
      .getByText(/That recovery code is wrong, or it was already used\. Nothing was changed\./)
      .waitFor({
        timeout: WAIT_MS,
      });
    expect(companion.received.some((m) => m.type === "capability_decision")).toBe(false);

    if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT) {
      await page.screenshot({ path: join(ROOT, "test-results", "dashboard-passkey-recovery.png") });
      copyFileSync(
        join(ROOT, "test-results", "dashboard-passkey-recovery.png"),
        join(ROOT, "docs", "dashboard-passkey-recovery.png"),
      );
    }

    const decision = companion.decisionFor("call-publish-1");
    await sheet.getByLabel("Recovery code").fill(recovery);
    await sheet.getByRole("button", { name: "Use the recovery code" }).tap();
    const fresh = ((await sheet.getByTestId("new-recovery-code").textContent()) ?? "").trim();
    expect(fresh).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
    expect(fresh).not.toBe(recovery);
    await sheet.getByRole("button", { name: "Add a passkey for this host, then continue" }).tap();
    expect((await decision).decision).toBe("allow");
    await sheet.waitFor({ state: "detached", timeout: WAIT_MS });
    recovery = fresh;

    await page.goto(`${other}/devices`);
    await page.getByText(`for ${other}`).waitFor({ timeout: WAIT_MS });
    await page.getByText(`for ${named}`).waitFor({ timeout: WAIT_MS });
  });

  it("on that host the next step-up is the new passkey: no recovery code", async () => {
    const page = owner.page;
    await page.goto(`${other}/`);
    const promptId = await companion.ask(toolCall("call-publish-2", "npm publish --tag next"));
    const decision = companion.decisionFor("call-publish-2");
    await allowHighRisk(page, promptId);
    expect((await decision).decision).toBe("allow");
    expect(await page.getByRole("dialog").count()).toBe(0);
  });

  it("on an IP address: says why and where to open instead; Cancel decides nothing, Deny still works", async () => {
    expect(new URL(edge.base).hostname).toBe("127.0.0.1");
    const page = byIp.page;
    await page.goto(`${edge.base}/`);
    const promptId = await companion.ask(toolCall("call-publish-3", "npm publish"));
    await allowHighRisk(page, promptId);
    const sheet = page.getByRole("dialog");
    await sheet.waitFor({ timeout: WAIT_MS });
    expect(await sheet.getByTestId("step-up-reason").textContent()).toContain(
      "Passkeys do not work on an IP address (127.0.0.1)",
    );
    expect(await sheet.getByRole("link").getAttribute("href")).toBe(`${named}/`);
    await sheet.getByRole("button", { name: "Cancel" }).tap();
    const note = card(page, promptId).locator(".dock-note.error");
    await note.waitFor({ timeout: WAIT_MS });
    const text = (await note.textContent()) ?? "";
    expect(text).toContain("Passkeys do not work on an IP address (127.0.0.1)");
    expect(text).toContain(named);
    expect(text).toContain("Nothing was changed.");
    expect(text).not.toMatch(/invalid domain/);
    const decision = companion.decisionFor("call-publish-3");
    await tapDecision(page, promptId, "Deny");
    expect((await decision).decision).toBe("deny");
  });

  it("turns read-only mode on without a passkey, and off with the recovery code, once", async () => {
    const page = byIp.page;
    await page.goto(`${edge.base}/policy`);
    const toggle = page.getByRole("switch", { name: /read-only/i });
    await toggle.waitFor({ timeout: WAIT_MS });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.tap();
    await page.getByRole("button", { name: "Turn on", exact: true }).tap();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: WAIT_MS }).toBe("true");
    expect(await readOnly()).toBe(true);

    // Off: no passkey works here, so the sheet takes the recovery code; a wrong one changes nothing.
    await toggle.tap();
    const sheet = page.getByRole("dialog");
    await sheet.getByLabel("Recovery code").fill("ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ");
    await sheet.getByRole("button", { name: "Use the recovery code" }).tap();
    await sheet.getByText(/That recovery code is wrong/).waitFor({ timeout: WAIT_MS });
    expect(await readOnly()).toBe(true);
    const used = recovery;
    await sheet.getByLabel("Recovery code").fill(used);
    await sheet.getByRole("button", { name: "Use the recovery code" }).tap();
    recovery = ((await sheet.getByTestId("new-recovery-code").textContent()) ?? "").trim();
    // An IP address can never hold a passkey: only "continue" is offered.
    expect(await sheet.getByRole("button", { name: /Add a passkey/ }).count()).toBe(0);
    await sheet.getByRole("button", { name: "I wrote it down, continue" }).tap();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: WAIT_MS }).toBe("false");
    expect(await readOnly()).toBe(false);

    // On again, and the used code tried again: refused, read-only stays on, the reason beside the switch.
    await toggle.tap();
    await page.getByRole("button", { name: "Turn on", exact: true }).tap();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: WAIT_MS }).toBe("true");
    await toggle.tap();
    await sheet.getByLabel("Recovery code").fill(used);
    await sheet.getByRole("button", { name: "Use the recovery code" }).tap();
    await sheet
      .getByText(/That recovery code is wrong, or it was already used/)
      .waitFor({ timeout: WAIT_MS });
    await sheet.getByRole("button", { name: "Cancel" }).tap();
    const row = page.locator(".switch-row").filter({ has: toggle });
    await row.getByRole("alert").waitFor({ timeout: WAIT_MS });
    expect(await row.getByRole("alert").textContent()).toContain("Nothing was changed.");
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(await readOnly()).toBe(true);
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect([...owner.problems, ...byIp.problems]).toEqual([]);
  });
});
