#!/usr/bin/env node
// bench/dashboard: the phone dashboard's first view, in one run against one local `wrangler dev`:
//  1. first-view JavaScript, gzipped (entry chunk + static imports; other views and the validators are lazy),
//     budget 35 kB; and the first card's (the first view + the validators chunk with zod, which every card needs);
//  2. time from navigation start to the first prompt card visible, with a prompt already pending, in Chromium at
//     390×844 (n loads, fresh page each, HTTP cache warm like a returning phone, service worker bypassed), and to
//     the app's shell (the tab bar, interactive before the validators arrive);
//  baseline, interleaved in the same run: time to the `load` event of a static page (icon.svg wrapped in nothing:
//  the same Worker serving one asset), so the ratio says what the app costs over the edge serving a file.
// Writes bench/dashboard/results.scratch.json, or results.json with --record; --no-build keeps web/dist as it is.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { launchBrowser, PHONE } from "../../test/e2e/support/browser.ts";
import { startEdge } from "../../test/e2e/support/edge.ts";
import { machine, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const LOADS = Number(process.env.AIRLOCK_BENCH_LOADS ?? 30);
const record = process.argv.includes("--record");

// --no-build measures whatever is in web/dist (another commit's build, for a before/after comparison).
if (!process.argv.includes("--no-build")) {
  const built = spawnSync("npm", ["run", "-s", "build:web"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error("build:web failed");
}
// Its exit status says over/under budget; the figures are in the report either way.
const size = JSON.parse(
  spawnSync(process.execPath, [join(root, "web/check-size.mjs"), "--json"]).stdout.toString(),
);

const loadStart = loadavg()[0];
const edge = await startEdge();
const browser = await launchBrowser();
try {
  const companion = await edge.pairDevice("companion", "bench companion");
  const ws = new WebSocket(`${edge.base.replace("http", "ws")}/v1/connect?role=companion`, {
    headers: { authorization: `Bearer ${companion.token}` },
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "hello", client: { name: "bench" } }));
  // Long enough to stay pending for the whole run.
  const approver = await edge.pairDevice("browser", "bench approver");
  await fetch(`${edge.base}/v1/settings/approvals`, {
    method: "PUT",
    headers: { authorization: `Bearer ${approver.token}`, "content-type": "application/json" },
    body: JSON.stringify({ prompt_timeout_ms: 600_000 }),
  });
  ws.send(
    JSON.stringify({
      type: "tool_request",
      id: "bench",
      request: {
        call_id: "bench-call",
        session_id: "bench",
        agent: { id: "bench", name: "Bench Agent" },
        tool: "bash",
        input: { command: "npm publish" },
      },
    }),
  );

  const context = await browser.newContext({ ...PHONE, serviceWorkers: "block" });
  const pairPage = await context.newPage();
  await pairPage.goto(`${edge.base}/pair?code=${await edge.newApproverCode()}`);
  await pairPage.getByRole("button", { name: "Pair this device" }).tap();
  await pairPage.locator("article[data-prompt-id]").waitFor({ timeout: 30_000 });
  await pairPage.close();

  const firstPrompt = [];
  const shell = [];
  const staticLoad = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await context.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        window.__shellMs ??= document.querySelector("nav.tabbar") ? performance.now() : undefined;
        if (document.querySelector("article[data-prompt-id]")) {
          window.__firstPromptMs = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(edge.base);
    await page.waitForFunction(() => window.__firstPromptMs !== undefined, null, { timeout: 30_000 });
    firstPrompt.push(await page.evaluate(() => window.__firstPromptMs));
    shell.push(await page.evaluate(() => window.__shellMs ?? window.__firstPromptMs));
    if (process.env.AIRLOCK_BENCH_DEBUG)
      console.log(
        await page.evaluate(() =>
          JSON.stringify({
            prompt: Math.round(window.__firstPromptMs),
            resources: performance
              .getEntriesByType("resource")
              .map(
                (r) =>
                  `${r.name.replace(location.origin, "")} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)}`,
              ),
            nav: Math.round(performance.getEntriesByType("navigation")[0].responseEnd),
            dcl: Math.round(performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd),
          }),
        ),
      );
    await page.goto(`${edge.base}/icon.svg`);
    staticLoad.push(await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd));
    await page.close();
  }
  ws.close();

  const prompt = summarize(firstPrompt);
  const baseline = summarize(staticLoad);
  const results = {
    benchmark: "dashboard",
    date: new Date().toISOString(),
    machine: machine(),
    // The machine is shared; a high load stretches every figure, the baseline's too.
    load_average_1m: { start: Math.round(loadStart * 100) / 100, end: Math.round(loadavg()[0] * 100) / 100 },
    method:
      "one local wrangler dev; Chromium (Debian) headless at 390×844 through playwright-core; a prompt pending before each load; fresh page per load in one paired context (HTTP cache warm, service worker blocked); time from navigation start (performance.now() = 0) to the first prompt card in the DOM",
    first_view_js: {
      gzip_bytes: size.gzipBytes,
      budget_bytes: size.budgetBytes,
      ok: size.ok,
      files: size.files,
      lazy_chunks: size.lazy.length,
    },
    first_card_js: {
      name: "first view + the validators chunk and its imports (zod, src/protocol shapes), before any card",
      gzip_bytes: size.firstCard.gzipBytes,
      validators: size.firstCard.validators,
    },
    shell_visible: { name: "navigation start → the tab bar in the DOM", ...summarize(shell) },
    first_prompt_visible: { name: "navigation start → first prompt card", ...prompt, target_ms: 300 },
    baseline_static_asset: { name: "navigation start → load of /icon.svg from the same Worker", ...baseline },
    ratio_first_prompt_vs_static: {
      p50: Math.round((prompt.p50_ms / baseline.p50_ms) * 100) / 100,
      p99: Math.round((prompt.p99_ms / baseline.p99_ms) * 100) / 100,
    },
    targets_met: size.ok && prompt.p50_ms <= 300,
  };
  writeResults(join(here, record ? "results.json" : "results.scratch.json"), results);
  console.log(
    `first view ${(size.gzipBytes / 1000).toFixed(1)} kB gz (first card ${(size.firstCard.gzipBytes / 1000).toFixed(1)} kB); shell p50 ${summarize(shell).p50_ms} ms; first prompt p50 ${prompt.p50_ms} ms, p99 ${prompt.p99_ms} ms (static asset p50 ${baseline.p50_ms} ms)`,
  );
} finally {
  await browser.close();
  await edge.stop();
}
