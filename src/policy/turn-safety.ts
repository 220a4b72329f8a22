// What a hosted turn may do with a call the model asked for, and when a turn must stop (seed 003 §8,
// §10.1). The runtime asks these; it never decides on its own. Pure: no I/O.
import type { RiskClass } from "./risk-class.ts";

export interface TurnCallInput {
  /** The tool's risk class for these arguments (from the conveyor's registry). */
  riskClass: RiskClass;
  /** The effect leaves Airlock (a third party, a machine); internal tools (notify, memory) do not. */
  external: boolean;
  /**
   * What untrusted content (a web page, a webhook body, mail, an untrusted tool's output) sits in the
   * context the model planned from, or was read earlier in this step: its source, as the person would
   * recognise it ("https://…", "a webhook delivery"). Null when the context is clean.
   */
  taint: string | null;
  /** A job (no person watching) rather than a chat reply. */
  background: boolean;
}

export type TurnEffect =
  /** A read: runs inside the turn (still through emergency controls and the SSRF guard). */
  | { mode: "inline" }
  /**
   * Anything else is proposed to the conveyor. `personOnly` says why no saved grant or policy allow may
   * run it: then a person approves it, and the executor (not the turn) runs it.
   */
  | { mode: "propose"; personOnly: string | undefined };

/**
 * Seed 003 §8: external writes are proposals; a background job cannot execute an external write itself
 * (rule 2); while untrusted content is in the model's context — this turn's or an earlier turn's of the
 * thread — no external write runs on its authority (rule 5): grants stand in for the person in neither case.
 */
export function turnEffect(input: TurnCallInput): TurnEffect {
  if (input.riskClass === "READ") return { mode: "inline" };
  if (!input.external) return { mode: "propose", personOnly: undefined };
  if (input.taint !== null) return { mode: "propose", personOnly: taintReason(input.taint) };
  if (input.background)
    return { mode: "propose", personOnly: "background jobs only propose external writes" };
  return { mode: "propose", personOnly: undefined };
}

/** What the card says when tainted context is why a person must decide. */
export function taintReason(source: string): string {
  return `this thread read ${source} earlier, and that content is still in the model's context`;
}

/** One message of the model's context window, as far as taint goes. */
export interface ContextEntry {
  untrusted: boolean;
  /** Where the content came from, shown to the person: a URL, "a webhook delivery", a tool's name. */
  source: string;
}

/**
 * The taint of a context window: the source of its earliest untrusted message, or null. Taint belongs to
 * the context, not the turn: it lasts exactly as long as the content is in the window the model is sent.
 */
export function contextTaint(window: readonly ContextEntry[]): string | null {
  return window.find((e) => e.untrusted)?.source ?? null;
}

export interface TurnLimits {
  max_tool_steps: number;
  max_tool_tokens: number;
  max_context_messages: number;
  max_wall_clock_s: number;
  max_tokens: number;
  max_cost_usd: number;
}

export interface TurnUsage {
  /** Tool steps already taken (planner rounds that called tools). */
  steps: number;
  tool_tokens: number;
  tokens: number;
  cost_usd: number;
  wall_clock_ms: number;
  /** Messages the next planner call would be sent. */
  context_messages: number;
}

export type TurnBound = keyof TurnLimits;

/**
 * Checked before every planner call: the first limit reached, or null. A turn that reached one stops with
 * BUDGET_EXCEEDED naming it; nothing runs after.
 */
export function reachedBound(usage: TurnUsage, limits: TurnLimits): TurnBound | null {
  if (usage.steps >= limits.max_tool_steps) return "max_tool_steps";
  if (usage.tool_tokens >= limits.max_tool_tokens) return "max_tool_tokens";
  if (usage.context_messages > limits.max_context_messages) return "max_context_messages";
  if (usage.wall_clock_ms >= limits.max_wall_clock_s * 1000) return "max_wall_clock_s";
  if (usage.tokens >= limits.max_tokens) return "max_tokens";
  if (usage.cost_usd >= limits.max_cost_usd && limits.max_cost_usd > 0) return "max_cost_usd";
  return null;
}

/** Tokens a text is counted as against `max_tool_tokens` (the usual four characters a token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
