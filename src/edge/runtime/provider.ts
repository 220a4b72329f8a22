// The OpenAI-compatible provider client: chat completions with tool calling (plain or streamed), a time
// limit per call, retries with exponential backoff and full jitter on 429/5xx/timeouts, and the fallback
// model chain. It moves bytes; what the model said is judged by the planner.

import { redactText } from "../../policy/redact.ts";
import {
  ChatCompletion,
  ChatCompletionChunk,
  type ModelMessage,
  type ProviderMessage,
} from "../../protocol/planner.ts";
import type { ProviderConfig } from "./provider-config.ts";
import { readSse } from "./sse.ts";

export interface ToolSpec {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface CompletionRequest {
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** Where in the chain to start: 0 the primary, 1 its fallback, … */
  startAt?: number;
  /** Only this one model (the planner's single fallback attempt); no chain after it. */
  only?: boolean;
  /** Streams the reply's text as it arrives (chat turns). */
  onDelta?: (text: string) => void;
}

export interface Attempt {
  model: string;
  outcome: string;
}

export type Completion =
  | {
      ok: true;
      model: string;
      modelIndex: number;
      message: ProviderMessage;
      finishReason: string | null;
      tokensIn: number;
      tokensOut: number;
      latencyMs: number;
      attempts: Attempt[];
    }
  | {
      ok: false;
      /** Every model failed; `retryAfterMs` when the provider asked for a longer pause than a call waits. */
      code: "MODEL_UNAVAILABLE" | "MODEL_REJECTED";
      message: string;
      retryAfterMs: number | null;
      attempts: Attempt[];
      latencyMs: number;
    };

export interface ProviderDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

type Outcome =
  | { kind: "ok"; message: ProviderMessage; finishReason: string | null; tokensIn: number; tokensOut: number }
  | { kind: "retry"; why: string; retryAfterMs: number | null }
  /** This model will not answer (400, 404, 422: unknown model, tools unsupported): try the next. */
  | { kind: "next"; why: string }
  /** Nothing will (401, 403: the key): stop. */
  | { kind: "stop"; why: string };

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529]);

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Full jitter: a random wait up to base × 2^attempt (capped), never less than the server asked. */
export function backoffMs(
  attempt: number,
  config: Pick<ProviderConfig, "retryBaseMs" | "retryMaxMs">,
  random: () => number,
  serverAsked: number | null,
): number {
  const ceiling = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** attempt);
  return Math.max(serverAsked ?? 0, Math.floor(random() * ceiling));
}

export class ModelProvider {
  readonly config: ProviderConfig;
  private readonly fetcher: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(config: ProviderConfig, deps: ProviderDeps = {}) {
    this.config = config;
    this.fetcher = deps.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = deps.random ?? Math.random;
    this.now = deps.now ?? Date.now;
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    const started = this.now();
    const attempts: Attempt[] = [];
    const first = req.startAt ?? 0;
    const last = req.only ? first : this.config.models.length - 1;
    let longestAsk: number | null = null;
    for (let index = first; index <= last; index++) {
      const model = this.config.models[index];
      if (!model) break;
      for (let retry = 0; ; retry++) {
        const outcome = await this.once(model, req);
        attempts.push({ model, outcome: outcome.kind === "ok" ? "ok" : outcome.why });
        if (outcome.kind === "ok") {
          return {
            ok: true,
            model,
            modelIndex: index,
            message: outcome.message,
            finishReason: outcome.finishReason,
            tokensIn: outcome.tokensIn,
            tokensOut: outcome.tokensOut,
            latencyMs: this.now() - started,
            attempts,
          };
        }
        if (outcome.kind === "stop") {
          return {
            ok: false,
            code: "MODEL_REJECTED",
            message: `The model provider refused the request (${outcome.why}); check AIRLOCK_MODEL_API_KEY.`,
            retryAfterMs: null,
            attempts,
            latencyMs: this.now() - started,
          };
        }
        if (outcome.kind === "next") break;
        const asked = outcome.retryAfterMs;
        // A pause longer than one call may wait is the workflow's to take (a durable sleep), not ours.
        if (asked !== null && asked > this.config.retryMaxMs) {
          longestAsk = Math.max(longestAsk ?? 0, asked);
          break;
        }
        if (retry >= this.config.maxRetries) break;
        await this.sleep(backoffMs(retry, this.config, this.random, asked));
      }
    }
    return {
      ok: false,
      code: "MODEL_UNAVAILABLE",
      message: `No model answered (${attempts.map((a) => `${a.model}: ${a.outcome}`).join("; ")}).`,
      retryAfterMs: longestAsk,
      attempts,
      latencyMs: this.now() - started,
    };
  }

  private async once(model: string, req: CompletionRequest): Promise<Outcome> {
    const stream = req.onDelta !== undefined;
    const body = {
      model,
      messages: req.messages,
      ...(req.tools.length ? { tools: req.tools, tool_choice: "auto" } : {}),
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    };
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    const signal = AbortSignal.timeout(this.config.timeoutMs);
    let res: Response;
    try {
      res = await this.fetcher(`${this.config.baseUrl}/chat/completions`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      return {
        kind: "retry",
        why: signal.aborted ? "timeout" : `network: ${errorText(error)}`,
        retryAfterMs: null,
      };
    }
    if (!res.ok) {
      await res.body?.cancel();
      const why = `HTTP ${res.status}`;
      if (res.status === 401 || res.status === 403) return { kind: "stop", why };
      if (RETRYABLE.has(res.status))
        return { kind: "retry", why, retryAfterMs: retryAfterMs(res.headers.get("retry-after"), this.now()) };
      return { kind: "next", why };
    }
    try {
      return stream ? await this.readStream(res, req.onDelta) : await this.readJson(res);
    } catch (error) {
      return {
        kind: "retry",
        why: signal.aborted ? "timeout" : `bad response: ${errorText(error)}`,
        retryAfterMs: null,
      };
    }
  }

  private async readJson(res: Response): Promise<Outcome> {
    const parsed = ChatCompletion.safeParse(await res.json());
    if (!parsed.success) return { kind: "retry", why: "not a chat completion", retryAfterMs: null };
    const choice = parsed.data.choices[0];
    if (!choice) return { kind: "retry", why: "no choices", retryAfterMs: null };
    return {
      kind: "ok",
      message: choice.message,
      finishReason: choice.finish_reason ?? null,
      tokensIn: parsed.data.usage?.prompt_tokens ?? 0,
      tokensOut: parsed.data.usage?.completion_tokens ?? 0,
    };
  }

  private async readStream(res: Response, onDelta: ((text: string) => void) | undefined): Promise<Outcome> {
    let content = "";
    const calls: { id: string; name: string; arguments: string }[] = [];
    let finishReason: string | null = null;
    let tokensIn = 0;
    let tokensOut = 0;
    let sawChunk = false;
    for await (const data of readSse(res)) {
      if (data === "[DONE]") break;
      const chunk = ChatCompletionChunk.safeParse(JSON.parse(data));
      if (!chunk.success) continue;
      sawChunk = true;
      if (chunk.data.usage) {
        tokensIn = chunk.data.usage.prompt_tokens ?? tokensIn;
        tokensOut = chunk.data.usage.completion_tokens ?? tokensOut;
      }
      for (const choice of chunk.data.choices) {
        finishReason = choice.finish_reason ?? finishReason;
        const text = choice.delta?.content;
        if (text) {
          content += text;
          onDelta?.(text);
        }
        for (const d of choice.delta?.tool_calls ?? []) {
          const call = calls[d.index] ?? { id: "", name: "", arguments: "" };
          calls[d.index] = call;
          if (d.id) call.id = d.id;
          if (d.function?.name) call.name += d.function.name;
          if (d.function?.arguments) call.arguments += d.function.arguments;
        }
      }
    }
    if (!sawChunk) return { kind: "retry", why: "empty stream", retryAfterMs: null };
    const toolCalls = calls
      .filter((c) => c !== undefined)
      .map((c) => ({
        id: c.id,
        type: "function" as const,
        function: { name: c.name, arguments: c.arguments },
      }));
    return {
      kind: "ok",
      message: {
        role: "assistant",
        content: content || null,
        tool_calls: toolCalls.length ? toolCalls : null,
      },
      finishReason,
      tokensIn,
      tokensOut,
    };
  }
}

/** Error text for audit and logs: provider errors can echo the request, so secrets are masked. */
function errorText(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error)).slice(0, 200);
}
