// `npm run deploy` end to end against a fake `wrangler` that records every call and keeps a fake account's state
// (test/support/fake-wrangler.mjs), and a local HTTP server standing in for the deployed edge's first-run routes and
// Cloudflare's API (the Pages custom domain). Runs: missing login, first run, second run (changes nothing), missing
// D1, --dry-run; and the real wrangler's `deploy --dry-run` bundling the real Worker offline.
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/build.ts";
import { runToEnd } from "../support/run-process.ts";
import { ROOT } from "./support/edge.ts";

let dir: string;
let project: string;
let bin: string;
let statePath: string;
let logPath: string;
let server: Server;
let base: string;
const edgeCalls: { method: string; path: string; auth?: string; body: string }[] = [];

interface FakeState {
  loggedIn: boolean;
  accounts: { id: string; name: string }[];
  d1: { uuid: string; name: string }[];
  migrationsPending: boolean;
  worker: { tag: string; version: string } | null;
  secrets: Record<string, string>;
  pages: Record<string, { domains: string[]; deployments: string[] }>;
}

const state = (): FakeState => JSON.parse(readFileSync(statePath, "utf8"));
const setState = (s: FakeState) => writeFileSync(statePath, JSON.stringify(s));
const calls = (): string[][] =>
  readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { args: string[] }).args);

/** Calls that change the account (everything but reads and the bundling dry run). */
function mutating(list: string[][]): string[][] {
  return list.filter(
    (a) =>
      (a[0] === "d1" && (a[1] === "create" || a[2] === "apply")) ||
      (a[0] === "deploy" && !a.includes("--dry-run")) ||
      (a[0] === "pages" && (a[2] === "create" || a[1] === "deploy")) ||
      (a[0] === "secret" && a[1] !== "list"),
  );
}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

function startServer(): Promise<void> {
  let bootstrapped = false;
  server = createServer(async (req, res) => {
    const text = await body(req);
    const url = new URL(req.url ?? "/", "http://x");
    edgeCalls.push({
      method: req.method ?? "",
      path: url.pathname + url.search,
      auth: req.headers.authorization,
      body: text,
    });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const ok = (result: unknown) => send(200, { success: true, errors: [], result });
    if (url.pathname === "/healthz") return send(200, { ok: true });
    if (url.pathname === "/v1/bootstrap") {
      // Only the bootstrap token the deploy uploaded as the Worker's secret opens this route.
      if (req.headers.authorization !== `Bearer ${state().secrets.ADMIN_BOOTSTRAP_TOKEN}`)
        return send(401, { error: { code: "unauthenticated", message: "bad admin token" } });
      if (bootstrapped)
        return send(409, { error: { code: "conflict", message: "The owner already exists." } });
      bootstrapped = true;
      return send(201, {
        user_id: "usr_1",
        code: "12345678",
        role: "approver",
        expires_at: "2026-11-26T12:00:00.000Z",
        recovery_code: "7KQ2-M9XA-3HVD-R8TC-W4NP-6JBE",
      });
    }
    if (url.pathname === "/v1/recovery/pairing-code") {
      const parsed = JSON.parse(text) as { recovery_code: string; role: string };
      if (parsed.recovery_code !== "7KQ2-M9XA-3HVD-R8TC-W4NP-6JBE" || parsed.role !== "companion")
        return send(401, { error: { code: "unauthenticated", message: "bad recovery code" } });
      return send(201, { code: "87654321", role: "companion", expires_at: "2026-11-26T12:00:00.000Z" });
    }
    if (req.headers.authorization !== "Bearer fake-oauth-token")
      return send(403, { success: false, errors: [{ message: "auth" }] });
    const domains = /^\/client\/v4\/accounts\/acc1\/pages\/projects\/([^/]+)\/domains$/.exec(url.pathname);
    if (domains && req.method === "POST") {
      const s = state();
      const project = s.pages[decodeURIComponent(domains[1] as string)];
      if (!project) return send(404, { success: false, errors: [{ message: "no project" }] });
      project.domains.push((JSON.parse(text) as { name: string }).name);
      setState(s);
      return ok({});
    }
    if (url.pathname === "/client/v4/zones")
      return ok(url.searchParams.get("name") === "example.com" ? [{ id: "zone1", name: "example.com" }] : []);
    if (url.pathname === "/client/v4/zones/zone1/dns_records")
      return req.method === "GET" ? ok([]) : ok({ id: "rec1" });
    return send(404, { success: false, errors: [{ message: `no route ${url.pathname}` }] });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      resolve();
    }),
  );
}

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOME: dir,
    PATH: [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    FAKE_WRANGLER_STATE: statePath,
    FAKE_WRANGLER_LOG: logPath,
    AIRLOCK_CLOUDFLARE_API: `${base}/client/v4`,
    ...extra,
  };
}

const flags = () => [
  "--project",
  project,
  "--edge-url",
  base,
  "--domain",
  "airlock.example.com",
  "--worker-domain",
  "api.airlock.example.com",
];

/** `npm run deploy`: npm puts the project's own wrangler first on PATH, so the fake is named by AIRLOCK_WRANGLER. */
const npmDeploy = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runToEnd(
    "npm",
    ["run", "-s", "deploy", "--", ...args],
    ROOT,
    env({ AIRLOCK_WRANGLER: join(bin, "wrangler"), ...extra }),
  );

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "airlock-deploy-"));
  project = join(dir, "project");
  mkdirSync(join(project, "web", "dist"), { recursive: true });
  copyFileSync(join(ROOT, "wrangler.toml"), join(project, "wrangler.toml"));
  cpSync(join(ROOT, "pages"), join(project, "pages"), { recursive: true });
  writeFileSync(join(project, "web", "dist", "index.html"), "<!doctype html><title>Airlock</title>");
  bin = join(dir, "bin");
  mkdirSync(bin);
  copyFileSync(join(ROOT, "test", "support", "fake-wrangler.mjs"), join(bin, "wrangler"));
  chmodSync(join(bin, "wrangler"), 0o755);
  statePath = join(dir, "state.json");
  logPath = join(dir, "calls.jsonl");
  setState({
    loggedIn: false,
    accounts: [{ id: "acc1", name: "Owner's account" }],
    d1: [],
    migrationsPending: true,
    worker: null,
    secrets: {},
    pages: {},
  });
  writeFileSync(logPath, "");
  await startServer();
}, 180_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run deploy against a fake wrangler", { timeout: 120_000 }, () => {
  it("not logged in: says how to log in, exits 3, and runs nothing but whoami (the fake found on PATH)", async () => {
    const r = await runToEnd(
      process.execPath,
      [join(ROOT, "bin", "airlock.cjs"), "deploy", ...flags()],
      dir,
      env(),
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("npx wrangler login");
    expect(r.stderr).toContain("CLOUDFLARE_API_TOKEN");
    expect(calls()).toEqual([["whoami", "--json"]]);
  });

  it("--dry-run prints every step of a first run and changes nothing", async () => {
    setState({ ...state(), loggedIn: true });
    writeFileSync(logPath, "");
    const before = readFileSync(join(project, "wrangler.toml"), "utf8");
    const r = await npmDeploy([...flags(), "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    for (const step of [
      'would create the D1 database "airlock": wrangler d1 create airlock',
      "would apply the D1 migrations (remote)",
      "would add the Worker custom domain api.airlock.example.com",
      'would deploy the Worker "airlock" (first deploy; secrets TOKEN_PEPPER, ADMIN_BOOTSTRAP_TOKEN, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)',
      'would create the Pages project "airlock-dashboard"',
      "would deploy the dashboard to Pages",
      "would add the Pages custom domain airlock.example.com",
      "would create the owner account",
    ])
      expect(r.stdout).toContain(step);
    expect(r.stdout).toContain("Dry run: 7 change(s) planned, none made.");
    expect(mutating(calls())).toEqual([]);
    expect(readFileSync(join(project, "wrangler.toml"), "utf8")).toBe(before);
    expect(edgeCalls).toEqual([]);
  });

  it("first run: creates, deploys, sets secrets, adds both domains, prints the recovery code, link, QR and pair command", async () => {
    writeFileSync(logPath, "");
    // A stray variable of a secret's name must not reach wrangler, which would let it override the generated value.
    const r = await npmDeploy(flags(), { TOKEN_PEPPER: "stray-value-from-the-environment" });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const s = state();
    expect(s.secrets.TOKEN_PEPPER).not.toBe("stray-value-from-the-environment");
    const db = s.d1.find((d) => d.name === "airlock");
    expect(db).toBeDefined();
    const toml = readFileSync(join(project, "wrangler.toml"), "utf8");
    expect(toml).toContain(`database_id = "${db?.uuid}"`);
    expect(toml).toMatch(
      /routes = \[\n {2}\{ pattern = "api\.airlock\.example\.com", custom_domain = true \},\n\]/,
    );
    expect(s.migrationsPending).toBe(false);
    // Secrets: generated, the VAPID public key an uncompressed P-256 point.
    expect(Object.keys(s.secrets).sort()).toEqual([
      "ADMIN_BOOTSTRAP_TOKEN",
      "TOKEN_PEPPER",
      "VAPID_PRIVATE_KEY",
      "VAPID_PUBLIC_KEY",
    ]);
    expect(Buffer.from(s.secrets.TOKEN_PEPPER as string, "base64url").length).toBe(32);
    const point = Buffer.from(s.secrets.VAPID_PUBLIC_KEY as string, "base64url");
    expect([point.length, point[0]]).toEqual([65, 4]);
    // No secret value is ever on a command line.
    const argv = JSON.stringify(calls());
    for (const value of Object.values(s.secrets)) expect(argv).not.toContain(value);
    expect(mutating(calls()).map((a) => a.slice(0, 3).join(" "))).toEqual([
      "d1 create airlock",
      "d1 migrations apply",
      `deploy --tag ${s.worker?.tag ?? ""}`,
      "pages project create",
      "pages deploy --branch",
    ]);
    expect(s.pages["airlock-dashboard"]?.deployments).toHaveLength(1);
    // The Pages custom domain and its CNAME through Cloudflare's API.
    expect(s.pages["airlock-dashboard"]?.domains).toContain("airlock.example.com");
    const cname = edgeCalls.find(
      (c) => c.method === "POST" && c.path === "/client/v4/zones/zone1/dns_records",
    );
    expect(JSON.parse(cname?.body ?? "{}")).toMatchObject({
      type: "CNAME",
      name: "airlock.example.com",
      content: "airlock-dashboard.pages.dev",
    });
    // The owner, with the token that was uploaded; the local copy of it is gone afterwards.
    expect(edgeCalls.filter((c) => c.path === "/v1/bootstrap")).toHaveLength(1);
    expect(() => readFileSync(join(project, ".wrangler", "airlock-deploy-bootstrap.json"))).toThrow();
    expect(r.stdout).toContain("Airlock is deployed at https://airlock.example.com");
    expect(r.stdout).toContain("Recovery code: 7KQ2-M9XA-3HVD-R8TC-W4NP-6JBE");
    expect(r.stdout).toContain("open https://airlock.example.com/pair?code=12345678 or scan");
    expect(r.stdout.split("\n").filter((l) => /^[█▀▄ ]{20,}$/.test(l)).length).toBeGreaterThan(10);
    expect(r.stdout).toMatch(/pair 87654321 --server https:\/\/airlock\.example\.com\n/);
  });

  it("second run: changes nothing and says so", async () => {
    writeFileSync(logPath, "");
    const toml = readFileSync(join(project, "wrangler.toml"), "utf8");
    const bootstraps = edgeCalls.filter((c) => c.path === "/v1/bootstrap").length;
    const r = await npmDeploy(flags());
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain("Nothing to change: Airlock at https://airlock.example.com is up to date.");
    expect(r.stdout).not.toContain("Recovery code");
    expect(mutating(calls())).toEqual([]);
    expect(readFileSync(join(project, "wrangler.toml"), "utf8")).toBe(toml);
    expect(edgeCalls.filter((c) => c.path === "/v1/bootstrap")).toHaveLength(bootstraps);
  });

  it("missing D1: creates it again, writes the new id, migrates, redeploys the Worker with no new secrets", async () => {
    const before = state();
    const oldId = before.d1[0]?.uuid;
    setState({ ...before, d1: [], migrationsPending: true });
    writeFileSync(logPath, "");
    const r = await npmDeploy(flags());
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const after = state();
    const newId = after.d1[0]?.uuid;
    expect(newId).toBeDefined();
    expect(newId).not.toBe(oldId);
    expect(readFileSync(join(project, "wrangler.toml"), "utf8")).toContain(`database_id = "${newId}"`);
    const changed = mutating(calls());
    expect(changed.map((a) => a.slice(0, 2).join(" "))).toEqual([
      "d1 create",
      "d1 migrations",
      "deploy --tag",
    ]);
    expect(changed.flat()).not.toContain("--secrets-file");
    expect(after.secrets).toEqual(before.secrets);
    expect(r.stdout).toContain('+ created the D1 database "airlock"');
  });
});

describe("the real wrangler", { timeout: 180_000 }, () => {
  it("bundles the real Worker offline (deploy --dry-run) and plans a first run without a login", async () => {
    const home = join(dir, "real-home");
    mkdirSync(home);
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    if (!existsSync(join(ROOT, "web", "dist", "index.html"))) {
      const built = await runToEnd("npm", ["run", "-s", "build:web"], ROOT, process.env);
      expect(built.code, built.stderr).toBe(0);
    }
    const r = await runToEnd("npm", ["run", "-s", "deploy", "--", "--dry-run", "--skip-build"], ROOT, {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_API_TOKEN: "",
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain("wrangler is not logged in");
    expect(r.stdout).toMatch(/✓ Worker bundled \([\d.]+ KiB \/ gzip: [\d.]+ KiB\)/);
    expect(r.stdout).toContain('would deploy the Worker "airlock" (first deploy;');
    expect(readFileSync(join(ROOT, "wrangler.toml"), "utf8")).toBe(toml);
  });
});
