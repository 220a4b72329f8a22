// Web Push and passkey step-up end to end, on http://localhost (WebAuthn refuses IP-address origins):
// - the phone subscribes from the Devices view; a new prompt batch makes the Worker POST an RFC 8291 encrypted,
//   VAPID-signed message to a local push endpoint of this test (Chromium's own push service needs Google's servers,
//   so PushManager.subscribe is stubbed to hand out that endpoint with real P-256 keys); the test decrypts it with
//   http_ece, checks what it says (agent, tool, scope, never the secret), and delivers it to the service worker over
//   CDP, which shows the notification;
// - a passkey is registered with Chromium's virtual authenticator (CDP WebAuthn); afterwards device revocation and
//   a high-risk confirmation each run a fresh assertion, and fail when user verification fails.
import { createPublicKey, verify as verifySignature } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVirtualAuthenticator, launchBrowser } from "./support/browser.ts";
import {
  buildDashboard,
  Companion,
  card,
  type Phone,
  pairPhone,
  phone,
  steady,
  tapDecision,
  toolCall,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, startEdge } from "./support/edge.ts";
import {
  decryptDelivery,
  deliverToWorker,
  LocalPushService,
  pushKeysOf,
  stubPushManager,
} from "./support/push-service.ts";

let edge: Edge;
let base: string;
let browser: Browser;
let ui: Phone;
let page: Page;
let companion: Companion;
let push: LocalPushService;
const stateDir = mkdtempSync(join(tmpdir(), "airlock-push-"));

const b64 = (s: string) => Buffer.from(s, "base64url");

/** Checks the VAPID header (RFC 8292): an ES256 JWT for this endpoint's origin, signed by the key in `k=`. */
function checkVapid(authorization: string): { aud: string; sub: string } {
  const match = /^vapid t=([^,]+),\s*k=(\S+)$/.exec(authorization);
  if (!match?.[1] || !match[2]) throw new Error(`not a vapid header: ${authorization}`);
  const [header, claims, signature] = match[1].split(".");
  const point = b64(match[2]);
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verifySignature(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    b64(signature ?? ""),
  );
  if (!ok) throw new Error("VAPID signature does not verify");
  return JSON.parse(b64(claims ?? "").toString("utf8")) as { aud: string; sub: string };
}

let cdp: CDPSession;
let authenticatorId = "";

beforeAll(async () => {
  buildDashboard();
  push = await new LocalPushService().start();
  // Local push endpoints are allowed only by this switch; one notification per device per 60 s.
  writeFileSync(
    join(stateDir, "dev.vars"),
    "AIRLOCK_PUSH_ALLOW_LOOPBACK=1\nAIRLOCK_PUSH_MIN_INTERVAL_MS=60000\n",
  );
  [edge, browser] = await Promise.all([startEdge({ stateDir }), launchBrowser()]);
  base = `http://localhost:${edge.port}`;
  companion = await new Companion(
    edge.base,
    (await edge.pairDevice("companion", "push companion")).token,
  ).open();
  ui = await phone(browser, "light", { permissions: ["notifications"], baseURL: base });
  page = ui.page;
  // Stand-in for the browser's push service registration: real P-256 keys, an endpoint of the test's server.
  await stubPushManager(ui.context, push.endpoint("e2e-device"));
  ({ cdp, authenticatorId } = await addVirtualAuthenticator(page));
  await pairPhone(page, base, edge, null);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
}, 180_000);

afterAll(async () => {
  companion?.close();
  push?.stop();
  await browser?.close();
  await edge?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function openDevices(): Promise<void> {
  await page.goto(`${base}/devices`);
  await page.getByRole("heading", { name: "This device" }).waitFor({ timeout: WAIT_MS });
  // The device and passkey lists load above the buttons and push them down: a tap aimed before they land can
  // hit the space where a button was (seen in CI under load). Tap only once nothing is loading.
  await page.getByText("Loading…").first().waitFor({ state: "detached", timeout: WAIT_MS });
}

describe("Web Push", () => {
  it("subscribes this phone and delivers an encrypted, VAPID-signed notification per new prompt batch", async () => {
    await openDevices();
    await page.getByRole("button", { name: "Turn notifications on" }).tap();
    // Polls the panel's status line, so a failure names what the page said (an error) or that it said nothing.
    const said = page.getByRole("region", { name: "This device" }).getByRole("status");
    await expect.poll(() => said.allTextContents(), { timeout: WAIT_MS }).toEqual(["Notifications are on."]);

    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const delivered = push.delivery(0);
    await companion.ask(toolCall("call-push", `git push https://x:${secret}@github.com/acme/app.git`));
    const delivery = await delivered;
    expect(delivery.path).toBe("/push/e2e-device");
    expect(delivery.headers["content-encoding"]).toBe("aes128gcm");
    const claims = checkVapid(String(delivery.headers.authorization));
    expect(claims.aud).toBe(`https://127.0.0.1:${push.port}`);
    expect(claims.sub).toMatch(/^mailto:/);

    const plain = decryptDelivery(await pushKeysOf(page), delivery);
    const payload = JSON.parse(plain) as { title: string; body: string; promptId: string };
    expect(payload.title).toBe("E2E Agent asks: bash");
    expect(payload.body).toContain("git push");
    expect(payload.body).toContain("github.com");
    expect(payload.body).not.toContain(secret);
    expect(payload.promptId).toMatch(/^prm_/);

    // The service worker shows it (delivered over CDP, as the browser's push service would).
    await deliverToWorker(page, base, plain);
    await page.waitForFunction(
      async (title) => {
        const reg = await navigator.serviceWorker.ready;
        return (await reg.getNotifications()).some(
          (n) => n.title === title && n.data?.url?.startsWith("/?prompt="),
        );
      },
      payload.title,
      { timeout: WAIT_MS },
    );
  });
});

describe("notify", () => {
  it("a notify proposal reaches the phone as a push of its own (it never takes a prompt's slot)", async () => {
    const proposer = await edge.pairDevice("companion", "notify proposer");
    const post = (path: string, token: string, body: unknown) =>
      fetch(`${edge.base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const from = push.deliveries.length;
    const created = await post("/v1/proposals", proposer.token, {
      tool: "notify",
      identity: "bot",
      idempotency_key: "notify-e2e-0001",
      justification: "Tell the person the deploy finished.",
      args: {
        title: "Deploy finished",
        body: "main is live (token ghp_abcdefghijklmnopqrstuvwxyz0123456789)",
      },
    });
    expect(created.status).toBeLessThan(300);
    // An internal tool: the conveyor runs it at once (docs/conveyor.md, "Who decides").
    const { proposal } = (await created.json()) as { proposal: { prompt_id: string | null } };
    expect(proposal.prompt_id).toBeNull();
    // Find the notification among what arrived (a prompt's push could come in between).
    const keys = await pushKeysOf(page);
    let found: { title: string; body: string; promptId?: string } | undefined;
    for (let i = from; !found; i++) {
      const payload = JSON.parse(decryptDelivery(keys, await push.delivery(i))) as {
        title: string;
        body: string;
        promptId?: string;
      };
      if (payload.title === "Deploy finished") found = payload;
    }
    expect(found.body).toContain("main is live");
    expect(found.body).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(found.promptId).toBeUndefined();
  });
});

describe("passkey step-up", () => {
  it("registers a passkey with the virtual authenticator", async () => {
    await openDevices();
    await page.getByRole("button", { name: "Register a passkey" }).tap();
    await page.getByText("Passkey registered.").waitFor({ timeout: WAIT_MS });
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
  });

  it("revokes a device only after a fresh assertion", async () => {
    const target = await edge.pairDevice("companion", "old laptop");
    await openDevices();
    const row = page.locator(`li[data-device-id="${target.deviceId}"]`);
    await row.getByRole("button", { name: /^Revoke/ }).tap();
    await row.getByRole("button", { name: "Revoke", exact: true }).tap();
    await row.getByText("revoked").waitFor({ timeout: WAIT_MS });
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials[0]?.signCount).toBeGreaterThan(0);
  });

  it("refuses when user verification fails, and revokes nothing", async () => {
    const target = await edge.pairDevice("companion", "kept laptop");
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
    try {
      await openDevices();
      const row = page.locator(`li[data-device-id="${target.deviceId}"]`);
      await row.getByRole("button", { name: /^Revoke/ }).tap();
      await row.getByRole("button", { name: "Revoke", exact: true }).tap();
      await page.getByRole("alert").waitFor({ timeout: WAIT_MS });
      const res = await fetch(`${edge.base}/v1/devices`, {
        headers: { authorization: `Bearer ${target.token}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
    }
  });

  it("steps up before a high-risk allow", async () => {
    const before =
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]?.signCount ?? 0;
    const promptId = await companion.ask(toolCall("call-stepup", "npm publish"));
    // Opened as a tapped notification opens it: that prompt is the card shown in full (the push test's prompt
    // is still open and would otherwise be first).
    await page.goto(`${base}/?prompt=${promptId}`);
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    await card(page, promptId).locator(".decisions-dock").waitFor({ timeout: WAIT_MS });
    const decision = companion.decisionFor("call-stepup");
    await tapDecision(page, promptId, "Allow once");
    await steady(page);
    await card(page, promptId).getByRole("button", { name: "Yes, allow once" }).tap();
    expect(await decision).toMatchObject({ decision: "allow", source: "user" });
    const after =
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]?.signCount ?? 0;
    expect(after).toBeGreaterThan(before);
  });

  it("ran without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
