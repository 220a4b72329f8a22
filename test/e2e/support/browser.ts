// Launches the system Chromium through playwright-core for e2e tests (never downloads a browser), and opens
// phone-sized pages (390×844, touch) the way the dashboard is meant to be used.
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.AIRLOCK_CHROMIUM ?? "/usr/bin/chromium";

export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
} as const;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set AIRLOCK_CHROMIUM.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A fresh phone-sized context (own cookies), optionally in dark mode. */
export function phoneContext(
  browser: Browser,
  colorScheme: "light" | "dark" = "light",
): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, colorScheme });
}

/**
 * Gives the page's context a virtual platform authenticator (CTAP2, resident keys, user verification that always
 * passes, presence simulated): WebAuthn ceremonies then complete as with a phone's fingerprint. The CDP session stays
 * open for reading its credentials (WebAuthn.getCredentials) by `authenticatorId`.
 */
export async function addVirtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
