// A custom domain for the Pages project: wrangler has no command for it, so `airlock deploy` calls Cloudflare's API
// with wrangler's own credentials (`wrangler auth token --json`): the domain on the project, then its CNAME record
// when the domain's zone is on the same account.
import { z } from "zod";

export const CLOUDFLARE_API = "https://api.cloudflare.com/client/v4";

export const AuthToken = z.union([
  z.object({ type: z.enum(["oauth", "api_token"]), token: z.string().min(1) }),
  z.object({ type: z.literal("api_key"), key: z.string().min(1), email: z.string().min(1) }),
]);
export type AuthToken = z.infer<typeof AuthToken>;

const Envelope = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number().optional(), message: z.string() })).default([]),
  result: z.unknown(),
});

function headers(auth: AuthToken): Record<string, string> {
  const base = { "content-type": "application/json" };
  return auth.type === "api_key"
    ? { ...base, "x-auth-key": auth.key, "x-auth-email": auth.email }
    : { ...base, authorization: `Bearer ${auth.token}` };
}

async function call(api: string, auth: AuthToken, method: string, path: string, body?: unknown) {
  let res: Response;
  try {
    res = await fetch(`${api}${path}`, {
      method,
      headers: headers(auth),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new Error(`Cloudflare's API at ${api} could not be reached (${(error as Error).message})`);
  }
  const parsed = Envelope.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new Error(`${method} ${path}: Cloudflare's API answered HTTP ${res.status}`);
  if (!parsed.data.success) {
    throw new Error(
      `${method} ${path}: ${parsed.data.errors.map((e) => e.message).join("; ") || `HTTP ${res.status}`}`,
    );
  }
  return parsed.data.result;
}

const Zones = z.array(z.object({ id: z.string(), name: z.string() }));
const Records = z.array(z.object({ id: z.string(), type: z.string(), content: z.string() }));

export interface PagesDomainResult {
  /** What still needs a person, if anything (a CNAME at a DNS provider outside this account). */
  note?: string;
}

/** Adds `domain` to the project and points it at `pagesDev` (the project's *.pages.dev host). */
export async function addPagesDomain(options: {
  api: string;
  auth: AuthToken;
  accountId: string;
  project: string;
  domain: string;
  pagesDev: string;
}): Promise<PagesDomainResult> {
  const { api, auth, accountId, project, domain, pagesDev } = options;
  await call(
    api,
    auth,
    "POST",
    `/accounts/${accountId}/pages/projects/${encodeURIComponent(project)}/domains`,
    {
      name: domain,
    },
  );
  // The zone is the longest suffix of the domain that is a zone on this account.
  const labels = domain.split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const name = labels.slice(i).join(".");
    const zones = Zones.parse(
      await call(api, auth, "GET", `/zones?name=${encodeURIComponent(name)}&account.id=${accountId}`),
    );
    const zone = zones.find((z) => z.name === name);
    if (!zone) continue;
    const records = Records.parse(
      await call(api, auth, "GET", `/zones/${zone.id}/dns_records?name=${encodeURIComponent(domain)}`),
    );
    if (records.length === 0) {
      await call(api, auth, "POST", `/zones/${zone.id}/dns_records`, {
        type: "CNAME",
        name: domain,
        content: pagesDev,
        proxied: true,
      });
      return {};
    }
    if (records.some((r) => r.type === "CNAME" && r.content === pagesDev)) return {};
    return {
      note: `${domain} already has a DNS record that does not point at ${pagesDev}; change it to a CNAME to ${pagesDev}`,
    };
  }
  return {
    note: `${domain}'s zone is not on this Cloudflare account: add a CNAME record ${domain} → ${pagesDev} at your DNS provider`,
  };
}
