// The providers' published error bodies and headers, one builder per provider, used for real answers and
// for faults a test injects (401, 403 scope, 404, 429 with Retry-After, 5xx).
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ALREADY_EXISTS",
  410: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Google APIs' `{"error":{code,message,errors,status}}`; `kind` picks the variant of a status. */
export function googleError(status: number, kind?: "scope" | "rate" | "duplicate" | "deleted"): ErrorAnswer {
  const headers: Record<string, string> = {};
  let message = "Error";
  let reason = "backendError";
  const details: unknown[] = [];
  if (status === 401) {
    message =
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.";
    reason = "authError";
    headers["www-authenticate"] = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
  } else if (status === 403 && kind === "scope") {
    message = "Request had insufficient authentication scopes.";
    reason = "insufficientPermissions";
    headers["www-authenticate"] = 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"';
    details.push({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      domain: "googleapis.com",
    });
  } else if (status === 403) {
    message = "The caller does not have permission";
    reason = "forbidden";
  } else if (status === 404) {
    message = "Requested entity was not found.";
    reason = "notFound";
  } else if (status === 409) {
    message = "The requested identifier already exists.";
    reason = "duplicate";
  } else if (status === 410) {
    message = "Resource has been deleted";
    reason = "deleted";
  } else if (status === 429 || kind === "rate") {
    message = "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user'.";
    reason = "rateLimitExceeded";
  } else if (status >= 500) {
    message = "The service is currently unavailable.";
    reason = "backendError";
  }
  return {
    status,
    headers,
    body: {
      error: {
        code: status,
        message,
        errors: [{ message, domain: "global", reason }],
        status: GOOGLE_STATUS[status] ?? "UNKNOWN",
        ...(details.length ? { details } : {}),
      },
    },
  };
}

/** GitHub REST's `{"message","documentation_url","status"}` with its scope and rate-limit headers. */
export function githubError(status: number, kind?: "scope" | "rate"): ErrorAnswer {
  const doc = "https://docs.github.com/rest";
  const headers: Record<string, string> = {};
  let message = "Error";
  if (status === 401) message = "Bad credentials";
  else if (status === 403 && kind === "scope") {
    message = "Resource not accessible by personal access token";
    headers["x-accepted-oauth-scopes"] = "repo";
    headers["x-oauth-scopes"] = "read:user";
  } else if ((status === 403 || status === 429) && kind !== "scope") {
    message =
      status === 403 && kind !== "rate"
        ? "Must have admin rights to Repository."
        : "API rate limit exceeded for user.";
    if (status === 429 || kind === "rate") headers["x-ratelimit-remaining"] = "0";
  } else if (status === 404) message = "Not Found";
  else if (status === 405) message = "Pull Request is not mergeable";
  else if (status === 409) message = "Head branch was modified. Review and try the merge again.";
  else if (status === 422) message = "Validation Failed";
  else if (status >= 500) message = "Server Error";
  return { status, headers, body: { message, documentation_url: doc, status: String(status) } };
}

/** Brave Search's `{"type":"ErrorResponse","error":{id,status,code,detail}}`. */
export function braveError(status: number): ErrorAnswer {
  const code =
    status === 401
      ? "SUBSCRIPTION_TOKEN_INVALID"
      : status === 429
        ? "RATE_LIMITED"
        : status === 422
          ? "VALIDATION"
          : "INTERNAL_ERROR";
  const detail =
    status === 401
      ? "The provided subscription token is invalid."
      : status === 429
        ? "Request rate limit exceeded for plan."
        : "Something went wrong.";
  return {
    status,
    headers: {},
    body: {
      type: "ErrorResponse",
      error: { id: crypto.randomUUID(), status, code, detail },
      time: Date.now(),
    },
  };
}
