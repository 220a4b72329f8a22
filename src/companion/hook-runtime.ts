// What every agent hook shares: reading stdin with a bound, a watchdog that denies before the agent's own hook
// timeout would let the call through, and stable call ids.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Env, promptTimeoutMs } from "./config.ts";

/** The hook's own deadline: the prompt timeout plus 20 s, always below the installed hook timeout. */
export function hookBudgetMs(env: Env): number {
  const set = Number(env.AIRLOCK_HOOK_TIMEOUT_MS);
  return Number.isFinite(set) && set > 0 ? set : promptTimeoutMs(env) + 20_000;
}

/** Installed hook timeout in seconds: above the hook's own budget, so Airlock (not the agent) decides. */
export function installTimeoutSeconds(env: Env): number {
  return Math.ceil((promptTimeoutMs(env) + 30_000) / 1000);
}

/** Races the work against the watchdog; the watchdog's answer (a deny) wins if the work hangs. */
export async function withWatchdog<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}

/** The agent's id for the call, else a fresh one: two identical calls must never share an answer. */
export function callIdOf(agent: string, toolUseId: string | undefined): string {
  return toolUseId ? `${agent}:${toolUseId}` : `${agent}:${randomUUID()}`;
}

const JsonObject = z.record(z.string(), z.unknown());

export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JsonObject.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
