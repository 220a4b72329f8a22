// web.search (READ): a query to the configured search provider; results are untrusted (anyone can write
// a page that ranks), so they taint the context like a fetched page.
import { z } from "zod";
import type { ConveyorTool } from "../../conveyor/tool.ts";
import { readOutcome } from "../connector-tool.ts";
import type { SearchProvider } from "./provider.ts";

const Args = z.strictObject({
  query: z.string().trim().min(1).max(400),
  count: z.number().int().min(1).max(20).default(10),
});
type Args = z.infer<typeof Args>;

export function webSearch(provider: SearchProvider): ConveyorTool<Args> {
  return {
    name: "web.search",
    description: `Search the web (${provider.name}); answers titles, URLs and snippets.`,
    schema: Args,
    riskClass: () => "READ",
    external: true,
    idempotentDownstream: true,
    grantCoversHigh: false,
    summary: (a) => ({
      what: "Search the web",
      where: provider.name,
      impact: `None: searches for "${a.query}".`,
    }),
    grantScope: () => "web.search",
    timeoutMs: () => 40_000,
    async execute(a) {
      const found = await provider.search(a.query, a.count);
      if (!found.ok) return found.outcome;
      const text = found.results.length
        ? found.results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}\n   ${r.description}`).join("\n")
        : `No results for "${a.query}".`;
      return readOutcome(
        { provider: provider.name, query: a.query, results: found.results, text },
        `${found.results.length} results`,
      );
    },
  };
}
