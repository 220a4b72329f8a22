// Precognition's switches: every AIRLOCK_PRECOG* variable (PI_PRECOG_* accepted as an alias), read once per use.
import type { Env } from "../cli/config.ts";

export const INJECTION_MODES = ["silent-futures", "verified-futures", "cache-index", "full", "off"] as const;
export type InjectionMode = (typeof INJECTION_MODES)[number];

/** The tool classes a served future can belong to, each with its own cache-invariant delay. */
export type DelayClass = "read" | "grep" | "bash";

export interface PrecogSwitches {
  /** `AIRLOCK_PRECOG=0` (or injection mode `off`): no warming, no serving, no overrides. */
  enabled: boolean;
  /** `_TOOL_CACHE=0`: warm and count, but never serve (observation only). */
  toolCache: boolean;
  /** `_COMMAND_FUTURES=0`: read futures only. */
  commandFutures: boolean;
  /** `_MUTATION_SUPPRESSION=0`: diagnostic classes are warmed even when the text asks for a change. */
  mutationSuppression: boolean;
  /** `_MAX_FILE_BYTES`: larger files are skipped, never truncated (default 24 KB). */
  maxFileBytes: number;
  injectionMode: InjectionMode;
  /** Per-class delay before a hit returns, approximating a cold call (0 disables). */
  delayMs: Record<DelayClass, number>;
  /** Lifetime of futures of unfingerprinted classes (git status, ls, …); capped at 2 s. */
  ttlMs: number;
  /**
   * `_MIN_COLD_MS`: a finished command future is served only when its cold run took at least this long. Serving
   * costs the bash delay plus a Node start for `airlock futures serve`, so a cheap command (git status in a few
   * ms) is faster run than served and is never rewritten. Default: the bash delay + 250 ms.
   */
  minColdMs: number;
}

/** What `airlock futures serve` costs beyond the class delay: a Node start and a control-socket round trip. */
export const SERVE_OVERHEAD_MS = 250;

export const DEFAULT_MAX_FILE_BYTES = 24 * 1024;
export const DEFAULT_DELAY_MS: Readonly<Record<DelayClass, number>> = { read: 5, grep: 80, bash: 750 };
export const MAX_TTL_MS = 2_000;

/** `AIRLOCK_PRECOG_<suffix>` (or `AIRLOCK_PRECOG` for an empty suffix), else its `PI_PRECOG` alias. */
export function precogVariable(env: Env, suffix: string): string | undefined {
  const tail = suffix === "" ? "" : `_${suffix}`;
  const value = env[`AIRLOCK_PRECOG${tail}`] ?? env[`PI_PRECOG${tail}`];
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function flag(env: Env, suffix: string): boolean {
  const v = precogVariable(env, suffix)?.toLowerCase();
  return !(v === "0" || v === "false" || v === "off" || v === "no");
}

/** A non-negative integer, or the fallback when unset or not a number (a bad value never disables a guard). */
function count(env: Env, suffix: string, fallback: number): number {
  const v = precogVariable(env, suffix);
  if (v === undefined || !/^\d+$/.test(v)) return fallback;
  return Number(v);
}

function injectionMode(env: Env): InjectionMode {
  const v = precogVariable(env, "INJECTION_MODE")?.toLowerCase();
  return (INJECTION_MODES as readonly string[]).includes(v ?? "") ? (v as InjectionMode) : "silent-futures";
}

export function readSwitches(env: Env = process.env): PrecogSwitches {
  const mode = injectionMode(env);
  const global = count(env, "CACHE_DELAY_MS", Number.NaN);
  const delay = (cls: DelayClass): number =>
    count(env, `CACHE_DELAY_${cls.toUpperCase()}_MS`, Number.isNaN(global) ? DEFAULT_DELAY_MS[cls] : global);
  const maxFileBytes = count(env, "MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES);
  return {
    enabled: flag(env, "") && mode !== "off",
    toolCache: flag(env, "TOOL_CACHE"),
    commandFutures: flag(env, "COMMAND_FUTURES"),
    mutationSuppression: flag(env, "MUTATION_SUPPRESSION"),
    // 0 would mean "no file fits": keep it, it is a valid (if odd) way to switch read futures off.
    maxFileBytes,
    injectionMode: mode,
    delayMs: { read: delay("read"), grep: delay("grep"), bash: delay("bash") },
    ttlMs: Math.min(MAX_TTL_MS, count(env, "TTL_MS", MAX_TTL_MS)),
    minColdMs: count(env, "MIN_COLD_MS", delay("bash") + SERVE_OVERHEAD_MS),
  };
}
