// ApiError and the one place that turns any failure into the JSON error envelope.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { redactText } from "../policy/redact.ts";
import type { ErrorCode, ErrorEnvelope } from "../protocol/errors.ts";
import type { AppEnv } from "./env.ts";

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const unauthenticated = (message = "Sign in: send a valid bearer token or session cookie.") =>
  new ApiError(401, "unauthenticated", message, {
    headers: { "WWW-Authenticate": 'Bearer realm="airlock"' },
  });
export const forbidden = (message: string) => new ApiError(403, "forbidden", message);
export const notFound = (message: string) => new ApiError(404, "not_found", message);
export const conflict = (message: string, details?: unknown) =>
  new ApiError(409, "conflict", message, { details });
export const rateLimited = (retryAfterSeconds: number, message: string) =>
  new ApiError(429, "rate_limited", message, {
    headers: { "Retry-After": String(Math.ceil(retryAfterSeconds)) },
  });

export function envelope(code: ErrorCode, message: string, details?: unknown): ErrorEnvelope {
  return details === undefined ? { error: { code, message } } : { error: { code, message, details } };
}

const statusCodes: Partial<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(envelope(error.code, error.message, error.details), error.status);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code = statusCodes[error.status] ?? "bad_request";
    return c.json(envelope(code, error.message || code), error.status as ContentfulStatusCode);
  }
  const requestId = c.get("requestId");
  // The stack goes to the log, tied to the request id and redacted; the client gets only the id.
  logFailure(`unhandled error request_id=${requestId}`, error);
  return c.json(
    envelope("internal", `Unexpected failure. Quote request id ${requestId} when reporting it.`, {
      request_id: requestId,
    }),
    500,
  );
}

/** Logs a failure with secrets masked: messages can quote input (JSON.parse does), and logs are kept. */
export function logFailure(where: string, error: unknown): void {
  const text =
    error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
  console.error(`[airlock] ${redactText(where)}: ${redactText(text)}`);
}
