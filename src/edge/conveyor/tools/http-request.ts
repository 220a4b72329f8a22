// http.request (WRITE, EXFILTRATION with a body, DESTRUCTIVE for DELETE): always a proposal; sent once
// through the SSRF guard with the run's Idempotency-Key, redirects not followed.
import { z } from "zod";
import type { RiskClass } from "../../../policy/risk-class.ts";
import { type ConveyorTool, failed } from "../tool.ts";
import { HeaderMap, HttpUrl, hostOf, hostPathOf, refusalOutcome, shownUrl } from "./http-common.ts";

const Args = z
  .strictObject({
    method: z.enum(["POST", "PUT", "PATCH", "DELETE"]),
    url: HttpUrl,
    headers: HeaderMap.optional(),
    /** A JSON value (sent as application/json) or text. */
    json: z.unknown().optional(),
    text: z
      .string()
      .max(64 * 1024)
      .optional(),
    timeout_ms: z.number().int().min(100).max(30_000).default(15_000),
  })
  .refine((a) => a.json === undefined || a.text === undefined, "send json or text, not both");
type Args = z.infer<typeof Args>;

const MAX_RESPONSE_BYTES = 256 * 1024;

function bodyOf(a: Args): { bytes: Uint8Array; type: string } | undefined {
  if (a.json !== undefined)
    return { bytes: new TextEncoder().encode(JSON.stringify(a.json)), type: "application/json" };
  if (a.text !== undefined)
    return { bytes: new TextEncoder().encode(a.text), type: "text/plain; charset=utf-8" };
  return undefined;
}

export const httpRequest: ConveyorTool<Args> = {
  name: "http.request",
  description: "Send one HTTP write (POST, PUT, PATCH, DELETE) to a public URL, with an Idempotency-Key.",
  schema: Args,
  riskClass(a): RiskClass {
    if (a.method === "DELETE") return "DESTRUCTIVE";
    return a.json !== undefined || a.text !== undefined ? "EXFILTRATION" : "WRITE";
  },
  external: true,
  // Not every target honours Idempotency-Key: a possible send is never repeated on its own (the person
  // may declare a host idempotent).
  idempotentDownstream: false,
  grantCoversHigh: false,
  summary(a) {
    const body = bodyOf(a);
    return {
      what: `HTTP ${a.method} ${shownUrl(a.url)}`,
      where: hostOf(a.url),
      impact:
        a.method === "DELETE"
          ? `Deletes the resource at ${shownUrl(a.url)}.`
          : body
            ? `Sends ${body.bytes.byteLength} bytes (${body.type.split(";")[0]}) to ${hostOf(a.url)}.`
            : `Changes state at ${hostOf(a.url)}.`,
    };
  },
  // Method, host and path: "always" on one endpoint never covers another path of the same host.
  grantScope: (a) => `${a.method} ${hostPathOf(a.url)}`,
  target: (a) => hostOf(a.url),
  timeoutMs: (a) => a.timeout_ms,
  async execute(a, ctx) {
    const body = bodyOf(a);
    const headers: [string, string][] = [
      ...Object.entries(a.headers ?? {}),
      ["Idempotency-Key", ctx.idempotencyKey],
      ...(body ? ([["Content-Type", body.type]] as [string, string][]) : []),
    ];
    const result = await ctx.egress.request({
      url: a.url,
      method: a.method,
      headers,
      ...(body ? { body: body.bytes } : {}),
      followRedirects: false,
      maxBytes: MAX_RESPONSE_BYTES,
      timeoutMs: a.timeout_ms,
    });
    if (!result.ok) {
      // Once bytes may have left, a timeout is not "nothing happened": the run is partial.
      if (result.kind === "timeout") {
        return {
          status: "partial",
          failure: {
            class: "partial_execution",
            message: `${a.method} ${shownUrl(a.url)} was sent but no complete answer came back in time`,
            remediation:
              "Check the target for the change. Sending it again, or an undo, is a new proposal (a new approval).",
          },
          verification: { outcome: "failed", detail: "no response to verify" },
        };
      }
      return refusalOutcome(result);
    }
    const { response } = result;
    const text = new TextDecoder().decode(response.body);
    const summary = {
      status: response.status,
      bytes: response.body.byteLength,
      body: text.slice(0, 4096),
      untrusted: true,
    };
    if (response.status >= 200 && response.status < 300) {
      return {
        status: "executed",
        result: summary,
        verification: { outcome: "passed", detail: `HTTP ${response.status}` },
      };
    }
    return failed("command_error", `the target answered HTTP ${response.status}`, { result: summary });
  },
};
