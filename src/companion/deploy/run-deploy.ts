// `airlock deploy`, step by step: each step first reads what the account already has (cloudflare-state.ts) and
// changes only what differs, so a second run changes nothing and says so; --dry-run prints each change it would make.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  account,
  d1Id,
  pagesDomains,
  pagesSource,
  pendingMigrations,
  secretNames,
  WranglerFailed,
  workerTag,
} from "./cloudflare-state.ts";
import { Fingerprint, pagesCommitOf, pagesShortOf, workerTagOf } from "./fingerprint.ts";
import { clearPending, createFirstOwner, type FirstOwner, pendingToken, savePending } from "./first-owner.ts";
import { AuthToken, addPagesDomain } from "./pages-domain.ts";
import { MODEL_KEY, missingSecrets } from "./secrets.ts";
import type { Wrangler } from "./wrangler-cli.ts";
import { jsonOf } from "./wrangler-cli.ts";
import { addWorkerDomain, PLACEHOLDER_ID, readProjectConfig, writeDatabaseId } from "./wrangler-config.ts";

export interface DeployOptions {
  root: string;
  dryRun: boolean;
  /** Rebuild web/dist first (a checkout); false uses web/dist as it is (an installed package ships it built). */
  build: boolean;
  pagesDomain?: string | undefined;
  workerDomain?: string | undefined;
  /** Where to reach the deployed edge for the first-run bootstrap (default: the Pages address). */
  edgeUrl?: string | undefined;
  /** The model provider key, when the person gave one (AIRLOCK_MODEL_API_KEY, or asked on a first run). */
  modelKey: (firstRun: boolean) => Promise<string | undefined>;
  env: NodeJS.ProcessEnv;
  wrangler: Wrangler;
  cloudflareApi: string;
  buildWeb: () => Promise<void>;
  log: (line: string) => void;
}

export interface DeployReport {
  /** Steps that changed something (or would, with --dry-run). */
  changes: string[];
  /** The dashboard's address: the Pages custom domain when there is one, else *.pages.dev. */
  url: string;
  /** The Pages project's own *.pages.dev address, live as soon as the deploy is. */
  pagesDevUrl: string;
  owner: FirstOwner | undefined;
  notes: string[];
}

export class NotLoggedIn extends Error {}

/** A command as a person would type it (words with spaces quoted). */
const shown = (args: string[]) => args.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");

export async function runDeploy(o: DeployOptions): Promise<DeployReport> {
  const { wrangler, log, root } = o;
  const changes: string[] = [];
  const notes: string[] = [];
  const config = readProjectConfig(root);
  if (config.pagesService && config.pagesService !== config.workerName) {
    throw new Error(
      `pages/wrangler.toml forwards /v1 to the Worker "${config.pagesService}", but wrangler.toml deploys "${config.workerName}": make them the same`,
    );
  }
  const change = (done: string, would: string, command?: string[]) => {
    changes.push(o.dryRun ? would : done);
    log(o.dryRun ? `would ${would}${command ? `: ${wrangler.label} ${shown(command)}` : ""}` : `+ ${done}`);
  };

  // 1. Who deploys. Without a login, --dry-run still prints the whole plan, as for a first run.
  const who = await account(wrangler, o.env);
  if (!who.ok && !o.dryRun) throw new NotLoggedIn(who.reason);
  const online = who.ok;
  if (who.ok)
    log(
      `✓ logged in${who.account.email ? ` as ${who.account.email}` : ""}, account ${who.account.name} (${who.account.id})`,
    );
  else log(`! ${who.reason} The plan below is a first run's.`);

  // 2. The dashboard build the Worker and Pages both serve (local only, so --dry-run builds too: the plan
  // compares what would be uploaded).
  if (o.build) {
    log("… building the dashboard (web/dist)");
    await o.buildWeb();
  }

  // 3. The D1 database, and its id in wrangler.toml.
  let dbId = online ? await d1Id(wrangler, config.d1Name) : undefined;
  if (dbId) log(`✓ D1 database "${config.d1Name}" exists (${dbId})`);
  else {
    change(`created the D1 database "${config.d1Name}"`, `create the D1 database "${config.d1Name}"`, [
      "d1",
      "create",
      config.d1Name,
    ]);
    if (!o.dryRun) {
      // Run outside the project, so wrangler does not offer to edit wrangler.toml itself; the id is written below.
      const scratch = mkdtempSync(join(tmpdir(), "airlock-d1-"));
      try {
        const args = ["d1", "create", config.d1Name];
        const created = await wrangler.run(args, { cwd: scratch });
        if (created.status !== 0)
          throw new WranglerFailed("creating the D1 database", args, created, wrangler.label);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      dbId = await d1Id(wrangler, config.d1Name);
      if (!dbId)
        throw new Error(`wrangler created the D1 database "${config.d1Name}" but d1 list does not show it`);
    }
  }
  if (dbId && dbId !== config.d1Id) {
    change(`wrote database_id ${dbId} into wrangler.toml`, `write database_id ${dbId} into wrangler.toml`);
    if (!o.dryRun) writeDatabaseId(root, dbId);
  } else if (!dbId && config.d1Id === PLACEHOLDER_ID && o.dryRun) {
    log("would write the new database's id into wrangler.toml (today a row of zeros)");
  }

  // 4. Migrations, against the remote database.
  const pending = dbId && dbId === config.d1Id ? await pendingMigrations(wrangler, config.d1Binding) : true;
  if (!pending) log("✓ D1 migrations: all applied");
  else {
    const args = ["d1", "migrations", "apply", config.d1Binding, "--remote"];
    change("applied the D1 migrations (remote)", "apply the D1 migrations (remote)", args);
    if (!o.dryRun) {
      const applied = await wrangler.run(args);
      if (applied.status !== 0)
        throw new WranglerFailed("applying D1 migrations", args, applied, wrangler.label);
    }
  }

  // 5. The Worker's custom domain lives in wrangler.toml, so every later deploy keeps it.
  if (o.workerDomain) {
    const has = readProjectConfig(root).workerDomains.includes(o.workerDomain);
    if (has) log(`✓ Worker custom domain ${o.workerDomain} is in wrangler.toml`);
    else {
      change(
        `added the Worker custom domain ${o.workerDomain} to wrangler.toml`,
        `add the Worker custom domain ${o.workerDomain} to wrangler.toml`,
      );
      if (!o.dryRun) addWorkerDomain(root, o.workerDomain);
    }
  }

  // 6. The Worker: bundle it (wrangler's own dry run) to know whether it differs from what is deployed.
  const outdir = mkdtempSync(join(tmpdir(), "airlock-bundle-"));
  let tag: string;
  try {
    const args = ["deploy", "--dry-run", "--outdir", outdir];
    const bundled = await wrangler.run(args);
    if (bundled.status !== 0) throw new WranglerFailed("bundling the Worker", args, bundled, wrangler.label);
    const size = /Total Upload: ([^\n]+)/.exec(bundled.stdout)?.[1];
    if (size) log(`✓ Worker bundled (${size.trim()})`);
    tag = workerTagOf(
      new Fingerprint()
        .tree("bundle", outdir)
        .tree("assets", join(root, "web", "dist"))
        .text("wrangler.toml", JSON.stringify(readProjectConfig(root)))
        .hex(),
    );
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  const deployedTag = online ? await workerTag(wrangler, config.workerName) : null;
  const existing = deployedTag === null ? new Set<string>() : await secretNames(wrangler, config.workerName);
  const modelKey = existing.has(MODEL_KEY) ? undefined : await o.modelKey(deployedTag === null);
  const secrets = await missingSecrets(existing, modelKey);
  const secretList = Object.keys(secrets);
  if (!existing.has(MODEL_KEY) && !modelKey) {
    notes.push(
      `No model provider key: hosted jobs and chat stay off. Set one with AIRLOCK_MODEL_API_KEY=… npm run deploy (and AIRLOCK_MODEL_BASE_URL / AIRLOCK_MODEL_MODELS in wrangler.toml, docs/runtime.md).`,
    );
  }
  if (deployedTag === tag && secretList.length === 0)
    log(`✓ Worker "${config.workerName}" is up to date (${tag})`);
  else {
    const why = [
      deployedTag === null ? "first deploy" : deployedTag === tag ? undefined : "code or config changed",
      secretList.length ? `secrets ${secretList.join(", ")}` : undefined,
    ]
      .filter(Boolean)
      .join("; ");
    const args = ["deploy", "--tag", tag, "--message", `airlock deploy ${tag}`];
    change(
      `deployed the Worker "${config.workerName}" (${why})`,
      `deploy the Worker "${config.workerName}" (${why})`,
      args,
    );
    if (!o.dryRun) await deployWorker(o, config.workerName, args, secrets);
  }

  // 7. Pages: the project (first run), the dashboard with its same-origin /v1 Function, the custom domain.
  let domains = online ? await pagesDomains(wrangler, config.pagesProject) : undefined;
  if (domains) log(`✓ Pages project "${config.pagesProject}" exists`);
  else {
    const args = ["pages", "project", "create", config.pagesProject, "--production-branch", "main"];
    change(
      `created the Pages project "${config.pagesProject}"`,
      `create the Pages project "${config.pagesProject}"`,
      args,
    );
    if (!o.dryRun) {
      const created = await wrangler.run(args, { cwd: join(root, "pages") });
      if (created.status !== 0)
        throw new WranglerFailed("creating the Pages project", args, created, wrangler.label);
      domains = (await pagesDomains(wrangler, config.pagesProject)) ?? [];
    }
  }
  const pagesHex = new Fingerprint()
    .tree("dist", join(root, "web", "dist"))
    .tree("functions", join(root, "pages", "functions"))
    .text("service", config.workerName)
    .hex();
  const deployedSource = domains ? await pagesSource(wrangler, config.pagesProject) : undefined;
  if (deployedSource === pagesShortOf(pagesHex)) log("✓ Pages deployment is up to date");
  else {
    const args = [
      "pages",
      "deploy",
      "--branch",
      "main",
      "--commit-hash",
      pagesCommitOf(pagesHex),
      "--commit-message",
      "airlock deploy",
    ];
    change("deployed the dashboard to Pages", "deploy the dashboard to Pages", args);
    if (!o.dryRun) {
      const deployed = await wrangler.run(args, { cwd: join(root, "pages") });
      if (deployed.status !== 0)
        throw new WranglerFailed("deploying to Pages", args, deployed, wrangler.label);
    }
  }
  const pagesDev = domains?.find((d) => d.endsWith(".pages.dev")) ?? `${config.pagesProject}.pages.dev`;
  if (o.pagesDomain) {
    if (domains?.includes(o.pagesDomain)) log(`✓ Pages custom domain ${o.pagesDomain}`);
    else {
      change(
        `added the Pages custom domain ${o.pagesDomain}`,
        `add the Pages custom domain ${o.pagesDomain} (Cloudflare API, with its CNAME to ${pagesDev})`,
      );
      if (!o.dryRun && who.ok) {
        const auth = await authToken(wrangler);
        const added = await addPagesDomain({
          api: o.cloudflareApi,
          auth,
          accountId: who.account.id,
          project: config.pagesProject,
          domain: o.pagesDomain,
          pagesDev,
        });
        if (added.note) notes.push(added.note);
        notes.push(
          `A new custom domain takes a few minutes to get its certificate; until then use https://${pagesDev}.`,
        );
      }
    }
  }
  const custom = o.pagesDomain ?? domains?.find((d) => !d.endsWith(".pages.dev"));
  const pagesDevUrl = `https://${pagesDev}`;
  const url = custom ? `https://${custom}` : pagesDevUrl;

  // 8. The owner, once: only a run that generated the bootstrap token (now or in an earlier, unfinished run) has it.
  let owner: FirstOwner | undefined;
  const token = pendingToken(root, config.workerName);
  if (token && o.dryRun)
    log(`would create the owner account (POST ${o.edgeUrl ?? pagesDevUrl}/v1/bootstrap)`);
  else if (secrets.ADMIN_BOOTSTRAP_TOKEN && o.dryRun)
    log("would create the owner account and print the recovery code");
  else if (token) {
    owner = await createFirstOwner(o.edgeUrl ?? pagesDevUrl, token);
    clearPending(root);
    changes.push(owner.created ? "created the owner account" : "owner account already existed");
    log(owner.created ? "+ created the owner account" : "✓ owner account already existed");
  }
  return { changes, url, pagesDevUrl, owner, notes };
}

async function authToken(wrangler: Wrangler): Promise<AuthToken> {
  const args = ["auth", "token", "--json"];
  const result = await wrangler.run(args);
  const parsed = AuthToken.safeParse(jsonOf(result.stdout));
  if (result.status !== 0 || !parsed.success)
    throw new WranglerFailed("reading wrangler's credentials", args, result, wrangler.label);
  return parsed.data;
}

/** `wrangler deploy`, with missing secrets in a 0600 file that is removed at once (secrets never touch argv). */
async function deployWorker(
  o: DeployOptions,
  worker: string,
  args: string[],
  secrets: Record<string, string>,
) {
  const dir = mkdtempSync(join(tmpdir(), "airlock-secrets-"));
  try {
    const all = [...args];
    if (Object.keys(secrets).length) {
      const file = join(dir, "secrets.json");
      writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
      all.push("--secrets-file", file);
      // Kept before the upload: if the bootstrap after it fails, the next run still holds the token.
      if (secrets.ADMIN_BOOTSTRAP_TOKEN) savePending(o.root, worker, secrets.ADMIN_BOOTSTRAP_TOKEN);
    }
    const deployed = await o.wrangler.run(all);
    if (deployed.status !== 0)
      throw new WranglerFailed("deploying the Worker", args, deployed, o.wrangler.label);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
