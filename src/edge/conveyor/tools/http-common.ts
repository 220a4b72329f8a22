// Shared by web.fetch and http.request: URL and header schemas, and turning a guard refusal into a failure.
import { z } from "zod";
import type { EgressRefusal } from "../egress/guard.ts";
import { failed, type ToolOutcome } from "../tool.ts";

export const HttpUrl = z
  .string()
  .max(4096)
  .refine((u) => /^https?:\/\//i.test(u), "must be an http:// or https:// URL");

/** Credentials never travel in proposal args (they would be stored and shown): such headers are refused. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|x-auth-token|api-key)$/i;
const HOP_HEADER =
  /^(host|connection|content-length|transfer-encoding|te|upgrade|keep-alive|idempotency-key)$/i;

export const HeaderMap = z
  .record(
    z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, "not a header name"),
    z
      .string()
      .max(4096)
      .regex(/^[^\r\n\0]*$/, "no line breaks in header values"),
  )
  .refine((h) => Object.keys(h).length <= 30, "at most 30 headers")
  .refine(
    (h) => !Object.keys(h).some((n) => CREDENTIAL_HEADER.test(n)),
    "credential headers are not allowed in args",
  )
  .refine((h) => !Object.keys(h).some((n) => HOP_HEADER.test(n)), "the conveyor sets this header itself");

export function refusalOutcome(refusal: EgressRefusal): ToolOutcome {
  switch (refusal.kind) {
    case "blocked":
      return failed("permission_denied", `refused by the SSRF guard: ${refusal.reason}`);
    case "unavailable":
      return failed("tool_unavailable", refusal.reason);
    case "timeout":
      return failed("timeout", `no complete answer from ${refusal.url} in time`);
    case "too_large":
      return failed("command_error", refusal.reason);
    case "protocol":
      return failed("command_error", refusal.reason);
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Host and path, never the query (it often carries keys): the part of a URL a grant is keyed by. */
export function hostPathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

/** A short, safe rendering of a URL for summaries: no query string (it often carries keys). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
  } catch {
    return url.slice(0, 200);
  }
}
