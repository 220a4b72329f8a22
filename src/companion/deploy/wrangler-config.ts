// What `airlock deploy` reads from and writes into wrangler.toml: the names it deploys under, the D1 database id and
// the Worker's custom domain. Edits are made in place on the text so comments and layout survive.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { z } from "zod";

const WorkerConfig = z.object({
  name: z.string().min(1),
  d1_databases: z
    .array(z.object({ binding: z.string(), database_name: z.string(), database_id: z.string() }))
    .min(1),
  routes: z.array(z.object({ pattern: z.string(), custom_domain: z.boolean().optional() })).optional(),
});

const PagesConfig = z.object({
  name: z.string().min(1),
  services: z.array(z.object({ binding: z.string(), service: z.string() })).optional(),
});

export interface ProjectConfig {
  workerName: string;
  d1Binding: string;
  d1Name: string;
  d1Id: string;
  workerDomains: string[];
  pagesProject: string;
  /** The Worker the Pages Function's API binding forwards to. */
  pagesService: string | undefined;
}

/** wrangler's placeholder before a database exists. */
export const PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000";

export function workerConfigPath(root: string): string {
  return join(root, "wrangler.toml");
}

export function readProjectConfig(root: string): ProjectConfig {
  const worker = WorkerConfig.parse(parse(readFileSync(workerConfigPath(root), "utf8")));
  const pages = PagesConfig.parse(parse(readFileSync(join(root, "pages", "wrangler.toml"), "utf8")));
  const db = worker.d1_databases[0] as z.infer<typeof WorkerConfig>["d1_databases"][number];
  return {
    workerName: worker.name,
    d1Binding: db.binding,
    d1Name: db.database_name,
    d1Id: db.database_id,
    workerDomains: (worker.routes ?? []).filter((r) => r.custom_domain).map((r) => r.pattern),
    pagesProject: pages.name,
    pagesService: pages.services?.find((s) => s.binding === "API")?.service,
  };
}

/** Sets the first D1 database's id; returns false when it already was that id. */
export function writeDatabaseId(root: string, id: string): boolean {
  const path = workerConfigPath(root);
  const text = readFileSync(path, "utf8");
  const block = /(\[\[d1_databases\]\][^[]*?database_id\s*=\s*")([^"]*)(")/;
  const match = block.exec(text);
  if (!match) throw new Error(`${path} has no [[d1_databases]] database_id to set`);
  if (match[2] === id) return false;
  writeFileSync(path, text.replace(block, `$1${id}$3`));
  return true;
}

/**
 * Adds `domain` as a custom domain of the Worker (a `routes` entry with `custom_domain = true`), so every later
 * `wrangler deploy` keeps it; returns false when it is already there.
 */
export function addWorkerDomain(root: string, domain: string): boolean {
  const path = workerConfigPath(root);
  const text = readFileSync(path, "utf8");
  const config = WorkerConfig.parse(parse(text));
  const routes = config.routes ?? [];
  if (routes.some((r) => r.pattern === domain && r.custom_domain)) return false;
  const entry = `{ pattern = ${JSON.stringify(domain)}, custom_domain = true }`;
  if (/^routes\s*=\s*\[/m.test(text)) {
    writeFileSync(path, text.replace(/^routes\s*=\s*\[/m, `routes = [\n  ${entry},`));
  } else {
    // Top-level keys must come before the first table, so the new key goes right after compatibility_flags.
    const anchor = /^compatibility_flags\s*=.*$/m;
    if (!anchor.test(text)) throw new Error(`${path} has no compatibility_flags line to add routes after`);
    writeFileSync(
      path,
      text.replace(
        anchor,
        (line) =>
          `${line}\n# The Worker's custom domain (written by \`airlock deploy --worker-domain\`).\nroutes = [\n  ${entry},\n]`,
      ),
    );
  }
  return true;
}
