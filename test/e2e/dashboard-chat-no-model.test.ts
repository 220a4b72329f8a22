// Issue 25, fault 7 (Chat with no model configured says nothing), at 390×844: on a server with no model provider the
// message is refused with model_not_configured before anything is stored, and the Chat view says so right under the
// composer and its Send button, with what to set; the draft stays in the field and no bubble pretends it was sent.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { buildDashboard, type Phone, pairPhone, phone, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let person: Phone;

beforeAll(async () => {
  buildDashboard();
  // The dev defaults: AIRLOCK_MODEL_BASE_URL and AIRLOCK_MODEL_MODELS empty.
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  person = await phone(browser);
  await pairPhone(person.page, edge.base, edge);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
});

describe("Chat with no model configured (issue 25)", () => {
  it("says so next to Send, with what to set, and keeps the draft", async () => {
    const page = person.page;
    await page.goto(`${edge.base}/chat`);
    const input = page.getByLabel("Message", { exact: true });
    await input.waitFor({ timeout: WAIT_MS });
    await input.fill("What changed in the repo today?");
    const send = page.getByRole("button", { name: "Send", exact: true });
    await send.tap();
    const error = page.locator("#chat-error");
    await error.waitFor({ timeout: WAIT_MS });
    const text = (await error.textContent()) ?? "";
    expect(text).toContain("No model is configured");
    expect(text).toContain("AIRLOCK_MODEL_BASE_URL");
    expect(text).toContain("not sent");
    expect(await error.getAttribute("role")).toBe("alert");
    expect(await input.getAttribute("aria-describedby")).toBe("chat-error");
    expect(await input.inputValue()).toBe("What changed in the repo today?");
    expect(await page.locator(".chat .bubble").count()).toBe(0);

    // Next to the control: directly under the Send button, and on screen with it.
    const [sendBox, errorBox] = [await send.boundingBox(), await error.boundingBox()];
    if (!sendBox || !errorBox) throw new Error("not laid out");
    expect(errorBox.y).toBeGreaterThanOrEqual(sendBox.y + sendBox.height - 1);
    expect(errorBox.y - (sendBox.y + sendBox.height)).toBeLessThan(40);
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(844);

    if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT) {
      await page.screenshot({ path: join(ROOT, "test-results", "dashboard-chat-no-model.png") });
      copyFileSync(
        join(ROOT, "test-results", "dashboard-chat-no-model.png"),
        join(ROOT, "docs", "dashboard-chat-no-model.png"),
      );
    }

    // The server stored nothing for it.
    const threads = (await page.evaluate(async () => (await fetch("/v1/chat/threads")).json())) as {
      threads: { id: string }[];
    };
    for (const thread of threads.threads) {
      const page1 = (await page.evaluate(
        async (id) => (await fetch(`/v1/chat/threads/${id}/messages`)).json(),
        thread.id,
      )) as { messages: unknown[] };
      expect(page1.messages).toEqual([]);
    }
  });

  it("ran without a script error or a CSP violation", () => {
    expect(person.problems).toEqual([]);
  });
});
