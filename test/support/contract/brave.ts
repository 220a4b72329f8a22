// Brave Search's web endpoint as the contract server plays it: GET /res/v1/web/search?q=&count= with the
// key in X-Subscription-Token, answering the WebSearchApiResponse shape (type, query, web.results).
import { braveError } from "./errors.ts";
import type { Answer, Incoming } from "./state.ts";

export const BRAVE_TEST_KEY = "brave-test-key-0123456789abcdef";

export function brave(req: Incoming): Answer {
  if (req.headers["x-subscription-token"] !== BRAVE_TEST_KEY) return braveError(401);
  if (req.method !== "GET" || req.url.pathname !== "/res/v1/web/search") return braveError(404);
  const q = req.url.searchParams.get("q") ?? "";
  if (!q) return braveError(422);
  const count = Math.min(20, Number(req.url.searchParams.get("count") ?? "20"));
  const slug = encodeURIComponent(q.toLowerCase().replace(/\s+/g, "-"));
  const results = Array.from({ length: Math.min(count, 3) }, (_, i) => ({
    type: "search_result",
    title: `${q} — result ${i + 1}`,
    url: `https://example.com/${slug}/${i + 1}`,
    description: `All about <strong>${q}</strong>, part ${i + 1}.`,
    language: "en",
    family_friendly: true,
  }));
  return {
    status: 200,
    body: {
      type: "search",
      query: { original: q },
      mixed: { type: "mixed", main: [] },
      web: { type: "search", results },
    },
  };
}
