// Brave Search's web endpoint (GET /res/v1/web/search, key in X-Subscription-Token), the first provider.
import { z } from "zod";
import { failed } from "../../conveyor/tool.ts";
import type { ConnectorDeps } from "../deps.ts";
import { exchange } from "../exchange.ts";
import type { SearchProvider } from "./provider.ts";

const TIMEOUT_MS = 10_000;

const WebSearchApiResponse = z.object({
  web: z
    .object({
      results: z
        .array(z.object({ title: z.string(), url: z.string(), description: z.string().optional() }))
        .optional(),
    })
    .optional(),
});

/** Brave marks query hits with <strong>; results are plain text. */
const plain = (s: string) =>
  s
    .replace(/<\/?strong>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

export function braveSearch(deps: ConnectorDeps): SearchProvider {
  return {
    name: "Brave Search",
    async search(query, count) {
      const key = deps.braveSearchKey;
      if (!key)
        return {
          ok: false,
          outcome: failed("tool_unavailable", "web.search is not configured: no Brave Search key.", {
            remediation:
              "Set the Worker secret BRAVE_SEARCH_API_KEY (wrangler secret put BRAVE_SEARCH_API_KEY).",
          }),
        };
      const url = new URL("/res/v1/web/search", deps.endpoints().braveSearch);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(count));
      const refused = () =>
        failed("permission_denied", "Brave Search refused the key (HTTP 401/403).", {
          remediation: "Check the Worker secret BRAVE_SEARCH_API_KEY and the subscription.",
        });
      const answer = await exchange(
        {
          title: "Brave Search",
          kind: "brave",
          headers: () => ({ "x-subscription-token": key }),
          // A key has no refresh: a 401 is final.
          refresh: async () => false,
          refused,
          missingScope: refused,
          used: async () => {},
          sleep: deps.sleep,
        },
        { method: "GET", url: url.toString(), read: true, timeoutMs: TIMEOUT_MS },
      );
      if (!answer.ok) return { ok: false, outcome: answer.outcome };
      const parsed = WebSearchApiResponse.safeParse(answer.json);
      if (!parsed.success)
        return {
          ok: false,
          outcome: failed("command_error", "Brave Search answered a shape Airlock cannot read"),
        };
      return {
        ok: true,
        results: (parsed.data.web?.results ?? []).map((r) => ({
          title: plain(r.title),
          url: r.url,
          description: plain(r.description ?? ""),
        })),
      };
    },
  };
}
