// Every dashboard view's main path at 390×844 against a real local edge: Activity (filters, detail with who decided,
// NDJSON export), Grants (search, revoke), Devices (mint a code with a QR of the pairing link that really pairs),
// Policy (emergency switches first, edit with validation and a diff, explain), the views whose APIs are not on this
// server yet (they say so), touch targets ≥ 44 px and WCAG AA contrast in light and dark. Screenshots of each view
// go to test-results/ (and docs/ with AIRLOCK_UPDATE_DOCS_SCREENSHOT=1).
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Companion,
  card,
  type Phone,
  pairedPhone,
  startStage,
  tapDecision,
  toolCall,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let ui: Phone;
let page: Page;
let companion: Companion;
let companionToken: string;
let approverToken: string;

async function shot(name: string, target: Page = page): Promise<void> {
  const path = join(ROOT, "test-results", name);
  await target.screenshot({ path });
  if (process.env.AIRLOCK_UPDATE_DOCS_SCREENSHOT) copyFileSync(path, join(ROOT, "docs", name));
}

async function go(target: string): Promise<void> {
  await page.goto(`${edge.base}${target}`);
  await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
}

/** Interactive elements smaller than 44×44 CSS px (links inside running text are exempt, as WCAG 2.5.5 allows). */
function smallTargets(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      "button, a, input, select, textarea, [role=switch]",
    )) {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || getComputedStyle(el).visibility === "hidden") continue;
      if (el.tagName === "A" && el.closest("p, li.muted, dd")) continue;
      // A radio's target is its whole label row.
      const label = el instanceof HTMLInputElement && el.type === "radio" ? el.closest("label") : null;
      const hit = label ? label.getBoundingClientRect() : box;
      if (hit.height < 44 || hit.width < 44)
        small.push(
          `${el.tagName} "${el.textContent?.trim() || el.getAttribute("aria-label") || ""}" ${Math.round(hit.width)}×${Math.round(hit.height)}`,
        );
    }
    return small;
  });
}

/** Text whose contrast against its effective background is below WCAG AA (4.5:1, or 3:1 for large text). */
function lowContrast(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const parse = (c: string) => {
      const m = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return { r: m[0] ?? 0, g: m[1] ?? 0, b: m[2] ?? 0, a: m[3] ?? 1 };
    };
    const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): { r: number; g: number; b: number } => {
      for (let at = el; at; at = at.parentElement) {
        const c = parse(getComputedStyle(at).backgroundColor);
        if (c.a > 0.5) return c;
      }
      return parse(getComputedStyle(document.documentElement).backgroundColor);
    };
    const failures: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim()) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (
        !box.width ||
        style.visibility === "hidden" ||
        el.closest(".sr-only, [disabled], fieldset:disabled")
      )
        continue;
      const fg = parse(style.color);
      const bg = background(el);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        failures.push(`"${node.textContent.trim().slice(0, 40)}" ${ratio.toFixed(2)}:1`);
    }
    return failures;
  });
}

beforeAll(async () => {
  ({ edge, browser } = await startStage());
  companionToken = (await edge.pairDevice("companion", "dev laptop")).token;
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  companion = await new Companion(edge.base, companionToken).open();
  ui = await pairedPhone(browser, edge);
  page = ui.page;
}, 180_000);

afterAll(async () => {
  companion?.close();
  await browser?.close();
  await edge?.stop();
});

describe("views on a phone", () => {
  it("Activity lists decisions, policy answers included; filters; shows who decided; exports NDJSON", async () => {
    const promptId = await companion.ask(toolCall("call-act", "npm test", { agent: "activity-agent" }));
    await card(page, promptId).waitFor({ timeout: WAIT_MS });
    await tapDecision(page, promptId, "Deny");
    await companion.decisionFor("call-act");
    // A decision the companion's policy made without asking, reported to the edge.
    await fetch(`${edge.base}/v1/audit/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${companionToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        events: [
          {
            call_id: "local-1",
            session_id: "s",
            agent_id: "activity-agent",
            tool: "Read",
            capability: "read",
            risk: "low",
            action: "allow",
            layer: "project",
            rule: "reads",
            scope_hash: "a".repeat(64),
            at: new Date().toISOString(),
          },
          {
            call_id: "local-2",
            session_id: "pi-off",
            agent_id: "activity-agent",
            tool: "bash",
            capability: "exec",
            risk: "low",
            action: "allow",
            layer: "default",
            rule: null,
            scope_hash: "b".repeat(64),
            ungated: true,
            at: new Date().toISOString(),
          },
        ],
      }),
    });

    await page.getByRole("link", { name: "Activity" }).tap();
    await page.locator(".activity-item").first().waitFor({ timeout: WAIT_MS });
    await page.getByLabel("Agent").fill("activity-agent");
    await page.getByLabel("Agent").press("Enter");
    await page.getByLabel("Agent").blur();
    // Rows are sentences with the call, never an event name.
    await page
      .getByText(/^activity-agent asked to read files: Read — allowed by the local policy on /)
      .first()
      .waitFor({ timeout: WAIT_MS });
    expect((await page.locator(".activity-what").allTextContents()).join("\n")).not.toContain(
      "policy.decision",
    );
    // A call of a session with permissions off (Pi's `/permissions off`) is marked as ungated.
    const ungated = page
      .locator(".activity-item", { hasText: "activity-agent asked to run commands: bash" })
      .first();
    expect(await ungated.locator(".tag").textContent()).toBe("ungated");
    expect(
      await page
        .locator(".activity-item", { hasText: "activity-agent asked to read files: Read" })
        .locator(".tag")
        .count(),
    ).toBe(0);
    await page.getByLabel("Decision").selectOption("deny_once");
    const denied = page.locator(".activity-item", { hasText: "deny_once" }).first();
    await denied.waitFor({ timeout: WAIT_MS });
    await denied.getByRole("button").tap();
    const detail = (await denied.locator("dl.details").textContent()) ?? "";
    expect(detail).toContain("E2E phone");
    expect(detail).not.toContain("dev_");
    await shot("dashboard-activity.png");
    const href = await page.getByRole("link", { name: "Export NDJSON" }).getAttribute("href");
    expect(href).toContain("format=ndjson");
    const exported = await page.request.get(`${edge.base}${href}`);
    const lines = (await exported.text()).trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ redaction: { applied: true } });
  });

  it("Grants lists saved answers, searches and revokes one", async () => {
    const promptId = await companion.ask(toolCall("call-grant", "rm -rf node_modules"));
    const res = await fetch(`${edge.base}/v1/approvals/${promptId}/reject`, {
      method: "POST",
      headers: { authorization: `Bearer ${approverToken}`, "content-type": "application/json" },
      body: JSON.stringify({ scope: "always" }),
    });
    expect(res.status).toBe(200);
    // And a session grant ("Allow for session" on a read).
    const readPrompt = await companion.ask({
      call_id: "call-session-read",
      session_id: "sess-views",
      agent: { id: "reader", name: "Reader" },
      tool: "read",
      input: { path: "notes/todo.md" },
      cwd: "/home/dev/project",
    });
    const approved = await fetch(`${edge.base}/v1/approvals/${readPrompt}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${approverToken}`, "content-type": "application/json" },
      body: JSON.stringify({ scope: "session" }),
    });
    expect(approved.status).toBe(200);
    await go("/grants");
    const sessionGrant = page.locator("li[data-session-grant-id]");
    await sessionGrant.waitFor({ timeout: WAIT_MS });
    expect(await sessionGrant.textContent()).toContain("sess-views");
    const grant = page.locator("li.grant[data-grant-id]").first();
    await grant.waitFor({ timeout: WAIT_MS });
    expect(await grant.textContent()).toContain("Always deny");
    await page.getByRole("searchbox", { name: "Search grants" }).fill("no-such-thing");
    await page.getByText("No grant matches").waitFor();
    await page.getByRole("searchbox", { name: "Search grants" }).fill("exec");
    await grant.waitFor();
    await shot("dashboard-grants.png");
    await grant.getByRole("button", { name: /^Revoke/ }).tap();
    await grant.getByRole("button", { name: "Revoke grant" }).tap();
    await page
      .getByText('No saved grants. "Allow always" and "Deny always" create them.')
      .waitFor({ timeout: WAIT_MS });
  });

  it("Devices lists companions and approvers, and mints a code with a QR of a working pairing link", async () => {
    await go("/devices");
    const list = page.locator("ul.devices");
    await list.locator("strong", { hasText: "dev laptop" }).waitFor({ timeout: WAIT_MS });
    expect(await list.textContent()).toMatch(/E2E phone[\s\S]*this device/);
    await page.getByRole("button", { name: "Create a pairing code" }).tap();
    const codeBox = page.getByTestId("pairing-code");
    await codeBox.waitFor({ timeout: WAIT_MS });
    const code = ((await codeBox.locator(".code-digits").textContent()) ?? "").trim();
    expect(code).toMatch(/^\d{8}$/);
    const qr = codeBox.getByRole("img");
    expect(await qr.getAttribute("alt")).toContain(`/pair?code=${code}`);
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot("dashboard-devices.png");
    const bound = await fetch(`${edge.base}/v1/pairing/bind`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code, device_name: "second phone", kind: "browser" }),
    });
    expect(bound.status).toBe(201);
  });

  it("Policy puts the emergency switches first; read-only round-trips to every companion", async () => {
    await go("/policy");
    const readOnly = page.getByRole("switch", { name: "Read-only mode" });
    await readOnly.waitFor({ timeout: WAIT_MS });
    const box = await readOnly.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(844);
    const pushed = companion.next((m) => m.type === "emergency_updated" && m.data.readOnly);
    await readOnly.tap();
    await page.getByRole("button", { name: "Turn on" }).tap();
    await pushed;
    await page.locator('button.switch[aria-checked="true"]').waitFor({ timeout: WAIT_MS });
    await shot("dashboard-policy.png");
    await readOnly.tap();
    await page.locator('button.switch[aria-checked="true"]').waitFor({ state: "detached", timeout: WAIT_MS });
  });

  it("Policy edits are validated, shown as a diff, saved, and explained", async () => {
    await page.getByRole("button", { name: "Edit policy" }).tap();
    const editor = page.getByLabel("Policy (YAML, same format as permissions.yaml)");
    await editor.fill("version: 1\ndefault_action: alow\n");
    await page.getByRole("button", { name: "Review changes" }).tap();
    await page.locator("ul.card-status.error").waitFor({ timeout: WAIT_MS });
    const policy =
      'version: 1\ndefault_action: ask\nrules:\n  - name: tests\n    condition: tool == "bash" && command == "npm test"\n    action: allow\n';
    await editor.fill(policy);
    await page.getByRole("button", { name: "Review changes" }).tap();
    const diff = page.getByRole("region", { name: "Changes" });
    await diff.waitFor({ timeout: WAIT_MS });
    expect(await diff.textContent()).toContain("+   - name: tests");
    await shot("dashboard-policy-diff.png");
    await page.getByRole("button", { name: "Save policy" }).tap();
    await page.getByText(/^Saved\. Every companion/).waitFor({ timeout: WAIT_MS });
    const saved = (await (
      await fetch(`${edge.base}/v1/settings/policy`, {
        headers: { authorization: `Bearer ${companionToken}` },
      })
    ).json()) as { policy: string };
    expect(saved.policy).toBe(policy);

    await page.getByRole("textbox", { name: "Tool", exact: true }).fill("bash");
    await page.getByLabel("Command, path or JSON input").fill("npm test");
    await page.getByRole("button", { name: /^Explain/ }).tap();
    const answer = page.locator("dl[aria-label=Explanation]");
    await answer.waitFor({ timeout: WAIT_MS });
    expect(await answer.textContent()).toMatch(/allow[\s\S]*tests/);
  });

  it("Proposals lists the conveyor's proposals by state", async () => {
    await go("/proposals");
    await page.getByText("No proposals.").waitFor({ timeout: WAIT_MS });
    await page.getByRole("combobox").selectOption("EXECUTED");
    await page.getByText("No proposals in state EXECUTED.").waitFor({ timeout: WAIT_MS });
    await shot("dashboard-proposals.png");
  });

  // The hosted runtime is on this server: its views show their empty states (test/e2e/dashboard-runtime.test.ts
  // walks them with a model).
  it.each([
    ["/jobs", "No jobs yet."],
    ["/schedules", "No schedules."],
  ])("%s shows its empty list", async (path, words) => {
    await go(path);
    await page.getByText(words).waitFor({ timeout: WAIT_MS });
  });

  it("/precog shows what a companion reported (POST /v1/futures/stats)", async () => {
    const stats = {
      enabled: true,
      injectionMode: "silent-futures",
      toolCache: true,
      commandFutures: true,
      generatedAt: new Date().toISOString(),
      workspaces: [
        {
          workspaceId: "0123456789abcdef",
          name: "airlock-demo",
          files: 120,
          futures: 2,
          overflows: 0,
          classes: [
            {
              class: "bash:npm test",
              warms: 2,
              hits: 3,
              misses: { stale: 1 },
              staleRejections: 1,
              savedMs: 15_000,
            },
          ],
        },
      ],
    };
    const posted = await fetch(`${edge.base}/v1/futures/stats`, {
      method: "POST",
      headers: { authorization: `Bearer ${companionToken}`, "content-type": "application/json" },
      body: JSON.stringify(stats),
    });
    expect(posted.status).toBe(202);
    await go("/precog");
    await page.getByText("airlock-demo").waitFor({ timeout: WAIT_MS });
    await shot("dashboard-precog.png");
  });

  it("More reaches every view", async () => {
    await go("/more");
    for (const name of [
      "Grants",
      "Devices",
      "Proposals",
      "Jobs",
      "Schedules",
      "Chat",
      "Precognition",
      "Connections",
    ])
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).waitFor();
    await shot("dashboard-more.png");
  });

  it("keeps every touch target at least 44 px and text at AA contrast, in light and dark", async () => {
    const promptId = await companion.ask(toolCall("call-contrast", "git status"));
    const failures: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ["/", "/activity", "/grants", "/devices", "/policy", "/more"]) {
        await go(path);
        if (path === "/") await card(page, promptId).waitFor({ timeout: WAIT_MS });
        else await page.locator("main h1").first().waitFor({ timeout: WAIT_MS });
        for (const f of await smallTargets(page)) failures.push(`${scheme} ${path} target ${f}`);
        for (const f of await lowContrast(page)) failures.push(`${scheme} ${path} contrast ${f}`);
      }
      if (scheme === "dark") await shot("dashboard-dark.png");
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(failures).toEqual([]);
    await go("/");
    await tapDecision(page, promptId, "Deny");
    await companion.decisionFor("call-contrast");
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
