// The Pages deploy and the parity gate, locally: `wrangler pages dev` serves web/dist and its Function forwards
// /v1/* (websocket upgrades included) to the local Worker over a service binding. A phone paired on the Pages
// origin answers a prompt through it. `npm run parity` then finds no drift between the Worker and Pages serving the
// same build, and names each difference against a drifted copy (changed asset, weaker headers and cookie).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/build.ts";
import { launchBrowser } from "./support/browser.ts";
import {
  buildDashboard,
  Companion,
  card,
  phone,
  tapDecision,
  toolCall,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, freePort, ROOT, startEdge } from "./support/edge.ts";

let edge: Edge;
let browser: Browser;
let pages: ChildProcess;
let pagesBase: string;
let pagesOut = "";
let drifted: Server;
let driftedBase: string;
let parityToken: string;
const scratch = mkdtempSync(join(tmpdir(), "airlock-pages-"));
// A private wrangler dev registry: the Function's service binding must reach this file's Worker, not another
// `airlock` Worker some other process on the machine registered.
process.env.WRANGLER_REGISTRY_PATH = join(scratch, "registry");

async function startPages(): Promise<string> {
  const port = await freePort();
  pages = spawn(
    join(ROOT, "node_modules/.bin/wrangler"),
    ["pages", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", join(scratch, "state")],
    {
      cwd: join(ROOT, "pages"),
      // Under the same Node as this test (wrangler needs >= 22.12; the machine's default node may be older).
      env: {
        ...process.env,
        PATH: [dirname(process.execPath), process.env.PATH].join(":"),
        WRANGLER_SEND_METRICS: "false",
        CI: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  pages.stdout?.on("data", (d) => {
    pagesOut += d;
  });
  pages.stderr?.on("data", (d) => {
    pagesOut += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  // Ready when the Function reaches the Worker: /v1/version answers through the service binding.
  while (Date.now() < deadline) {
    if (pages.exitCode !== null) throw new Error(`wrangler pages dev exited:\n${pagesOut}`);
    const res = await fetch(`${base}/v1/version`).catch(() => null);
    if (res?.ok) return base;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler pages dev not ready in 90 s:\n${pagesOut}`);
}

/** `_headers` as a static server applies it (the parity test's drifted copy serves files itself). */
function headerRules(text: string): { pattern: string; headers: [string, string][] }[] {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    if (!line.startsWith(" ")) rules.push({ pattern: line.trim(), headers: [] });
    else {
      const at = line.indexOf(":");
      rules.at(-1)?.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

const types: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
};

/**
 * A copy of the build with drift planted: one asset changed, X-Frame-Options dropped, a looser CSP, a script
 * injected on /activity only, and the session cookie proxied without HttpOnly. /v1/* is proxied to the same Worker.
 */
async function startDrifted(): Promise<string> {
  const dir = join(scratch, "drifted");
  cpSync(join(ROOT, "web/dist"), dir, { recursive: true });
  writeFileSync(
    join(dir, "icon.svg"),
    readFileSync(join(dir, "icon.svg"), "utf8").replace("#1f5fd1", "#1f5fd2"),
  );
  const rules = headerRules(readFileSync(join(dir, "_headers"), "utf8")).map((r) => ({
    ...r,
    headers: r.headers
      .filter(([k]) => k !== "X-Frame-Options")
      .map(([k, v]): [string, string] => [
        k,
        k === "Content-Security-Policy"
          ? v.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
          : v,
      ]),
  }));
  const edgeUrl = new URL(edge.base);
  drifted = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.startsWith("/v1/")) {
      const upstream = httpRequest(
        {
          host: edgeUrl.hostname,
          port: edgeUrl.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: edgeUrl.host },
        },
        (answer) => {
          const headers = { ...answer.headers };
          const cookies = headers["set-cookie"];
          if (cookies) headers["set-cookie"] = cookies.map((c) => c.replace(/;\s*HttpOnly/i, ""));
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
      return;
    }
    const file = join(dir, path === "/" ? "index.html" : path);
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      body = readFileSync(join(dir, "index.html"));
    }
    // A script injected on one deep route only: parity must compare every route, not just `/`.
    if (path === "/activity")
      body = Buffer.from(body.toString("utf8").replace("</head>", "<script>void 0</script></head>"));
    const headers: Record<string, string> = {
      "content-type": types[extname(file)] ?? "application/octet-stream",
    };
    for (const rule of rules) {
      if (rule.pattern === "/*" || rule.pattern === path) for (const [k, v] of rule.headers) headers[k] = v;
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => drifted.listen(0, "127.0.0.1", () => resolve()));
  const address = drifted.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** Runs the parity script without blocking this process (the drifted server lives in it). */
function runParity(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts/parity.mjs"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function parity(a: string, b: string) {
  const run = await runParity([a, b, "--token", parityToken, "--json"]);
  if (!run.stdout.trim()) throw new Error(`parity printed nothing (exit ${run.status}):\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as {
    ok: boolean;
    rows: { check: string; a: string; b: string; ok: boolean }[];
  };
  return { status: run.status, report, drift: report.rows.filter((r) => !r.ok).map((r) => r.check) };
}

beforeAll(async () => {
  await ensureBuilt();
  buildDashboard();
  [edge, browser] = await Promise.all([startEdge(), launchBrowser()]);
  pagesBase = await startPages();
  // The documented way: a read-only parity token minted with the recovery code the server printed.
  const minted = spawnSync(
    process.execPath,
    [
      join(ROOT, "bin", "airlock.cjs"),
      "devices",
      "token",
      "--recovery-code",
      edge.recoveryCode,
      "--server",
      edge.base,
    ],
    { encoding: "utf8", env: { ...process.env, HOME: scratch, AIRLOCK_HOME: join(scratch, "airlock-home") } },
  );
  if (minted.status !== 0) throw new Error(`airlock devices token failed: ${minted.stderr}`);
  parityToken = minted.stdout.trim();
  driftedBase = await startDrifted();
}, 240_000);

afterAll(async () => {
  drifted?.close();
  if (pages?.pid && pages.exitCode === null) {
    const exited = new Promise((r) => pages.once("exit", r));
    process.kill(-pages.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }
  await browser?.close();
  await edge?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("Pages deploy", () => {
  it("serves the dashboard and forwards /v1 on its own origin, websocket included", async () => {
    const ui = await phone(browser);
    const companion = await new Companion(edge.base, (await edge.pairDevice("companion")).token).open();
    try {
      const code = await edge.newApproverCode();
      const response = await ui.page.goto(`${pagesBase}/pair?code=${code}`);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      await ui.page.getByRole("button", { name: "Pair this device" }).tap();
      await ui.page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
      const cookies = await ui.context.cookies(pagesBase);
      expect(cookies.find((c) => c.name === "airlock_session")).toMatchObject({
        httpOnly: true,
        sameSite: "Strict",
      });

      const promptId = await companion.ask(toolCall("call-pages", "npm run build"));
      await card(ui.page, promptId).waitFor({ timeout: WAIT_MS });
      const decision = companion.decisionFor("call-pages");
      await tapDecision(ui.page, promptId, "Deny");
      expect(await decision).toMatchObject({ decision: "deny", source: "user" });
      expect(ui.problems).toEqual([]);
    } finally {
      companion.close();
      await ui.context.close();
    }
  });
});

describe("remote MCP through Pages", () => {
  it("forwards /mcp, OAuth discovery, registration and token to the Worker, for the Pages origin", async () => {
    const challenge = await fetch(`${pagesBase}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("www-authenticate")).toContain(
      `${pagesBase}/.well-known/oauth-protected-resource/mcp`,
    );
    const server = (await (await fetch(`${pagesBase}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
      authorization_endpoint: string;
    };
    expect(server).toMatchObject({
      issuer: pagesBase,
      authorization_endpoint: `${pagesBase}/oauth/authorize`,
    });
    const registered = await fetch(`${pagesBase}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Pages client",
        redirect_uris: ["https://client.example/cb"],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(registered.status).toBe(201);
    const token = await fetch(`${pagesBase}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=nope",
    });
    // The OAuth server's own answer (no client named), not a Pages 404.
    expect(token.status).toBe(401);
    expect(((await token.json()) as { error: string }).error).toBe("invalid_client");
    // The consent page is the dashboard's, from the Pages assets.
    const page = await fetch(`${pagesBase}/oauth/authorize?client_id=x`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
  });
});

describe("npm run parity", () => {
  it("passes between the Worker and Pages serving the same build", async () => {
    const { status, report, drift } = await parity(edge.base, pagesBase);
    expect(drift).toEqual([]);
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
    const checks = report.rows.map((r) => r.check);
    for (const expected of [
      "API reachable (/v1/version)",
      "build id",
      "asset /index.html",
      "header content-security-policy (page)",
      "service worker version (/sw.js)",
      "session cookie attributes",
      "audit feed",
    ])
      expect(checks).toContain(expected);
    expect(parityToken).toMatch(/^alkp_/);
    const audit = report.rows.find((r) => r.check === "audit feed");
    expect(audit?.a).toMatch(/^\d+ newest events \([0-9a-f]{12}\)$/);
    const cookie = report.rows.find((r) => r.check === "session cookie attributes");
    expect(cookie?.a).toContain("httponly");
  });

  it("fails against a drifted copy, naming each difference", async () => {
    const { status, drift } = await parity(edge.base, driftedBase);
    expect(status).toBe(1);
    expect(drift).toEqual(
      expect.arrayContaining([
        "asset /icon.svg",
        "header x-frame-options (page)",
        "header content-security-policy (page)",
        "page /activity",
        "headers /pair?code=12345678",
        "headers /activity",
        "session cookie attributes",
      ]),
    );
    // Only the route that was tampered with differs in its page; every other view serves the same HTML.
    expect(drift).not.toContain("page /pair?code=12345678");
    expect(drift).not.toContain("audit feed");
    expect(drift).not.toContain("API reachable (/v1/version)");
  });

  it("prints a table and exits 2 on bad usage", async () => {
    const bad = await runParity(["only-one"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Usage: npm run parity");
    const table = await runParity([edge.base, driftedBase]);
    expect(table.status).toBe(1);
    expect(table.stdout).toContain("x-frame-options");
    expect(table.stdout).toMatch(/\d+ differences? in \d+ checks/);
  });
});
