// HTTP calls to the Airlock API: same origin by default, or VITE_AIRLOCK_API (build time) for a Pages deployment
// on another origin. The session lives only in the httpOnly cookie; no token is ever kept in script.
import { z } from "zod";
import { ErrorEnvelope } from "../../src/protocol/errors.ts";

const configured: unknown = import.meta.env.VITE_AIRLOCK_API;
/** "" means same origin. */
export const apiBase = typeof configured === "string" ? configured.replace(/\/+$/, "") : "";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The websocket URL of the hub, on the API's host. */
export function socketUrl(): string {
  const origin = apiBase || location.origin;
  return `${origin.replace(/^http/, "ws")}/v1/connect?role=dashboard`;
}

/** Calls the API and parses the answer with `schema`; any non-2xx becomes an ApiError with the envelope's message. */
export async function api<T>(
  path: string,
  schema: z.ZodType<T>,
  init: { method?: "GET" | "POST"; body?: unknown } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiBase}${path}`, {
      method: init.method ?? "GET",
      credentials: apiBase ? "include" : "same-origin",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, "network", "Airlock is unreachable. Check the connection.");
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const envelope = ErrorEnvelope.safeParse(body);
    if (envelope.success)
      throw new ApiError(res.status, envelope.data.error.code, envelope.data.error.message);
    throw new ApiError(res.status, "http", `Airlock answered ${res.status}.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(res.status, "bad_response", `Unexpected answer from ${path}.`);
  return parsed.data;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong.";
}

const DeviceListShape = z.object({ devices: z.array(z.unknown()) });

/** Whether this browser's session cookie is still good: a 401 from GET /v1/devices means not paired. */
export async function isPaired(): Promise<boolean> {
  try {
    await api("/v1/devices", DeviceListShape);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}
