// What a provider's error answer means, read from its published error shapes: Google's
// `{"error":{"code","message","status","errors":[{reason}],"details":[{reason}]}}`, GitHub's
// `{"message","documentation_url"}` with its scope and rate-limit headers, Brave's `{"error":{"code","detail"}}`.
import { z } from "zod";
import type { ConnectorProvider } from "./port.ts";

export type ProviderProblem =
  | { kind: "unauthorized"; message: string }
  | { kind: "scope"; message: string }
  | { kind: "rate_limited"; message: string; retryAfterMs: number | undefined }
  | { kind: "not_found"; message: string }
  | { kind: "forbidden"; message: string }
  | { kind: "server"; message: string }
  | { kind: "other"; message: string };

const GoogleError = z.object({
  error: z.object({
    message: z.string().optional(),
    status: z.string().optional(),
    errors: z.array(z.object({ reason: z.string().optional() })).optional(),
    details: z.array(z.object({ reason: z.string().optional() }).loose()).optional(),
  }),
});
const GitHubError = z.object({ message: z.string() });
const BraveError = z.object({
  error: z.object({ code: z.string().optional(), detail: z.string().optional() }),
});

const GOOGLE_SCOPE_REASONS = new Set(["insufficientPermissions", "ACCESS_TOKEN_SCOPE_INSUFFICIENT"]);
const GOOGLE_RATE_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED"]);

/** Retry-After as seconds or an HTTP date; GitHub's x-ratelimit-reset (epoch seconds) when the budget is spent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (value) {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get("x-ratelimit-reset");
  if (headers.get("x-ratelimit-remaining") === "0" && reset && /^\d+$/.test(reset))
    return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

function parsed<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const r = schema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** Provider text is short and shown to a person: cut, single line. */
const shortText = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 300);

export function providerProblem(
  provider: ConnectorProvider | "brave",
  status: number,
  headers: Headers,
  text: string,
): ProviderProblem {
  const google = provider === "google" ? parsed(GoogleError, text) : undefined;
  const github = provider === "github" ? parsed(GitHubError, text) : undefined;
  const brave = provider === "brave" ? parsed(BraveError, text) : undefined;
  const message = shortText(
    google?.error.message ?? github?.message ?? brave?.error.detail ?? (text || `HTTP ${status}`),
  );
  if (status === 401) return { kind: "unauthorized", message };
  if (status === 429) return { kind: "rate_limited", message, retryAfterMs: retryAfterMs(headers) };
  if (status === 403) {
    if (google) {
      const reasons = [
        ...(google.error.errors ?? []).map((e) => e.reason),
        ...(google.error.details ?? []).map((d) => d.reason),
      ];
      if (reasons.some((r) => r && GOOGLE_SCOPE_REASONS.has(r))) return { kind: "scope", message };
      if (reasons.some((r) => r && GOOGLE_RATE_REASONS.has(r)))
        return { kind: "rate_limited", message, retryAfterMs: retryAfterMs(headers) };
    }
    if (/insufficient_scope/i.test(headers.get("www-authenticate") ?? "")) return { kind: "scope", message };
    if (provider === "github") {
      if (headers.get("x-ratelimit-remaining") === "0" || /rate limit/i.test(message))
        return { kind: "rate_limited", message, retryAfterMs: retryAfterMs(headers) };
      const accepted = scopeList(headers.get("x-accepted-oauth-scopes"));
      const granted = scopeList(headers.get("x-oauth-scopes"));
      if (accepted.length > 0 && !accepted.some((s) => granted.includes(s)))
        return { kind: "scope", message };
    }
    return { kind: "forbidden", message };
  }
  if (status === 404 || status === 410) return { kind: "not_found", message };
  if (status >= 500) return { kind: "server", message };
  return { kind: "other", message };
}

function scopeList(header: string | null): string[] {
  return (header ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
