// `airlock deploy` (`npm run deploy` in a checkout): the whole production set-up on Cloudflare in one idempotent
// command, then what a person needs next: the URL, the recovery code and the phone's pairing link (first run), and
// this machine's pair command. The steps are in deploy/run-deploy.ts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs, UsageError } from "../cli/command-args.ts";
import { airlockInvocation, PACKAGE_ROOT } from "../cli/invocation.ts";
import { WranglerFailed } from "../deploy/cloudflare-state.ts";
import { CLOUDFLARE_API } from "../deploy/pages-domain.ts";
import { type DeployReport, NotLoggedIn, runDeploy } from "../deploy/run-deploy.ts";
import { MODEL_KEY } from "../deploy/secrets.ts";
import { nodeWrangler } from "../deploy/wrangler-cli.ts";
import { pairingLink, terminalQr } from "../edge/pairing-link.ts";

const HELP = `Usage: airlock deploy [--domain HOST] [--worker-domain HOST] [--dry-run] [--skip-build] [--edge-url URL] [--project DIR] [--json]

Deploys Airlock to your Cloudflare account (in a checkout: npm run deploy). Every step first checks what
the account already has and changes only what differs, so running it again changes nothing and says so:

  1. wrangler whoami: says how to log in when you are not (npx wrangler login, or CLOUDFLARE_API_TOKEN)
  2. builds the dashboard (web/dist) in a checkout
  3. creates the D1 database when it is missing and writes its id into wrangler.toml
  4. applies the D1 migrations (remote)
  5. sets the Worker's secrets that are missing: TOKEN_PEPPER, ADMIN_BOOTSTRAP_TOKEN and the Web Push
     (VAPID) pair are generated; the model provider key is ${MODEL_KEY} from the environment, or
     asked for on the first run at a terminal (Enter skips: hosted jobs stay off)
  6. deploys the Worker (when its bundle, assets, config or secrets changed)
  7. creates the Pages project (first run) and deploys the dashboard with its same-origin /v1 Function
  8. adds the custom domains: --domain for the dashboard (Pages, with its CNAME when the zone is on the
     account), --worker-domain for the Worker (kept in wrangler.toml)
  9. first run: creates the owner and prints the recovery code, the phone's pairing link with a QR code,
     and this machine's pair command

Options:
  --domain HOST          custom domain for the dashboard, e.g. airlock.example.com
  --worker-domain HOST   custom domain for the Worker, e.g. api.airlock.example.com
  --dry-run              print every step and the wrangler command it would run; change nothing
  --skip-build           deploy web/dist as it is
  --edge-url URL         reach the deployed edge here for the first-run set-up (default: the *.pages.dev address)
  --project DIR          the Airlock project to deploy (default: this package, ${PACKAGE_ROOT})
  --json                 print {changes, url, pages_dev_url, recovery_code?, approver?, companion?, notes}

Environment: AIRLOCK_WRANGLER (the wrangler command; default wrangler on PATH), CLOUDFLARE_API_TOKEN,
CLOUDFLARE_ACCOUNT_ID (when a login has several accounts), ${MODEL_KEY}.

Exit codes: 0 deployed (or nothing to change), 1 a step failed, 2 bad arguments, 3 not logged in to
Cloudflare, 4 the deployed edge could not be reached for the first-run set-up.
`;

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function host(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const h = value.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (!HOST.test(h))
    throw new UsageError(`${flag} takes a host name like airlock.example.com, got "${value}"`);
  return h.toLowerCase();
}

function buildWeb(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "-s", "build:web"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run build:web failed:\n${err}`)),
    );
  });
}

async function askModelKey(): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `Model provider key for hosted jobs and chat (${MODEL_KEY}; Enter to skip, set it later the same way): `,
    );
    return answer.trim() || undefined;
  } finally {
    rl.close();
  }
}

async function summary(report: DeployReport, airlock: string): Promise<string> {
  const lines: string[] = [];
  lines.push(
    report.changes.length === 0
      ? `Nothing to change: Airlock at ${report.url} is up to date.`
      : `Airlock is deployed at ${report.url}`,
  );
  const owner = report.owner;
  if (owner?.created) {
    const link = pairingLink(report.url, owner.approver.code);
    lines.push(
      `Recovery code: ${owner.recoveryCode}`,
      "  Shown once. Keep it off this machine (a password manager): it pairs a new phone when no paired one is at hand.",
      `Approver pairing code: ${owner.approver.code} (single use, expires ${owner.approver.expires_at})`,
      `Pair your phone (it answers prompts): open ${link} or scan`,
      (await terminalQr(link)).trimEnd(),
    );
    if (report.url !== report.pagesDevUrl)
      lines.push(`  (until ${report.url} is live: ${pairingLink(report.pagesDevUrl, owner.approver.code)})`);
    lines.push(
      `Pair this machine: ${airlock} pair ${owner.companion.code} --server ${report.url}`,
      `  (code expires ${owner.companion.expires_at}; later: your phone's More → Devices → Pair another device)`,
    );
  } else {
    lines.push(
      `Pair a device: on a paired phone, More → Devices → Pair another device; then ${airlock} pair CODE --server ${report.url}`,
    );
  }
  lines.push(
    `Check it: export AIRLOCK_PARITY_TOKEN=$(${airlock} devices token --recovery-code CODE --server ${report.url})`,
    `  then: npm run parity -- ${report.pagesDevUrl} ${report.url}   (a read-only token, 15 minutes)`,
  );
  for (const note of report.notes) lines.push(`Note: ${note}`);
  return `${lines.join("\n")}\n`;
}

export const deployCommand: Command = {
  name: ["deploy"],
  help: HELP,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      domain: { type: "string" },
      "worker-domain": { type: "string" },
      "dry-run": { type: "boolean" },
      "skip-build": { type: "boolean" },
      "edge-url": { type: "string" },
      project: { type: "string" },
      json: { type: "boolean" },
    });
    const edgeUrl = values["edge-url"]?.replace(/\/+$/, "");
    if (edgeUrl !== undefined && !/^https?:\/\/[^/]+$/.test(edgeUrl))
      throw new UsageError(`--edge-url must be an origin like https://airlock.example.com, got "${edgeUrl}"`);
    const root = values.project ? resolve(io.cwd, values.project) : PACKAGE_ROOT;
    if (!existsSync(join(root, "wrangler.toml")) || !existsSync(join(root, "pages", "wrangler.toml")))
      throw new UsageError(
        `${root} is not an Airlock project (it needs wrangler.toml and pages/wrangler.toml)`,
      );
    const checkout = existsSync(join(root, "node_modules", ".bin", "vite"));
    const json = values.json ?? false;
    const log = (line: string) => (json ? io.stderr : io.stdout)(`[deploy] ${line}\n`);
    if (!values["skip-build"] && !checkout) log("using the packaged dashboard build (web/dist)");
    if (!existsSync(join(root, "web", "dist", "index.html")) && (values["skip-build"] || !checkout)) {
      io.stderr(`airlock deploy: ${join(root, "web", "dist")} has no build; run npm run build:web first\n`);
      return ExitCode.config;
    }
    const fromEnv = io.env[MODEL_KEY]?.trim() || undefined;
    try {
      const report = await runDeploy({
        root,
        dryRun: values["dry-run"] ?? false,
        build: checkout && !values["skip-build"],
        pagesDomain: host(values.domain, "--domain"),
        workerDomain: host(values["worker-domain"], "--worker-domain"),
        edgeUrl,
        modelKey: async (firstRun) => fromEnv ?? (firstRun && io.stdinIsTTY ? askModelKey() : undefined),
        env: io.env,
        wrangler: nodeWrangler(io.env, root, root),
        cloudflareApi: io.env.AIRLOCK_CLOUDFLARE_API?.replace(/\/+$/, "") || CLOUDFLARE_API,
        buildWeb: () => buildWeb(root),
        log,
      });
      if (values["dry-run"]) {
        const text = report.changes.length
          ? `Dry run: ${report.changes.length} change(s) planned, none made.\n`
          : `Dry run: nothing to change at ${report.url}.\n`;
        if (json)
          io.stdout(`${JSON.stringify({ dry_run: true, changes: report.changes, url: report.url })}\n`);
        else io.stdout(text);
        return ExitCode.ok;
      }
      if (json) {
        const owner = report.owner?.created ? report.owner : undefined;
        io.stdout(
          `${JSON.stringify({
            changes: report.changes,
            url: report.url,
            pages_dev_url: report.pagesDevUrl,
            ...(owner
              ? {
                  recovery_code: owner.recoveryCode,
                  approver: { ...owner.approver, link: pairingLink(report.url, owner.approver.code) },
                  companion: owner.companion,
                }
              : {}),
            notes: report.notes,
          })}\n`,
        );
      } else io.stdout(await summary(report, airlockInvocation(io.env, io.cwd)));
      return ExitCode.ok;
    } catch (error) {
      if (error instanceof NotLoggedIn) {
        io.stderr(`airlock deploy: ${error.message}\n`);
        return ExitCode.config;
      }
      io.stderr(`airlock deploy: ${error instanceof Error ? error.message : String(error)}\n`);
      if (error instanceof WranglerFailed) return ExitCode.failure;
      return /could not be reached|did not answer/.test(String(error))
        ? ExitCode.unavailable
        : ExitCode.failure;
    }
  },
};
