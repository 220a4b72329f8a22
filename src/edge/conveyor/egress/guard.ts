// The SSRF guard: every request the conveyor sends leaves through here. The URL is judged, the name
// resolved over DoH, every answer judged, one answer pinned and dialled; redirects start over.
import { judgeAddress } from "./address.ts";
import { type EgressConfig, loopbackKey } from "./config.ts";
import { dohResolver, type Resolver } from "./doh.ts";
import { EgressFailure, type PinnedResponse, pinnedRequest } from "./pinned-http.ts";
import { parseTarget, type Target } from "./target.ts";

export const MAX_REDIRECTS = 3;

export interface GuardedRequest {
  url: string;
  method: string;
  headers?: [string, string][];
  body?: Uint8Array;
  /** Follow up to MAX_REDIRECTS redirects (GET only); otherwise a 3xx is the answer. */
  followRedirects: boolean;
  maxBytes: number;
  timeoutMs: number;
}

export type EgressRefusal = {
  ok: false;
  /** blocked: the guard refused; unavailable: DNS or connect failed; timeout; too_large; protocol. */
  kind: "blocked" | "unavailable" | "timeout" | "too_large" | "protocol";
  reason: string;
  url: string;
};

export type EgressResult =
  | { ok: true; response: PinnedResponse; finalUrl: string; address: string; redirects: number }
  | EgressRefusal;

export interface Egress {
  request(req: GuardedRequest): Promise<EgressResult>;
}

type Pinned = { ok: true; address: string } | { ok: false; kind: "blocked" | "unavailable"; reason: string };

async function pin(
  target: Target,
  config: EgressConfig,
  resolver: Resolver,
  deadline: number,
): Promise<Pinned> {
  const allowedLoopback = (address: string) => config.loopbackTargets.has(loopbackKey(address, target.port));
  let answers: string[];
  if (target.literal) {
    answers = [target.host];
  } else {
    const resolved = await resolver.resolve(target.host, deadline);
    if (!resolved.ok) return { ok: false, kind: "unavailable", reason: resolved.reason };
    answers = resolved.addresses;
  }
  // Every answer must pass, not just the one dialled: a name that also points inside is refused whole.
  let chosen: string | undefined;
  for (const answer of answers) {
    const verdict = judgeAddress(answer);
    if (verdict.ok) {
      chosen ??= verdict.address;
    } else if (allowedLoopback(answer)) {
      chosen ??= answer;
    } else {
      return {
        ok: false,
        kind: "blocked",
        reason: target.literal ? verdict.reason : `${target.host} resolves to ${verdict.reason}`,
      };
    }
  }
  if (chosen === undefined)
    return { ok: false, kind: "unavailable", reason: `${target.host} has no usable address` };
  return { ok: true, address: chosen };
}

export function createEgress(
  config: EgressConfig,
  resolver: Resolver = dohResolver(config.resolverUrl),
): Egress {
  return {
    async request(req) {
      const deadline = Date.now() + req.timeoutMs;
      if (!config.resolverUrl.startsWith("https://") && config.loopbackTargets.size === 0) {
        return {
          ok: false,
          kind: "unavailable",
          reason: "AIRLOCK_DOH_URL must be an https:// resolver",
          url: req.url,
        };
      }
      let url = req.url;
      for (let redirects = 0; ; redirects++) {
        const parsed = parseTarget(url);
        if (!parsed.ok) return { ok: false, kind: "blocked", reason: parsed.reason, url };
        const target = parsed.target;
        const pinned = await pin(target, config, resolver, deadline);
        if (!pinned.ok) return { ok: false, kind: pinned.kind, reason: pinned.reason, url };
        let response: PinnedResponse;
        try {
          response = await pinnedRequest({
            url: target.url,
            address: pinned.address,
            port: target.port,
            tls: target.tls,
            method: req.method,
            headers: req.headers ?? [],
            ...(req.body ? { body: req.body } : {}),
            maxBytes: req.maxBytes,
            deadline,
          });
        } catch (error) {
          if (!(error instanceof EgressFailure)) throw error;
          const kind = error.kind === "connect" ? "unavailable" : error.kind;
          return { ok: false, kind, reason: error.message, url };
        }
        const location = response.headers.find(([name]) => name === "location")?.[1];
        const isRedirect = response.status >= 300 && response.status < 400 && location !== undefined;
        if (!isRedirect || !req.followRedirects) {
          return { ok: true, response, finalUrl: target.url.toString(), address: pinned.address, redirects };
        }
        if (redirects >= MAX_REDIRECTS) {
          return { ok: false, kind: "blocked", reason: `more than ${MAX_REDIRECTS} redirects`, url };
        }
        try {
          url = new URL(location, target.url).toString();
        } catch {
          return { ok: false, kind: "protocol", reason: "redirect to an unparsable location", url };
        }
      }
    },
  };
}
