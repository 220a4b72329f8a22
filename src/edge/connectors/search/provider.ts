// What web.search needs from a search engine: one query in, ranked results (title, URL, snippet) out.
import type { ToolOutcome } from "../../conveyor/tool.ts";

export interface SearchResult {
  title: string;
  url: string;
  description: string;
}

export interface SearchProvider {
  /** Shown on cards and results ("Brave Search"). */
  name: string;
  search(
    query: string,
    count: number,
  ): Promise<{ ok: true; results: SearchResult[] } | { ok: false; outcome: ToolOutcome }>;
}
