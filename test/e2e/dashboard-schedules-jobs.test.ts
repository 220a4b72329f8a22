// Creating and editing schedules and starting jobs from a phone at 390×844: cron read back in words (cronstrue), a
// time zone picker, and every problem (the form's own or the server's) beside the control it is about; and the
// notifications inbox at /notifications.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { buildDashboard, type Phone, pairPhone, phone, WAIT_MS } from "./support/dashboard.ts";
import { type Edge, ROOT, startEdge } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let ui: Phone;
let page: Page;
let scriptToken: string;

/** A screenshot in test-results/; AIRLOCK_UPDATE_DOCS_SCREENSHOT=1 also refreshes the copy in docs/. */
async function shot(name: string): Promise<void> {
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  await page.screenshot({ path: join(ROOT, "test-results", name) });
  if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT)
    copyFileSync(join(ROOT, "test-results", name), join(ROOT, "docs", name));
}

interface Schedule {
  id: string;
  name: string;
  kind: string;
  cron: string | null;
  every_seconds: number | null;
  timezone: string;
  task: { instructions: string };
}

async function schedules(): Promise<Schedule[]> {
  const res = await fetch(`${edge.base}/v1/schedules`, {
    headers: { authorization: `Bearer ${scriptToken}` },
  });
  return ((await res.json()) as { schedules: Schedule[] }).schedules;
}

/** The problem shown right under a control (its `.field-error`), within a line of it. */
async function problemBeside(control: Locator): Promise<string> {
  const error = control.locator("xpath=following-sibling::p[contains(@class,'field-error')][1]");
  await error.waitFor({ timeout: WAIT_MS });
  const [controlBox, errorBox] = await Promise.all([control.boundingBox(), error.boundingBox()]);
  if (!controlBox || !errorBox) throw new Error("not on screen");
  expect(errorBox.y - (controlBox.y + controlBox.height)).toBeLessThan(40);
  return (await error.textContent()) ?? "";
}

beforeAll(async () => {
  buildDashboard();
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  scriptToken = (await edge.pairDevice("browser", "script")).token;
  ui = await phone(browser);
  page = ui.page;
  await pairPhone(page, edge.base, edge);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
});

describe("schedules from the phone", () => {
  it("creates a cron schedule: the cron in words, a bad one refused beside the field, a time zone picked", async () => {
    await page.goto(`${edge.base}/schedules`);
    await page.getByRole("button", { name: "New schedule" }).tap();
    const form = page.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name", { exact: true }).fill("Morning triage");
    await form.getByLabel("What the job does", { exact: true }).fill("Summarise new issues and label them.");
    const cron = form.getByLabel("Cron (minute hour day month weekday)", { exact: true });
    await cron.fill("61 9 * * *");
    expect(await problemBeside(cron)).toMatch(/minutes part must be >= 0 and <= 59/);
    await form.getByRole("button", { name: "Create schedule" }).tap();
    expect(await schedules()).toEqual([]);

    await cron.fill("0 9 * * 1-5");
    await expect(form.locator('[data-hint-for="sf-cron"]').textContent()).resolves.toBe(
      "At 09:00, Monday through Friday",
    );
    await form.getByLabel("Time zone", { exact: true }).selectOption("Europe/Berlin");
    await shot("dashboard-schedule-form.png");
    await form.getByRole("button", { name: "Create schedule" }).tap();
    await page
      .getByRole("status")
      .filter({ hasText: /^Created Morning triage/ })
      .waitFor({ timeout: WAIT_MS });

    const [saved] = await schedules();
    expect(saved).toMatchObject({
      name: "Morning triage",
      kind: "cron",
      cron: "0 9 * * 1-5",
      timezone: "Europe/Berlin",
      task: { instructions: "Summarise new issues and label them." },
    });
    const row = page.locator("ul.devices li").filter({ hasText: "Morning triage" });
    await expect(row.textContent()).resolves.toContain("At 09:00, Monday through Friday (Europe/Berlin)");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("edits it into an interval, shown in words", async () => {
    const row = page.locator("ul.devices li").filter({ hasText: "Morning triage" });
    await row.getByRole("button", { name: "Edit" }).tap();
    const form = page.getByRole("form", { name: "Edit schedule" });
    await expect(form.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("Morning triage");
    await form.getByLabel("When", { exact: true }).selectOption("interval");
    await form.getByLabel("Every how many minutes", { exact: true }).fill("30");
    await form.getByRole("button", { name: "Save" }).tap();
    await page.getByRole("status").filter({ hasText: "Saved Morning triage." }).waitFor({ timeout: WAIT_MS });
    const [saved] = await schedules();
    expect(saved).toMatchObject({
      kind: "interval",
      every_seconds: 1800,
      cron: null,
      timezone: "Europe/Berlin",
    });
    // The list re-renders from the saved schedule after the status line: wait for the row to say it.
    await row.filter({ hasText: "Every 30 min (Europe/Berlin)" }).waitFor({ timeout: WAIT_MS });
  });

  it("shows the server's refusal beside the control it names (a one-shot time in the past)", async () => {
    await page.getByRole("button", { name: "New schedule" }).tap();
    const form = page.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name", { exact: true }).fill("Too late");
    await form.getByLabel("What the job does", { exact: true }).fill("Nothing.");
    await form.getByLabel("When", { exact: true }).selectOption("at");
    const at = form.getByLabel("Date and time", { exact: true });
    await at.fill("2020-01-01T09:00");
    await form.getByRole("button", { name: "Create schedule" }).tap();
    expect(await problemBeside(at)).toMatch(/is in the past/);
    expect((await schedules()).map((s) => s.name)).toEqual(["Morning triage"]);
    await form.getByRole("button", { name: "Cancel" }).tap();
  });
});

describe("jobs from the phone", () => {
  it("starts a job: empty instructions are refused beside the field, then it opens the started job", async () => {
    await page.goto(`${edge.base}/jobs`);
    await page.getByRole("button", { name: "Start a job" }).tap();
    const form = page.getByRole("form", { name: "New job" });
    await form.getByRole("button", { name: "Start job" }).tap();
    const instructions = form.getByLabel("What the job does", { exact: true });
    expect(await problemBeside(instructions)).toBe("Say what the job should do.");
    await form.getByLabel("Title (optional)", { exact: true }).fill("Check the build");
    await instructions.fill("Look at the last CI run and say what failed.");
    await form.getByRole("button", { name: "Start job" }).tap();
    await page.waitForURL(/\/jobs\/job_/, { timeout: WAIT_MS });
    await page.getByText("Check the build").first().waitFor({ timeout: WAIT_MS });
    const res = await fetch(`${edge.base}/v1/jobs`, { headers: { authorization: `Bearer ${scriptToken}` } });
    const { jobs } = (await res.json()) as { jobs: { title: string }[] };
    expect(jobs.map((j) => j.title)).toContain("Check the build");
  });
});

describe("the notifications inbox", () => {
  it("lists what the notify tool reported at /notifications (not Approvals), reached from More", async () => {
    const proposer = await edge.pairDevice("companion", "notify proposer");
    const created = await fetch(`${edge.base}/v1/proposals`, {
      method: "POST",
      headers: { authorization: `Bearer ${proposer.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        tool: "notify",
        identity: "bot",
        idempotency_key: "notify-inbox-0001",
        justification: "Tell the person the nightly run finished.",
        args: { title: "Nightly run finished \u202Egnp.exe", body: "All 3,012 tests passed." },
      }),
    });
    expect(created.status).toBeLessThan(300);
    await page.goto(`${edge.base}/more`);
    await page.getByRole("link", { name: /Notifications/ }).tap();
    await page.waitForURL(/\/notifications$/, { timeout: WAIT_MS });
    await page.getByRole("heading", { name: "Notifications" }).waitFor({ timeout: WAIT_MS });
    const item = page.locator("li.notification-item").first();
    await item.waitFor({ timeout: WAIT_MS });
    const text = (await item.textContent()) ?? "";
    // The title's bidi override is shown, never obeyed.
    expect(text).toContain("Nightly run finished ⟦U+202E⟧gnp.exe");
    expect(text).toContain("All 3,012 tests passed.");
    expect(text).toContain("Report");
    await shot("dashboard-notifications.png");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("ran without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
