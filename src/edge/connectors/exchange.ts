// One API request with the connectors' error rules, for any credential (a connection's token, a search
// key): 401 → the credential's one refresh, then retry; 403 for a scope → which scope; 404; 429 → wait as
// Retry-After says (bounded); 5xx or a lost answer → a bounded retry for reads only. A write is never
// repeated once it may have reached the provider: its 5xx or lost answer is PARTIAL.
import { failed, type ToolOutcome } from "../conveyor/tool.ts";
import { type ProviderProblem, providerProblem } from "./provider-errors.ts";

/** At most this many waits on 429 (or a rate-limit 403) per request. */
export const MAX_RATE_LIMIT_RETRIES = 2;
/** A Retry-After longer than this is not waited out inside a run: the run fails and says when to retry. */
export const MAX_RETRY_AFTER_MS = 10_000;
/** Reads only: waits before each retry after a 5xx or a lost answer. */
export const READ_RETRY_WAITS_MS = [250, 1_000] as const;

export interface ApiRequest {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  json?: unknown;
  headers?: Record<string, string>;
  /** A read: safe to repeat after a 5xx or a lost answer. Writes never are. */
  read: boolean;
  /** The scopes this request needs, when not the session's (named if the provider answers 403 for a scope). */
  scopes?: readonly string[];
  timeoutMs: number;
}

export type ApiAnswer =
  | { ok: true; status: number; text: string; json: unknown; headers: Headers }
  | { ok: false; outcome: ToolOutcome; status?: number; problem?: ProviderProblem };

export interface Credential {
  /** The provider as a person names it ("Google"). */
  title: string;
  kind: "google" | "github" | "brave";
  headers(): Record<string, string>;
  /** After a 401: refresh once; false when it cannot (then the answer is `refused()`). */
  refresh(): Promise<boolean>;
  refused(): ToolOutcome;
  /** The scope error for this credential (what to grant): `scopes` when the request named its own. */
  missingScope(scopes?: readonly string[]): ToolOutcome;
  used(): Promise<void>;
  sleep(ms: number): Promise<void>;
}

export async function exchange(cred: Credential, req: ApiRequest): Promise<ApiAnswer> {
  let rateWaits = 0;
  let readRetries = 0;
  let refreshed = false;
  for (;;) {
    let res: Response;
    try {
      res = await fetch(req.url, {
        method: req.method,
        headers: {
          accept: "application/json",
          ...cred.headers(),
          ...jsonHeader(req),
          ...(req.headers ?? {}),
        },
        ...(req.json === undefined ? {} : { body: JSON.stringify(req.json) }),
        redirect: "manual",
        signal: AbortSignal.timeout(req.timeoutMs),
      });
    } catch (error) {
      const why = error instanceof Error && error.name === "TimeoutError" ? "no answer in time" : "no answer";
      if (req.read && readRetries < READ_RETRY_WAITS_MS.length) {
        await cred.sleep(READ_RETRY_WAITS_MS[readRetries++] ?? 1_000);
        continue;
      }
      return { ok: false, outcome: lost(cred, req, why) };
    }
    const text = await res.text();
    if (res.ok) {
      await cred.used();
      return { ok: true, status: res.status, text, json: parseJson(text), headers: res.headers };
    }
    const problem = providerProblem(cred.kind, res.status, res.headers, text);
    const fail = (outcome: ToolOutcome): ApiAnswer => ({ ok: false, outcome, status: res.status, problem });
    switch (problem.kind) {
      case "unauthorized":
        if (refreshed || !(await cred.refresh())) return fail(cred.refused());
        refreshed = true;
        continue;
      case "scope":
        return fail(cred.missingScope(req.scopes));
      case "rate_limited": {
        const wait = problem.retryAfterMs ?? 1_000;
        if (rateWaits >= MAX_RATE_LIMIT_RETRIES || wait > MAX_RETRY_AFTER_MS) {
          const asked =
            problem.retryAfterMs === undefined ? "" : `; it asks to wait ${Math.ceil(wait / 1000)} s`;
          return fail(
            failed("tool_unavailable", `${cred.title} is rate limiting these calls${asked}.`, {
              remediation: "Try again later (a new run).",
            }),
          );
        }
        rateWaits++;
        await cred.sleep(wait);
        continue;
      }
      case "server":
        if (req.read && readRetries < READ_RETRY_WAITS_MS.length) {
          await cred.sleep(READ_RETRY_WAITS_MS[readRetries++] ?? 1_000);
          continue;
        }
        if (!req.read) return fail(lost(cred, req, `HTTP ${res.status}`));
        return fail(
          failed("tool_unavailable", `${cred.title} answered HTTP ${res.status}: ${problem.message}`),
        );
      case "not_found":
        return fail(
          failed("command_error", `Not found at ${cred.title} (HTTP ${res.status}): ${problem.message}`),
        );
      case "forbidden":
        return fail(failed("permission_denied", `${cred.title} answered HTTP 403: ${problem.message}`));
      case "other":
        return fail(failed("command_error", `${cred.title} answered HTTP ${res.status}: ${problem.message}`));
    }
  }
}

const jsonHeader = (req: ApiRequest): Record<string, string> =>
  req.json === undefined ? {} : { "content-type": "application/json" };

/** A write whose answer never came (or came as 5xx) may have happened: PARTIAL, never repeated. */
function lost(cred: Credential, req: ApiRequest, why: string): ToolOutcome {
  if (req.read) return failed("tool_unavailable", `${cred.title} gave ${why}.`);
  return {
    status: "partial",
    failure: {
      class: "partial_execution",
      message: `${req.method} to ${cred.title} was sent but got ${why}; it may or may not have taken effect`,
      remediation:
        "Check by hand. It is not sent again on its own; a retry is a new proposal (a new approval).",
    },
    verification: { outcome: "failed", detail: why },
  };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
