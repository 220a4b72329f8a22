// web.fetch (READ): an SSRF-guarded GET; the text that comes back is labelled untrusted.
import { z } from "zod";
import type { ConveyorTool } from "../tool.ts";
import { HeaderMap, HttpUrl, hostOf, refusalOutcome, shownUrl } from "./http-common.ts";

export const WEB_FETCH_MAX_BYTES = 512 * 1024;

const Args = z.strictObject({
  url: HttpUrl,
  headers: HeaderMap.optional(),
  max_bytes: z
    .number()
    .int()
    .min(1)
    .max(WEB_FETCH_MAX_BYTES)
    .default(256 * 1024),
  timeout_ms: z.number().int().min(100).max(30_000).default(10_000),
});
type Args = z.infer<typeof Args>;

export const webFetch: ConveyorTool<Args> = {
  name: "web.fetch",
  description: "GET a public http(s) page (SSRF-guarded, at most 3 redirects, size and time capped).",
  schema: Args,
  riskClass: () => "READ",
  external: true,
  idempotentDownstream: true,
  grantCoversHigh: false,
  summary: (a) => ({ what: "Read a web page", where: shownUrl(a.url), impact: "None: a read-only GET." }),
  grantScope: (a) => hostOf(a.url),
  timeoutMs: (a) => a.timeout_ms,
  async execute(a, ctx) {
    const result = await ctx.egress.request({
      url: a.url,
      method: "GET",
      headers: Object.entries(a.headers ?? {}),
      followRedirects: true,
      maxBytes: a.max_bytes,
      timeoutMs: a.timeout_ms,
    });
    if (!result.ok) return refusalOutcome(result);
    const { response } = result;
    const contentType = response.headers.find(([n]) => n === "content-type")?.[1] ?? "";
    const ok = response.status >= 200 && response.status < 300;
    return {
      status: "executed",
      result: {
        status: response.status,
        url: result.finalUrl,
        redirects: result.redirects,
        content_type: contentType,
        bytes: response.body.byteLength,
        // Web content is untrusted input: whoever reads it (a planner, a person) is told so.
        untrusted: true,
        text: new TextDecoder().decode(response.body),
      },
      verification: {
        outcome: ok ? "passed" : "failed",
        detail: `HTTP ${response.status}, ${response.body.byteLength} bytes`,
      },
    };
  },
};
