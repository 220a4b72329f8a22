// When a hosted turn must stop (seed 003 §10.1): its limits, what it has used, and the first limit reached.
// A bound on a turn's spending, not a rule of any call's decision. Pure: no I/O.

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
