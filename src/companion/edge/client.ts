// The companion's HTTP client for the edge's REST API: every answer parsed with the shared zod schemas.
import { z } from "zod";
import { LocalDecisionEvent } from "../../protocol/audit.ts";
import type { FuturesStats } from "../../protocol/futures.ts";
import {
  BindResponse,
  DecisionPending,
  type DecisionRequest,
  DecisionResponse,
  Device,
  ErrorEnvelope,
  GrantRuleEntry,
  GrantRuleList,
  HookView,
  HookWithSecret,
  PairingCode,
  ParityToken,
  ResolvedPrompt,
} from "../../protocol/index.ts";
import type { Credentials } from "./credentials.ts";

/** Why an edge call failed, in words a person can act on; `kind` drives fail-closed decisions. */
export class EdgeError extends Error {
  readonly kind: "unreachable" | "unauthenticated" | "http" | "invalid";
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** The edge's own message (the error envelope's), without Airlock's framing. */
  readonly detail: string;
  constructor(kind: EdgeError["kind"], message: string, status?: number, code?: string, detail?: string) {
    super(message);
    this.name = "EdgeError";
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.detail = detail ?? message;
  }
}

/** What a person can do about an unreachable edge: the URL was named already, so say how to point elsewhere. */
export const UNREACHABLE_HINT =
  "Is the edge running there? To use another one, pass --server URL or set AIRLOCK_SERVER=URL (npm run dev prints its URL)";

/**
 * An edge error as a person at a terminal reads it: an unreachable edge also gets the hint. (A model reads the bare
 * message in a deny: it cannot act on a --server.)
 */
export function messageForPerson(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof EdgeError && error.kind === "unreachable"
    ? `${message}. ${UNREACHABLE_HINT}`
    : message;
}

/** A local decision the companion reports to the edge's audit (POST /v1/audit/events): the shared wire schema. */
export const AuditEvent = LocalDecisionEvent;
export type AuditEvent = LocalDecisionEvent;

/** A saved agent-call grant as a matcher rule (GET /v1/grants/rules; the shared wire schema). */
export const Grant = GrantRuleEntry;
export type Grant = GrantRuleEntry;
const DeviceList = z.object({ devices: z.array(Device) });

export type DecisionAnswer =
  | { state: "decided"; response: DecisionResponse }
  | { state: "pending"; promptId: string };

interface RequestOptions {
  method?: string;
  body?: unknown;
  token?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

async function call(
  base: string,
  path: string,
  options: RequestOptions,
): Promise<{ status: number; body: unknown }> {
  const signals = [AbortSignal.timeout(options.timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    const why =
      error instanceof Error && error.name === "TimeoutError"
        ? `did not answer within ${options.timeoutMs} ms`
        : "could not be reached";
    throw new EdgeError("unreachable", `the Airlock edge at ${base} ${why}`);
  }
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new EdgeError(
        "invalid",
        `the edge at ${base} answered ${path} with non-JSON (HTTP ${res.status})`,
        res.status,
      );
    }
  }
  if (res.status >= 400) {
    const envelope = ErrorEnvelope.safeParse(body);
    const code = envelope.success ? envelope.data.error.code : undefined;
    const message = envelope.success ? envelope.data.error.message : `HTTP ${res.status}`;
    if (res.status === 401) {
      throw new EdgeError(
        "unauthenticated",
        `the edge rejected this device's token (${message.replace(/\.$/, "")}); it may be revoked: pair again with "airlock pair <code>"`,
        401,
        code,
        message,
      );
    }
    throw new EdgeError("http", `${options.method ?? "GET"} ${path}: ${message}`, res.status, code, message);
  }
  return { status: res.status, body };
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new EdgeError("invalid", `the edge's answer to ${what} did not match the contract`);
  return parsed.data;
}

export class EdgeClient {
  readonly server: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;

  constructor(server: string, token: string | undefined, timeoutMs = 5_000) {
    this.server = server.replace(/\/+$/, "");
    this.#token = token;
    this.#timeoutMs = timeoutMs;
  }

  static fromCredentials(credentials: Credentials, timeoutMs?: number): EdgeClient {
    return new EdgeClient(credentials.server, credentials.token, timeoutMs);
  }

  async bind(code: string, deviceName: string): Promise<BindResponse> {
    const { body } = await call(this.server, "/v1/pairing/bind", {
      method: "POST",
      body: { code, device_name: deviceName, kind: "companion" },
      timeoutMs: this.#timeoutMs,
    });
    return parse(BindResponse, body, "POST /v1/pairing/bind");
  }

  /** POST /v1/pairing/code: a single-use code for another device of `role` (approvers only, per the role model). */
  async pairingCode(role: "companion" | "approver"): Promise<PairingCode> {
    const { body } = await call(this.server, "/v1/pairing/code", {
      method: "POST",
      body: { role },
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(PairingCode, body, "POST /v1/pairing/code");
  }

  /** POST /v1/recovery/pairing-code: a code minted with the recovery code, for when no approver is at hand. */
  async recoveryPairingCode(recoveryCode: string, role: "companion" | "approver"): Promise<PairingCode> {
    const { body } = await call(this.server, "/v1/recovery/pairing-code", {
      method: "POST",
      body: { recovery_code: recoveryCode, role },
      timeoutMs: this.#timeoutMs,
    });
    return parse(PairingCode, body, "POST /v1/recovery/pairing-code");
  }

  /** POST /v1/parity/token (approver) or /v1/recovery/parity-token: a read-only token for `npm run parity`. */
  async parityToken(ttlMinutes: number, recoveryCode?: string): Promise<ParityToken> {
    const path = recoveryCode ? "/v1/recovery/parity-token" : "/v1/parity/token";
    const { body } = await call(this.server, path, {
      method: "POST",
      body: recoveryCode
        ? { recovery_code: recoveryCode, ttl_minutes: ttlMinutes }
        : { ttl_minutes: ttlMinutes },
      ...(recoveryCode ? {} : { token: this.#token }),
      timeoutMs: this.#timeoutMs,
    });
    return parse(ParityToken, body, `POST ${path}`);
  }

  async health(): Promise<{ healthz: unknown; version: unknown }> {
    const healthz = await call(this.server, "/healthz", { timeoutMs: this.#timeoutMs });
    const version = await call(this.server, "/v1/version", { timeoutMs: this.#timeoutMs }).catch(() => ({
      body: null,
    }));
    return { healthz: healthz.body, version: version.body };
  }

  async devices(): Promise<Device[]> {
    const { body } = await call(this.server, "/v1/devices", {
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(DeviceList, body, "GET /v1/devices").devices;
  }

  /**
   * POST /v1/decisions. With `wait` the edge holds the request until a person decides (or the prompt times
   * out), so `waitMs` bounds it; without, a pending call answers 202 at once.
   */
  async decide(
    request: DecisionRequest,
    options: { wait: boolean; waitMs: number; signal?: AbortSignal },
  ): Promise<DecisionAnswer> {
    const { status, body } = await call(this.server, `/v1/decisions${options.wait ? "" : "?wait=false"}`, {
      method: "POST",
      body: request,
      token: this.#token,
      timeoutMs: options.wait ? options.waitMs : this.#timeoutMs,
      signal: options.signal,
    });
    if (status === 202)
      return { state: "pending", promptId: parse(DecisionPending, body, "POST /v1/decisions").prompt_id };
    return { state: "decided", response: parse(DecisionResponse, body, "POST /v1/decisions") };
  }

  /** GET /v1/decisions/{call_id}: decided, pending, or null when the edge never saw the call. */
  async decision(callId: string): Promise<DecisionAnswer | null> {
    try {
      const { status, body } = await call(this.server, `/v1/decisions/${encodeURIComponent(callId)}`, {
        token: this.#token,
        timeoutMs: this.#timeoutMs,
      });
      if (status === 202) {
        const pending = DecisionPending.partial().safeParse(body);
        return { state: "pending", promptId: (pending.success && pending.data.prompt_id) || "" };
      }
      return { state: "decided", response: parse(DecisionResponse, body, "GET /v1/decisions/{call_id}") };
    } catch (error) {
      if (error instanceof EdgeError && error.status === 404) return null;
      throw error;
    }
  }

  async postAudit(events: AuditEvent[]): Promise<void> {
    await call(this.server, "/v1/audit/events", {
      method: "POST",
      body: { events },
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
  }

  async postFuturesStats(stats: FuturesStats): Promise<void> {
    await call(this.server, "/v1/futures/stats", {
      method: "POST",
      body: stats,
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
  }

  async grants(): Promise<Grant[]> {
    // The bare rules: listing grants (who saved them, when) is the person's, not this device's.
    const { body } = await call(this.server, "/v1/grants/rules", {
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(GrantRuleList, body, "GET /v1/grants/rules").grants;
  }

  /** The account policy (YAML) the edge enforces; the daemon mirrors it so local decisions honour it. */
  async accountPolicy(): Promise<string> {
    const { body } = await call(this.server, "/v1/settings/policy", {
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    // No account policy yet is `null`: the same as an empty one.
    return parse(z.object({ policy: z.string().nullable() }), body, "GET /v1/settings/policy").policy ?? "";
  }

  /** Recently resolved prompts (newest first), to learn which scope a person chose. */
  async resolvedApprovals(limit = 50): Promise<ResolvedPrompt[]> {
    const { body } = await call(this.server, `/v1/approvals?status=resolved&limit=${limit}`, {
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(z.object({ approvals: z.array(ResolvedPrompt) }), body, "GET /v1/approvals").approvals;
  }

  async hooks(): Promise<HookView[]> {
    const { body } = await call(this.server, "/v1/hooks", { token: this.#token, timeoutMs: this.#timeoutMs });
    return parse(z.object({ hooks: z.array(HookView) }), body, "GET /v1/hooks").hooks;
  }

  async createHook(request: { name: string; action?: unknown }): Promise<HookWithSecret> {
    const { body } = await call(this.server, "/v1/hooks", {
      method: "POST",
      body: request,
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(HookWithSecret, body, "POST /v1/hooks");
  }

  async rotateHook(id: string, graceSeconds: number): Promise<HookWithSecret> {
    const { body } = await call(this.server, `/v1/hooks/${encodeURIComponent(id)}/rotate`, {
      method: "POST",
      body: { grace_seconds: graceSeconds },
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return parse(HookWithSecret, body, "POST /v1/hooks/{id}/rotate");
  }

  async deleteHook(id: string): Promise<void> {
    await call(this.server, `/v1/hooks/${encodeURIComponent(id)}`, {
      method: "DELETE",
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
  }

  /** The caller stopped waiting for this call: the edge denies it as abandoned and drops it from its prompt. */
  async withdraw(callId: string, timeoutMs = this.#timeoutMs): Promise<void> {
    await call(this.server, `/v1/decisions/${encodeURIComponent(callId)}/withdraw`, {
      method: "POST",
      token: this.#token,
      timeoutMs,
    });
  }

  /** Any JSON route with this device's token: the caller parses the answer against its contract. */
  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const answer = await call(this.server, path, {
      method,
      ...(body === undefined ? {} : { body }),
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
    return answer.body;
  }

  async endSession(sessionId: string): Promise<void> {
    await call(this.server, `/v1/sessions/${encodeURIComponent(sessionId)}/end`, {
      method: "POST",
      token: this.#token,
      timeoutMs: this.#timeoutMs,
    });
  }
}
