#!/usr/bin/env node
// `npm run dev`: local secrets, local D1 migrations, `wrangler dev`, owner bootstrap, pairing codes (the phone's with a
// QR code of its link).
//
// Flags: --lan (listen on all interfaces and print a link a phone on the same network can open; the session cookie
// is then not Secure, since the LAN is plain http), --public-url URL (the https address of a tunnel in front of the
// dev server, e.g. `cloudflared tunnel --url http://127.0.0.1:8787`: links use it and it becomes an allowed origin).
// Switches (all optional): PORT (default 8787), AIRLOCK_STATE_DIR (local D1/DO state, default .wrangler/state),
// AIRLOCK_DEV_VARS (secrets file, default .dev.vars), AIRLOCK_DEV_ENTRY (another Worker entry module, for the
// e2e tests' entry under test/ that lets the conveyor reach a loopback test server; never used in a deploy),
// AIRLOCK_DEV_INSPECTOR_PORT (the devtools port of the local Worker, for a bench's CPU profile).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { renderUnicodeCompact } from "uqr";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The companion CLI's default server is on this port (src/companion/cli/config.ts, DEFAULT_SERVER). */
const DEFAULT_PORT = 8787;
const port = Number(process.env.PORT ?? DEFAULT_PORT);
const stateDir = resolve(root, process.env.AIRLOCK_STATE_DIR ?? ".wrangler/state");
const varsFile = resolve(root, process.env.AIRLOCK_DEV_VARS ?? ".dev.vars");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
// Children run under this same Node (wrangler needs >= 22.12), even when started outside `npm run`.
const childEnv = {
  ...process.env,
  PATH: [dirname(process.execPath), join(root, "node_modules", ".bin"), process.env.PATH].join(":"),
  WRANGLER_SEND_METRICS: "false",
  CI: process.env.CI ?? "",
};

/** The offline-noise filter from the built companion, or undefined before the first build (then nothing is filtered). */
async function offlineNoise() {
  try {
    return await import("../dist/companion/deploy/offline-noise.js");
  } catch {
    return undefined;
  }
}

function log(line) {
  process.stdout.write(`[airlock] ${line}\n`);
}

function options() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: {
        lan: { type: "boolean" },
        "public-url": { type: "string" },
        "migrate-only": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    process.stderr.write(
      `npm run dev: ${error.message.split(".")[0]}\nUsage: npm run dev [-- --lan] [-- --public-url https://…]\n`,
    );
    process.exit(2);
  }
}

/** The first non-internal IPv4 address: what a phone on the same network can reach. */
function lanAddress() {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}

function readVars(file) {
  const vars = {};
  if (!existsSync(file)) return vars;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

/** The secrets wrangler.toml's [secrets] required lists: wrangler dev loads only these from the vars file. */
const SECRETS = ["TOKEN_PEPPER", "ADMIN_BOOTSTRAP_TOKEN"];

function ensureSecrets() {
  const vars = readVars(varsFile);
  const missing = [];
  for (const name of SECRETS) {
    if (!vars[name]) {
      vars[name] = randomBytes(32).toString("base64url");
      missing.push(name);
    }
  }
  if (missing.length) {
    const text = Object.entries(vars)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n");
    writeFileSync(varsFile, `${text}\n`, { mode: 0o600 });
    log(`generated ${missing.join(", ")} in ${varsFile} (git-ignored)`);
  }
  return vars;
}

function run(args, what) {
  const result = spawnSync(wrangler, args, { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) {
    process.stderr.write(result.stdout?.toString() ?? "");
    process.stderr.write(result.stderr?.toString() ?? "");
    throw new Error(`${what} failed (exit ${result.status})`);
  }
}

/**
 * Applies the local D1 migrations unless this state directory already holds all of them. `wrangler d1 migrations
 * apply` starts a second Node and a workerd (seconds of CPU) even when there is nothing to apply, so a marker
 * beside the database names what was applied; a migration added since, or a database removed, applies again.
 */
function migrate() {
  const marker = join(stateDir, "airlock-migrations.txt");
  const wanted = readdirSync(join(root, "migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .join("\n");
  const d1 = join(stateDir, "v3", "d1");
  if (existsSync(d1) && existsSync(marker) && readFileSync(marker, "utf8") === wanted) {
    log("local D1 migrations already applied");
    return;
  }
  log("applying local D1 migrations");
  run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], "migrations");
  writeFileSync(marker, wanted);
}

async function waitForHealth(base, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("wrangler dev did not answer /healthz within 60 s");
}

async function post(url, init) {
  const res = await fetch(url, { method: "POST", ...init });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * First run: bootstrap the owner, which yields the recovery code (printed once), an approver code for the
 * phone, and (minted with the recovery code) a companion code. Later runs: a companion code only, since
 * the admin token lives in a file the agent can read and so never mints approver codes.
 */
async function pairingCodes(base, adminToken) {
  const headers = { authorization: `Bearer ${adminToken}` };
  const res = await fetch(`${base}/v1/bootstrap`, { method: "POST", headers });
  if (res.status === 409) {
    return { companion: await post(`${base}/v1/admin/pairing-code`, { headers }) };
  }
  if (!res.ok) throw new Error(`could not bootstrap the owner: ${res.status} ${await res.text()}`);
  log("created the owner account");
  const owner = await res.json();
  const companion = await post(`${base}/v1/recovery/pairing-code`, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ recovery_code: owner.recovery_code, role: "companion" }),
  });
  return { recovery: owner.recovery_code, approver: owner, companion };
}

async function main() {
  const flags = options();
  if (flags.help) {
    process.stdout.write(
      "Usage: npm run dev [-- --lan] [-- --public-url https://…]\n\n" +
        "  --lan               listen on the LAN and print a link and QR code a phone on the same network can open\n" +
        "  --public-url URL    the https address of a tunnel to this server (cloudflared tunnel --url http://127.0.0.1:PORT)\n" +
        "  --migrate-only      apply the local D1 migrations (skipped when already applied) and exit\n",
    );
    return;
  }
  if (flags["migrate-only"]) return migrate();
  const publicUrl = flags["public-url"]?.replace(/\/+$/, "");
  if (publicUrl && !/^https?:\/\/[^/]+$/.test(publicUrl))
    throw new Error(`--public-url must be an origin like https://name.example, got "${publicUrl}"`);
  const lan = flags.lan ? lanAddress() : undefined;
  if (flags.lan && !lan) throw new Error("--lan: this machine has no LAN IPv4 address");
  const vars = ensureSecrets();
  if (!existsSync(join(root, "web", "dist", "index.html"))) {
    log("building the dashboard (web/dist)");
    const built = spawnSync("npm", ["run", "-s", "build:web"], {
      cwd: root,
      env: childEnv,
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error("dashboard build failed");
  }
  migrate();

  const base = `http://127.0.0.1:${port}`;
  // What a phone opens: the tunnel's https address, the LAN address, else this machine only.
  const phoneBase = publicUrl ?? (lan ? `http://${lan}:${port}` : base);
  const extra = [];
  // Any other setting in the vars file (AIRLOCK_DOH_URL, say) would be dropped by wrangler dev, which loads only the
  // required secrets from it once they are declared; pass those on as variables.
  for (const [name, value] of Object.entries(vars))
    if (!SECRETS.includes(name)) extra.push("--var", `${name}:${value}`);
  if (lan) extra.push("--var", "AIRLOCK_COOKIE_SECURE:false");
  // A bench's CPU profile attaches here (bench/conveyor/profile.mjs); otherwise wrangler picks its own port.
  if (process.env.AIRLOCK_DEV_INSPECTOR_PORT)
    extra.push("--inspector-port", process.env.AIRLOCK_DEV_INSPECTOR_PORT);
  if (phoneBase !== base) extra.push("--var", `DASHBOARD_ORIGINS:${phoneBase}`);
  const child = spawn(
    wrangler,
    [
      "dev",
      ...(process.env.AIRLOCK_DEV_ENTRY ? [process.env.AIRLOCK_DEV_ENTRY] : []),
      "--ip",
      lan ? "0.0.0.0" : "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--env-file",
      varsFile,
      // wrangler dev passes a client's own CF-Connecting-IP through: pairing lockouts must not trust it.
      "--var",
      "AIRLOCK_TRUST_CF_CONNECTING_IP:false",
      "--show-interactive-dev-session=false",
      ...extra,
    ],
    { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  // Offline, wrangler's optional network checks print getaddrinfo stack traces that look like failures: drop them
  // (src/companion/deploy/offline-noise.ts, built into dist/ by npm install) and say once what they were.
  const noise = await offlineNoise();
  let told = false;
  const relay = (stream, out) => {
    const filter = noise ? new noise.OfflineNoiseFilter() : undefined;
    stream.on("data", (d) => {
      if (!filter) return out.write(d);
      const before = filter.dropped;
      out.write(filter.push(d.toString()));
      if (filter.dropped > before && !told) {
        told = true;
        log(
          "wrangler could not reach the network (offline?); its update and telemetry checks are skipped, the local edge works without them",
        );
      }
    });
    stream.on("end", () => filter && out.write(filter.flush()));
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      child.kill("SIGTERM");
      setTimeout(() => process.exit(0), 2000).unref();
    });
  }
  child.on("exit", (code) => process.exit(code ?? 0));

  await waitForHealth(base, child);
  const codes = await pairingCodes(base, vars.ADMIN_BOOTSTRAP_TOKEN);
  // One write, so whoever reads a code line finds the link and QR code beside it.
  const lines = [`Airlock is running at ${base}${phoneBase !== base ? ` (phones: ${phoneBase})` : ""}`];
  if (codes.recovery) {
    lines.push(
      `Recovery code: ${codes.recovery}`,
      "  Shown once. Keep it off this machine (a password manager): it pairs a new phone when no paired one",
      "  is at hand (POST /v1/recovery/pairing-code). Lost? Set a new one with POST /v1/admin/recovery-code.",
    );
  }
  const qr = [];
  if (codes.approver) {
    const link = `${phoneBase}/pair?code=${codes.approver.code}`;
    lines.push(
      `Approver pairing code: ${codes.approver.code} (single use, expires ${codes.approver.expires_at})`,
      `Pair your phone (it answers prompts): open ${link} or scan`,
    );
    qr.push(`${renderUnicodeCompact(link, { border: 2 })}\n`);
    if (phoneBase === base) {
      qr.push(
        "[airlock] A phone cannot reach 127.0.0.1: run `npm run dev -- --lan` (same Wi-Fi), or a tunnel for https\n",
        `[airlock] (\`cloudflared tunnel --url ${base}\`, then \`npm run dev -- --public-url https://….trycloudflare.com\`).\n`,
      );
    }
  } else {
    lines.push(
      "Pair another phone or browser: mint an approver code on a paired phone (Devices), or with the recovery code.",
    );
  }
  // The CLI's default server is http://127.0.0.1:8787: any other port needs --server, or the pair fails to connect.
  const server = port === DEFAULT_PORT ? "" : ` --server ${base}`;
  const tail = [
    `Companion pairing code: ${codes.companion.code} (single use, expires ${codes.companion.expires_at})`,
    `Pair this machine: npm run -s airlock -- pair ${codes.companion.code}${server}`,
    `  (or with a code minted on the phone, More → Devices → Pair another device: npm run -s airlock -- pair CODE${server})`,
  ];
  process.stdout.write(
    `${lines.map((l) => `[airlock] ${l}\n`).join("")}${qr.join("")}${tail.map((l) => `[airlock] ${l}\n`).join("")}`,
  );
}

main().catch((error) => {
  process.stderr.write(`[airlock] ${error.message}\n`);
  process.exit(1);
});
