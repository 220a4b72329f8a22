#!/usr/bin/env node
// A stand-in for `wrangler` that records every call (FAKE_WRANGLER_LOG, one JSON line each: args, cwd) and answers
// from a JSON account state (FAKE_WRANGLER_STATE) it also updates, with the JSON shapes wrangler 4 prints. Only the
// commands `airlock deploy` runs exist; any other exits 1, so a new call shows up as a failure, not a silent pass.
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const statePath = process.env.FAKE_WRANGLER_STATE;
const logPath = process.env.FAKE_WRANGLER_LOG;
if (!statePath || !logPath) {
  process.stderr.write("fake wrangler: FAKE_WRANGLER_STATE and FAKE_WRANGLER_LOG must be set\n");
  process.exit(70);
}
appendFileSync(logPath, `${JSON.stringify({ args, cwd: process.cwd() })}\n`);
const state = JSON.parse(readFileSync(statePath, "utf8"));
const save = () => writeFileSync(statePath, JSON.stringify(state, null, 2));
const out = (value) =>
  process.stdout.write(typeof value === "string" ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
const fail = (message) => {
  process.stderr.write(`✘ [ERROR] ${message}\n`);
  process.exit(1);
};
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const words = args.filter(
  (a, i) =>
    !a.startsWith("--") &&
    !(i > 0 && args[i - 1]?.startsWith("--") && !["--json", "--remote", "--dry-run"].includes(args[i - 1])),
);
const command = words.slice(0, 3).join(" ");

function requireLogin() {
  if (!state.loggedIn) fail("Not logged in. Please run `wrangler login`.");
}

/** The database_id wrangler.toml (in the cwd) names, as wrangler would resolve the binding. */
function configuredDb() {
  const text = readFileSync(join(process.cwd(), "wrangler.toml"), "utf8");
  return /database_id\s*=\s*"([^"]*)"/.exec(text)?.[1];
}

if (command === "whoami") {
  if (!state.loggedIn) {
    out({ loggedIn: false });
    process.exit(1);
  }
  out({ loggedIn: true, authType: "OAuth Token", email: "owner@example.com", accounts: state.accounts });
} else if (command === "auth token") {
  requireLogin();
  out({ type: "oauth", token: "fake-oauth-token" });
} else if (command === "d1 list") {
  requireLogin();
  out(state.d1);
} else if (words[0] === "d1" && words[1] === "create") {
  requireLogin();
  if (state.d1.some((d) => d.name === words[2])) fail(`A database with that name already exists`);
  state.d1.push({ uuid: randomUUID(), name: words[2] });
  save();
  out(`✅ Successfully created DB '${words[2]}'`);
} else if (words[0] === "d1" && words[1] === "migrations") {
  requireLogin();
  if (!args.includes("--remote")) fail("fake wrangler: deploy must act on the remote database");
  const id = configuredDb();
  if (!state.d1.some((d) => d.uuid === id))
    fail(`Couldn't find a D1 DB with the name or binding '${words[3]}' (id ${id})`);
  if (words[2] === "list")
    out(state.migrationsPending ? "Migrations to be applied:\n0000_init.sql" : "✅ No migrations to apply!");
  else if (words[2] === "apply") {
    state.migrationsPending = false;
    save();
    out("🚣 Executed 7 migrations");
  } else fail(`fake wrangler: unknown d1 migrations ${words[2]}`);
} else if (command === "deploy" && args.includes("--dry-run")) {
  const outdir = flag("--outdir");
  mkdirSync(outdir, { recursive: true });
  // The "bundle" depends on the config, as a real one does.
  writeFileSync(
    join(outdir, "index.js"),
    `// bundle of ${readFileSync(join(process.cwd(), "wrangler.toml"), "utf8").length} bytes of config\n${state.bundleSource ?? ""}`,
  );
  out("Total Upload: 1.00 KiB / gzip: 0.50 KiB\n--dry-run: exiting now.");
} else if (command === "deploy") {
  requireLogin();
  const file = flag("--secrets-file");
  if (file) {
    // As wrangler does: a process environment variable of a secret's name overrides the file's value.
    const secrets = JSON.parse(readFileSync(file, "utf8"));
    for (const name of Object.keys(secrets)) if (process.env[name]) secrets[name] = process.env[name];
    Object.assign(state.secrets, secrets);
  }
  for (const name of ["TOKEN_PEPPER", "ADMIN_BOOTSTRAP_TOKEN"])
    if (!(name in state.secrets)) fail(`Missing required secret ${name}`);
  state.worker = { tag: flag("--tag"), version: randomUUID() };
  save();
  out(
    "Uploaded airlock\nDeployed airlock triggers\n  https://airlock.owner.workers.dev\nCurrent Version ID: x",
  );
} else if (command === "deployments status") {
  requireLogin();
  if (!state.worker) fail(`The Worker ${flag("--name")} has no deployments.`);
  out({ id: "dep", versions: [{ version_id: state.worker.version, percentage: 100 }] });
} else if (words[0] === "versions" && words[1] === "view") {
  requireLogin();
  if (!state.worker || words[2] !== state.worker.version) fail("no such version");
  out({ id: state.worker.version, annotations: { "workers/tag": state.worker.tag } });
} else if (command === "secret list") {
  requireLogin();
  if (!state.worker) fail(`This Worker does not exist on your account. [code: 10007]`);
  out(Object.keys(state.secrets).map((name) => ({ name, type: "secret_text" })));
} else if (command === "pages project list") {
  requireLogin();
  out(
    Object.entries(state.pages).map(([name, p]) => ({
      "Project Name": name,
      "Project Domains": p.domains.join(", "),
    })),
  );
} else if (command === "pages project create") {
  requireLogin();
  if (flag("--production-branch") !== "main") fail("fake wrangler: expected --production-branch main");
  state.pages[words[3]] = { domains: [`${words[3]}.pages.dev`], deployments: [] };
  save();
  out(`✨ Successfully created the '${words[3]}' project.`);
} else if (command === "pages deployment list") {
  requireLogin();
  const project = state.pages[flag("--project-name")];
  if (!project) fail("Project not found");
  out(project.deployments.map((d) => ({ Environment: "Production", Branch: "main", Source: d.slice(0, 7) })));
} else if (command === "pages deploy") {
  requireLogin();
  // Must run from pages/, so wrangler uses the Pages config (and its Function) rather than the Worker's.
  const config = join(process.cwd(), "wrangler.toml");
  if (!existsSync(config) || !/pages_build_output_dir/.test(readFileSync(config, "utf8")))
    fail("fake wrangler: pages deploy ran outside pages/");
  if (!existsSync(join(process.cwd(), "functions")))
    fail("fake wrangler: no functions/ beside the Pages config");
  const name = /^name\s*=\s*"([^"]+)"/m.exec(readFileSync(config, "utf8"))?.[1];
  if (!state.pages[name]) fail(`Project ${name} does not exist`);
  state.pages[name].deployments.unshift(flag("--commit-hash"));
  save();
  out(`✨ Deployment complete! Take a peek over at https://abc123.${name}.pages.dev`);
} else {
  fail(`fake wrangler: unknown command ${args.join(" ")}`);
}
