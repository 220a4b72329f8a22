// What is already on the Cloudflare account, read through wrangler's JSON output: each probe changes nothing, so
// `airlock deploy` (and its --dry-run) can tell what a run would change before changing it.
import { z } from "zod";
import { jsonOf, type Wrangler, type WranglerResult, withoutNoise } from "./wrangler-cli.ts";

export class WranglerFailed extends Error {
  constructor(what: string, args: string[], result: WranglerResult, label = "wrangler") {
    const output = withoutNoise(`${result.stdout}\n${result.stderr}`).trim();
    super(`${what} failed: ${label} ${args.join(" ")} exited ${result.status}${output ? `\n${output}` : ""}`);
    this.name = "WranglerFailed";
  }
}

async function json<T>(wrangler: Wrangler, args: string[], schema: z.ZodType<T>, what: string): Promise<T> {
  const result = await wrangler.run(args);
  if (result.status !== 0) throw new WranglerFailed(what, args, result, wrangler.label);
  const parsed = schema.safeParse(jsonOf(result.stdout));
  if (!parsed.success) throw new WranglerFailed(`${what} (unexpected output)`, args, result, wrangler.label);
  return parsed.data;
}

const Whoami = z.object({
  loggedIn: z.literal(true),
  email: z.string().optional(),
  accounts: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type Account = { id: string; name: string; email: string | undefined };

/** The account to deploy to, or why there is none (not logged in, or several accounts and none chosen). */
export async function account(
  wrangler: Wrangler,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; account: Account } | { ok: false; reason: string }> {
  const result = await wrangler.run(["whoami", "--json"]);
  const parsed = Whoami.safeParse(jsonOf(result.stdout));
  if (result.status !== 0 || !parsed.success) {
    return {
      ok: false,
      reason:
        "wrangler is not logged in to Cloudflare. Run `npx wrangler login` (a browser opens), or set CLOUDFLARE_API_TOKEN " +
        "to an API token with Workers, D1, Pages and DNS edit rights; then run this again.",
    };
  }
  const chosen = env.CLOUDFLARE_ACCOUNT_ID?.trim();
  const accounts = parsed.data.accounts;
  const found = chosen
    ? accounts.find((a) => a.id === chosen)
    : accounts.length === 1
      ? accounts[0]
      : undefined;
  if (!found) {
    return {
      ok: false,
      reason: chosen
        ? `CLOUDFLARE_ACCOUNT_ID=${chosen} is not one of this login's accounts (${accounts.map((a) => a.id).join(", ")})`
        : `this login has ${accounts.length} accounts: choose one with CLOUDFLARE_ACCOUNT_ID=<id> (${accounts.map((a) => `${a.id} ${a.name}`).join("; ")})`,
    };
  }
  return { ok: true, account: { ...found, email: parsed.data.email } };
}

const D1List = z.array(z.object({ uuid: z.string(), name: z.string() }));

export async function d1Id(wrangler: Wrangler, name: string): Promise<string | undefined> {
  const list = await json(wrangler, ["d1", "list", "--json"], D1List, "listing D1 databases");
  return list.find((d) => d.name === name)?.uuid;
}

/** Whether `d1 migrations list --remote` has anything left to apply. */
export async function pendingMigrations(wrangler: Wrangler, binding: string): Promise<boolean> {
  const args = ["d1", "migrations", "list", binding, "--remote"];
  const result = await wrangler.run(args);
  if (result.status !== 0)
    throw new WranglerFailed("listing unapplied D1 migrations", args, result, wrangler.label);
  return !/No migrations to apply/.test(result.stdout);
}

const DeploymentStatus = z.object({
  versions: z.array(z.object({ version_id: z.string(), percentage: z.number() })).min(1),
});
const VersionView = z.object({ annotations: z.record(z.string(), z.string()).optional() });

/** The tag of the version serving 100% of the Worker's traffic; null when the Worker has never been deployed. */
export async function workerTag(wrangler: Wrangler, name: string): Promise<string | null | undefined> {
  const status = await wrangler.run(["deployments", "status", "--name", name, "--json"]);
  const parsed = DeploymentStatus.safeParse(jsonOf(status.stdout));
  if (status.status !== 0 || !parsed.success) {
    const text = `${status.stdout}\n${status.stderr}`;
    if (/has no deployments|does not exist|not found|10007/i.test(text)) return null;
    throw new WranglerFailed(
      "reading the Worker's deployment",
      ["deployments", "status", "--json"],
      status,
      wrangler.label,
    );
  }
  const current = parsed.data.versions.find((v) => v.percentage === 100) ?? parsed.data.versions[0];
  if (!current) return null;
  const view = await json(
    wrangler,
    ["versions", "view", current.version_id, "--name", name, "--json"],
    VersionView,
    "reading the Worker's current version",
  );
  return view.annotations?.["workers/tag"];
}

const SecretList = z.array(z.object({ name: z.string() }));

export async function secretNames(wrangler: Wrangler, worker: string): Promise<Set<string>> {
  const list = await json(
    wrangler,
    ["secret", "list", "--name", worker, "--format", "json"],
    SecretList,
    "listing the Worker's secrets",
  );
  return new Set(list.map((s) => s.name));
}

const PagesProjects = z.array(z.object({ "Project Name": z.string(), "Project Domains": z.string() }));

/** The project's domains (its *.pages.dev host first), or undefined when there is no such project. */
export async function pagesDomains(wrangler: Wrangler, project: string): Promise<string[] | undefined> {
  const list = await json(
    wrangler,
    ["pages", "project", "list", "--json"],
    PagesProjects,
    "listing Pages projects",
  );
  const found = list.find((p) => p["Project Name"] === project);
  if (!found) return undefined;
  const domains = found["Project Domains"]
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean);
  return [
    ...domains.filter((d) => d.endsWith(".pages.dev")),
    ...domains.filter((d) => !d.endsWith(".pages.dev")),
  ];
}

const PagesDeployments = z.array(z.object({ Environment: z.string(), Source: z.string() }));

/** The short commit hash of the project's latest production deployment (deploy sets it to its fingerprint). */
export async function pagesSource(wrangler: Wrangler, project: string): Promise<string | undefined> {
  const list = await json(
    wrangler,
    ["pages", "deployment", "list", "--project-name", project, "--environment", "production", "--json"],
    PagesDeployments,
    "listing Pages deployments",
  );
  return list.find((d) => d.Environment.toLowerCase() === "production")?.Source;
}
