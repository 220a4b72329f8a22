// HTTP calls to the Airlock API on the dashboard's own origin (the Worker, or a Pages Function forwarding /v1/*).
// The session lives only in the httpOnly cookie; no token is ever kept in script. A 403 `step_up_required` runs the
// passkey step-up (loaded on demand, plugged in by main.tsx) and retries the call once with the fresh assertion's token.
// Every answer is parsed before use: with a schema, or with one picked from the lazily loaded validators (how the
// first view's code names its shapes, so zod stays out of the first view).
import type { z } from "zod";
import { loadValidators, type Validators } from "./load-validators.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Header that carries a passkey step-up token to a guarded route. */
export const STEP_UP_HEADER = "X-Airlock-Step-Up";

/** The websocket URL of the hub, on this origin. */
export function socketUrl(): string {
  return `${location.origin.replace(/^http/, "ws")}/v1/connect?role=approver`;
}

export interface ApiInit {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
  /** Set by the step-up retry so a second refusal is not retried again. */
  stepUpDone?: boolean;
}

/** Runs the passkey step-up (or the recovery code where no passkey works) and answers its single-use token. */
export type StepUp = () => Promise<string>;

/**
 * The step-up a refused call runs, plugged in by the entry (main.tsx) rather than imported here: the step-up
 * (passkeys.ts and its recovery sheet) calls the API itself, so an import from here would close a cycle. Unset, a
 * `step_up_required` refusal is thrown as it is, like a second refusal after a step-up.
 */
let stepUp: StepUp | null = null;

export function provideStepUp(run: StepUp): void {
  stepUp = run;
}

async function request(path: string, init: ApiInit): Promise<Response> {
  try {
    return await fetch(path, {
      method: init.method ?? "GET",
      credentials: "same-origin",
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, "network", "Airlock is unreachable. Check the connection.");
  }
}

/** A schema, or how to pick one from the validators (`(v) => v.ResolvedList`), which are then loaded first. */
export type AnswerSchema<T> = z.ZodType<T> | ((validators: Validators) => z.ZodType<T>);

async function validators(): Promise<Validators> {
  try {
    return await loadValidators();
  } catch {
    throw new ApiError(0, "network", "Airlock is unreachable. Check the connection.");
  }
}

/** Calls the API and parses the answer with `schema`; any non-2xx becomes an ApiError with the envelope's message. */
export async function api<T>(path: string, schema: AnswerSchema<T>, init: ApiInit = {}): Promise<T> {
  const res = await request(path, init);
  const body: unknown = res.status === 204 ? {} : await res.json().catch(() => null);
  if (!res.ok) {
    const envelope = (await validators()).ErrorEnvelope.safeParse(body);
    const error = envelope.success
      ? new ApiError(
          res.status,
          envelope.data.error.code,
          envelope.data.error.message,
          envelope.data.error.details,
        )
      : new ApiError(res.status, "http", `Airlock answered ${res.status}.`);
    if (error.code === "step_up_required" && stepUp && !init.stepUpDone) {
      const token = await stepUp();
      return api(path, schema, {
        ...init,
        stepUpDone: true,
        headers: { ...init.headers, [STEP_UP_HEADER]: token },
      });
    }
    throw error;
  }
  const parsed = (typeof schema === "function" ? schema(await validators()) : schema).safeParse(body);
  if (!parsed.success) throw new ApiError(res.status, "bad_response", `Unexpected answer from ${path}.`);
  return parsed.data;
}

/** The raw text of a GET (NDJSON export, policy text) with the same error handling. */
export async function apiText(path: string): Promise<string> {
  const res = await request(path, {});
  if (!res.ok) throw new ApiError(res.status, "http", `Airlock answered ${res.status}.`);
  return res.text();
}

/** A route the server does not have (404 `not_found` for the path itself): the feature is not enabled there. */
export function isNotEnabled(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && /^No route /.test(error.message);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong.";
}
