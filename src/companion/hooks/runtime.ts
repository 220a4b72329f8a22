// What every agent hook shares: reading stdin with a bound, a watchdog that denies before the agent's own hook
// timeout would let the call through, and stable call ids.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { type Env, hookBudgetMs } from "../cli/config.ts";

export { hookBudgetMs, installTimeoutSeconds } from "../cli/config.ts";

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

/**
 * The text as a JSON object, or undefined. Only the shape is checked here (no zod pass that copies every key): each
 * caller parses the object with its own schema next, so that is the one validation on the hot path.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** How one agent's hook answers: its input schema, its handler, and its two ways of saying no. */
export interface HookContract<Input, Result> {
  schema: z.ZodType<Input>;
  handle: (input: Input, env: Env) => Promise<Result>;
  /** The answer when stdin is not even a JSON object. */
  notAnObject: (reason: string) => Result;
  /** A deny in the shape the agent expects for this event (or a blocking error when the event is unknown). */
  deny: (event: string | undefined, reason: string) => Result;
}

/** Never throws and never leaves a meant deny unsaid: every failure path denies with its reason. */
export async function runGuardedHook<Input, Result>(
  contract: HookContract<Input, Result>,
  stdin: string,
  env: Env,
): Promise<Result> {
  const raw = parseJsonObject(stdin);
  if (!raw) return contract.notAnObject("Airlock denied this call: the hook input is not a JSON object");
  const event = typeof raw.hook_event_name === "string" ? raw.hook_event_name : undefined;
  const parsed = contract.schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why = issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "invalid";
    return contract.deny(event, `Airlock denied this call: malformed hook input (${why})`);
  }
  const budget = hookBudgetMs(env);
  try {
    return await withWatchdog(contract.handle(parsed.data, env), budget, () =>
      contract.deny(event, `Airlock denied this call: no decision within ${Math.round(budget / 1000)} s`),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return contract.deny(event, `Airlock denied this call because the hook failed: ${message}`);
  }
}
