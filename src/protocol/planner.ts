// The model's side of the runtime: the planner output contract (seed 003 §12) and the OpenAI-compatible
// chat-completions shapes it arrives in. Everything here is parsed from untrusted model output.
import { z } from "zod";

const JsonObject = z.record(z.string(), z.unknown());

/** Seed 003 §12: what one planner round answers. `tool_calls` run (reads); `proposed_actions` are proposals. */
export const PlannerOutput = z.strictObject({
  assistant_message: z.string().max(32_000),
  tool_calls: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(100),
        name: z.string().min(1).max(100),
        arguments: JsonObject,
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
      }),
    )
    .max(8)
    .optional(),
});
export type PlannerOutput = z.infer<typeof PlannerOutput>;

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
