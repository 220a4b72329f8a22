// Issue 25, fault 3, at 390×844: a passkey registered on http://localhost, and a phone paired on
// http://127.0.0.1 (pages.dev vs a custom domain in production). The high-risk allow's step-up cannot work there;
// the card says why and where it works, next to the buttons, instead of "127.0.0.1 is an invalid domain", and
// nothing is decided. Turning an emergency switch on never waits for a passkey.
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
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
import { type Edge, startEdge } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let companion: Companion;
let named: Phone;
let byIp: Phone;

async function authenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

beforeAll(async () => {
  buildDashboard();
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  companion = await new Companion(edge.base, (await edge.pairDevice("companion", "build box")).token).open();
  named = await phone(browser);
  await authenticator(named.page);
  await pairPhone(named.page, `http://localhost:${edge.port}`, edge, "Phone on localhost");
  await named.page.goto(`http://localhost:${edge.port}/devices`);
  await named.page.getByText("Loading…").first().waitFor({ state: "detached", timeout: WAIT_MS });
  await named.page.getByRole("button", { name: "Register a passkey" }).tap();
  await named.page.getByText("Passkey registered.").waitFor({ timeout: WAIT_MS });
  byIp = await phone(browser);
  await authenticator(byIp.page);
  await pairPhone(byIp.page, edge.base, edge, "Phone on 127.0.0.1");
}, 180_000);

afterAll(async () => {
  companion?.close();
  await browser?.close();
  await edge?.stop();
});

describe("passkeys across hosts (issue 25)", () => {
  it("says why the step-up cannot work on an IP address and where it does, and decides nothing", async () => {
    expect(new URL(edge.base).hostname).toBe("127.0.0.1");
    const page = byIp.page;
    const promptId = await companion.ask(toolCall("call-publish", "npm publish"));
    await card(page, promptId).locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
    await tapDecision(page, promptId, "Allow once");
    await tapDecision(page, promptId, "Yes, allow once");
    const note = card(page, promptId).locator(".dock-note.error");
    await note.waitFor({ timeout: WAIT_MS });
    const text = (await note.textContent()) ?? "";
    expect(text).toContain("Passkeys do not work on an IP address (127.0.0.1)");
    expect(text).toContain(`http://localhost:${edge.port}`);
    expect(text).not.toMatch(/invalid domain/);
    // Still undecided: the person can deny from here.
    const decision = companion.decisionFor("call-publish");
    await tapDecision(page, promptId, "Deny");
    expect((await decision).decision).toBe("deny");
  });

  it("turns read-only mode on from the IP-address phone without a passkey", async () => {
    const page = byIp.page;
    await page.goto(`${edge.base}/policy`);
    const toggle = page.getByRole("switch", { name: /read-only/i });
    await toggle.waitFor({ timeout: WAIT_MS });
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    await toggle.tap();
    await page.getByRole("button", { name: "Turn on", exact: true }).tap();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: WAIT_MS }).toBe("true");
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect([...named.problems, ...byIp.problems]).toEqual([]);
  });
});
