// The model's side of the runtime: the planner output contract (seed 003 §12) and the OpenAI-compatible
// chat-completions shapes it arrives in. Everything here is parsed from untrusted model output.
import { z } from "zod";

const JsonObject = z.record(z.string(), z.unknown());

/**
 * What every planned step declares before it runs (terminal safety spec §3, §6): its risk, whether it
 * needs the person's confirmation, how success will be checked, and what it does. The tool is the step's
 * own `name`/`tool`. Declared risk may not be below the computed one (`validatePlan` in src/domain/plan.ts).
 */
export const StepDeclaration = {
  risk_level: z.enum(["low", "medium", "high"]),
  requires_confirmation: z.boolean(),
  verification_plan: z.string().trim().min(1).max(1000),
  description: z.string().trim().min(1).max(1000),
};
export const STEP_DECLARATION_FIELDS = Object.keys(StepDeclaration) as (keyof typeof StepDeclaration)[];

/** Seed 003 §12: what one planner round answers. `tool_calls` run (reads); `proposed_actions` are proposals. */
export const PlannerOutput = z.strictObject({
  assistant_message: z.string().max(32_000),
  tool_calls: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(100),
        name: z.string().min(1).max(100),
        arguments: JsonObject,
        /** A connector read's identity (whose mailbox, whose calendar); absent: Airlock's bot. */
        identity: z.enum(["user", "bot"]).optional(),
        ...StepDeclaration,
      }),
    )
    .max(16)
    .optional(),
  proposed_actions: z
    .array(
      z.strictObject({
        tool: z.string().min(1).max(100),
        identity: z.enum(["user", "bot"]).nullable(),
        args: JsonObject,
        justification: z.string().trim().min(1).max(1000),
        ...StepDeclaration,
      }),
    )
    .max(8)
    .optional(),
});
export type PlannerOutput = z.infer<typeof PlannerOutput>;

/** One step of a plan sent to `POST /v1/plans/validate`: a registry tool, its input, and its declaration. */
export const PlanStep = z.object({
  tool: z.unknown(),
  input: z.unknown().optional(),
  risk_level: z.unknown().optional(),
  requires_confirmation: z.unknown().optional(),
  verification_plan: z.unknown().optional(),
  description: z.unknown().optional(),
});
/** The body is parsed loosely on purpose: every missing or wrong field is one actionable reason in the 400. */
export const ValidatePlanRequest = z.object({ steps: z.array(PlanStep).max(50) });
export const PlanProblem = z.object({
  step: z.number().int(),
  field: z.string().optional(),
  reason: z.string(),
});
export const ValidatedPlan = z.object({
  plan: z.object({
    /** The highest risk class of any step: its policy covers the whole run. */
    category: z.enum(["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"]),
    steps: z.array(
      z.object({
        tool: z.string(),
        input: z.record(z.string(), z.unknown()),
        risk_class: z.enum(["READ", "WRITE", "EXFILTRATION", "DESTRUCTIVE", "HIGH"]),
        ...StepDeclaration,
      }),
    ),
  }),
});
export type ValidatedPlan = z.infer<typeof ValidatedPlan>;

// ---- OpenAI-compatible chat completions (what the provider answers) ----

export const ProviderToolCall = z.object({
  id: z.string().max(200),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string().max(200), arguments: z.string().max(256_000) }),
});
export type ProviderToolCall = z.infer<typeof ProviderToolCall>;

export const ProviderMessage = z.object({
  role: z.literal("assistant").optional(),
  content: z.string().max(256_000).nullable().optional(),
  tool_calls: z.array(ProviderToolCall).max(64).nullable().optional(),
});
export type ProviderMessage = z.infer<typeof ProviderMessage>;

export const ProviderUsage = z.object({
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
});

export const ChatCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: ProviderMessage, finish_reason: z.string().nullable().optional() }))
    .min(1),
  usage: ProviderUsage.nullable().optional(),
});

export const ChatCompletionChunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullable().optional(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().min(0).max(63),
                  id: z.string().max(200).optional(),
                  function: z
                    .object({ name: z.string().max(200).optional(), arguments: z.string().optional() })
                    .optional(),
                }),
              )
              .nullable()
              .optional(),
          })
          .optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .default([]),
  usage: ProviderUsage.nullable().optional(),
});

/** A message sent to the model (OpenAI chat format). */
export type ModelMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ProviderToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };
