// The model provider's configuration, from Worker variables and the AIRLOCK_MODEL_API_KEY secret.
import { z } from "zod";

export interface ProviderConfig {
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 (…/chat/completions is appended). */
  baseUrl: string;
  apiKey: string | undefined;
  /** The chain: the first is the primary, each next one the fallback of the one before. */
  models: string[];
  timeoutMs: number;
  /** Retries per model on 429, 5xx, timeouts and network errors, before the chain moves on. */
  maxRetries: number;
  retryBaseMs: number;
  /** Longest in-call wait between retries; a longer Retry-After hands the wait to a durable sleep. */
  retryMaxMs: number;
  /** USD per million tokens, prompt and completion, by model (for the money estimate). */
  prices: Record<string, { input: number; output: number }>;
}

export type ProviderConfigResult = { ok: true; config: ProviderConfig } | { ok: false; message: string };

const Prices = z.string().transform((text, ctx) => {
  const out: Record<string, { input: number; output: number }> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([^=\s]+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(part);
    if (!m?.[1] || !m[2] || !m[3]) {
      ctx.addIssue({ code: "custom", message: `"${part}" is not model=input/output` });
      return z.NEVER;
    }
    out[m[1]] = { input: Number(m[2]), output: Number(m[3]) };
  }
  return out;
});

const positive = (fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(z.number().int().min(0).max(max));

/** Loopback is allowed over plain http (a local model server); anything else must be https. */
function baseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "AIRLOCK_MODEL_BASE_URL is not a URL";
  }
  if (url.username || url.password) return "AIRLOCK_MODEL_BASE_URL must not carry credentials";
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback))
    return "AIRLOCK_MODEL_BASE_URL must be https:// (plain http only on loopback)";
  return null;
}

/** The Worker variables (and secret) the provider reads. */
export interface ProviderEnv {
  AIRLOCK_MODEL_BASE_URL?: string;
  AIRLOCK_MODEL_MODELS?: string;
  AIRLOCK_MODEL_TIMEOUT_MS?: string;
  AIRLOCK_MODEL_MAX_RETRIES?: string;
  AIRLOCK_MODEL_RETRY_BASE_MS?: string;
  AIRLOCK_MODEL_PRICES?: string;
  AIRLOCK_MODEL_API_KEY?: string | undefined;
}

export function providerConfig(env: ProviderEnv): ProviderConfigResult {
  const baseUrl = (env.AIRLOCK_MODEL_BASE_URL ?? "").trim().replace(/\/+$/, "");
  const models = (env.AIRLOCK_MODEL_MODELS ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (!baseUrl || models.length === 0)
    return {
      ok: false,
      message: "No model provider: set AIRLOCK_MODEL_BASE_URL and AIRLOCK_MODEL_MODELS (docs/runtime.md).",
    };
  const problem = baseUrlProblem(baseUrl);
  if (problem) return { ok: false, message: problem };
  const parsed = z
    .object({
      timeoutMs: positive(60_000, 600_000),
      maxRetries: positive(3, 10),
      retryBaseMs: positive(500, 8_000),
      prices: Prices,
    })
    .safeParse({
      timeoutMs: env.AIRLOCK_MODEL_TIMEOUT_MS,
      maxRetries: env.AIRLOCK_MODEL_MAX_RETRIES,
      retryBaseMs: env.AIRLOCK_MODEL_RETRY_BASE_MS,
      prices: env.AIRLOCK_MODEL_PRICES ?? "",
    });
  if (!parsed.success)
    return { ok: false, message: `Model settings: ${parsed.error.issues.map((i) => i.message).join("; ")}` };
  return {
    ok: true,
    config: {
      baseUrl,
      apiKey: env.AIRLOCK_MODEL_API_KEY || undefined,
      models,
      timeoutMs: parsed.data.timeoutMs || 60_000,
      maxRetries: parsed.data.maxRetries,
      retryBaseMs: parsed.data.retryBaseMs,
      retryMaxMs: 8_000,
      prices: parsed.data.prices,
    },
  };
}

/** Estimated USD of one call. Models without a configured price cost 0 (the money cap then cannot bind). */
export function costOf(config: ProviderConfig, model: string, tokensIn: number, tokensOut: number): number {
  const price = config.prices[model];
  if (!price) return 0;
  return (tokensIn * price.input + tokensOut * price.output) / 1_000_000;
}
