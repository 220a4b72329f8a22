// A job's task and budgets: shared by jobs, schedules and webhook actions (docs/runtime.md).
import { z } from "zod";

/** Limits of one turn (a job is one turn; each chat message starts one). Defaults in docs/runtime.md. */
export const Budgets = z.strictObject({
  /** Planner rounds that call tools; the turn stops when it would start one more. */
  max_tool_steps: z.number().int().min(1).max(50).default(8),
  /** Estimated tokens (characters / 4) of tool results the turn may add to its context. */
  max_tool_tokens: z.number().int().min(100).max(500_000).default(24_000),
  /** Messages the model may be sent at once (system prompt and history included). */
  max_context_messages: z.number().int().min(4).max(400).default(60),
  /** Seconds the turn may spend working (model calls and tools; not waiting for a person). */
  max_wall_clock_s: z.number().int().min(5).max(3600).default(300),
  /** Model tokens, prompt and completion, over every call of the turn. */
  max_tokens: z.number().int().min(1000).max(5_000_000).default(200_000),
  /** Estimated model spend in US dollars, from the configured prices (AIRLOCK_MODEL_PRICES). */
  max_cost_usd: z.number().min(0).max(1000).default(1),
});
export type Budgets = z.infer<typeof Budgets>;
export const BudgetsInput = Budgets.partial();
export type BudgetsInput = z.infer<typeof BudgetsInput>;

/** What a job does: instructions for the planner, and its budgets. Also a schedule's and a hook's task. */
export const Task = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  instructions: z.string().trim().min(1).max(8000),
  budgets: BudgetsInput.optional(),
});
export type Task = z.infer<typeof Task>;
