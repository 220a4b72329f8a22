// The planner contract (seed 003 §12): a model answer becomes a validated PlannerOutput, or the turn fails.
// Invalid output gets one repair retry on the same model, then one attempt on the fallback model, then
// FAILED_MODEL_OUTPUT. Every model call is reported (for spend) and every invalid answer for the audit.

import {
  type ModelMessage,
  PlannerOutput,
  type ProviderMessage,
  STEP_DECLARATION_FIELDS,
} from "../../protocol/planner.ts";
import type { ToolRegistry } from "./../conveyor/registry.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { inlineToolOf, PROPOSE_FUNCTION, proposableTools } from "./model-tools.ts";
import { planProblems, problemText, stepsOfOutput } from "./plan-check.ts";
import type { ModelProvider, ToolSpec } from "./provider.ts";
import { costOf } from "./provider-config.ts";

export type PlanAttempt = "first" | "repair" | "fallback";

/** One model call, whatever came of it: what the turn's spend counts. */
export interface ModelCallRecord {
  model: string;
  attempt: PlanAttempt;
  outcome: "valid" | "invalid" | "unavailable";
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  latencyMs: number;
  problems: string[];
}

/** A validated plan as the checkpoint stores it: the contract's output plus the ids of its calls. */
export interface PlanRecord {
  output: PlannerOutput;
  /** Call ids by position: `tool_calls` first, then `proposed_actions`. */
  callIds: string[];
  model: string;
  attempt: PlanAttempt;
  /**
   * Where the untrusted content in the context the model planned from came from (a URL, "a webhook
   * delivery"), or null: stored with the step, so a resumed step judges its calls by the same context.
   */
  taint?: string | null;
}

export type PlanResult =
  | { ok: true; plan: PlanRecord; calls: ModelCallRecord[] }
  | {
      ok: false;
      code: "FAILED_MODEL_OUTPUT" | "PLAN_INVALID" | "MODEL_UNAVAILABLE";
      message: string;
      retryAfterMs: number | null;
      calls: ModelCallRecord[];
    };

/** `plan`: the answer was well formed but its plan failed validation (src/domain/plan.ts). */
type Normalized =
  | { ok: true; output: PlannerOutput; callIds: string[] }
  | { ok: false; problems: string[]; plan?: boolean };

function parseArgs(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text || "{}");
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : "arguments are not a JSON object";
  } catch {
    return "arguments are not valid JSON";
  }
}

/** A planner JSON object sent as the message text (models without tool calling). */
function fromJsonText(text: string): Normalized | null {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  if (!trimmed.startsWith("{") || !trimmed.includes('"assistant_message"')) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { ok: false, problems: ["the answer looks like planner JSON but does not parse"] };
  }
  const parsed = PlannerOutput.safeParse(value);
  if (!parsed.success)
    return { ok: false, problems: fieldProblems(parsed.error).map((p) => `${p.path}: ${p.message}`) };
  const ids = [
    ...(parsed.data.tool_calls ?? []).map((c) => c.id),
    ...(parsed.data.proposed_actions ?? []).map((_, i) => `pa_${i}`),
  ];
  return { ok: true, output: parsed.data, callIds: ids };
}

/** A provider message (tool calls or JSON text) as the planner contract, or what is wrong with it. */
export function normalize(
  message: ProviderMessage,
  finishReason: string | null,
  registry: ToolRegistry,
): Normalized {
  const content = message.content ?? "";
  const nativeCalls = message.tool_calls ?? [];
  const problems: string[] = [];
  if (finishReason === "length") problems.push("the answer was cut off (finish_reason length)");
  let candidate: Normalized;
  if (nativeCalls.length === 0) {
    candidate = fromJsonText(content) ?? {
      ok: true,
      output: { assistant_message: content },
      callIds: [],
    };
  } else {
    const toolCalls: { id: string; [field: string]: unknown }[] = [];
    const proposed: Record<string, unknown>[] = [];
    const proposedIds: string[] = [];
    for (const [i, call] of nativeCalls.entries()) {
      const id = call.id || `call_${i}`;
      const args = parseArgs(call.function.arguments);
      if (typeof args === "string") {
        problems.push(`${call.function.name}: ${args}`);
        continue;
      }
      const inline = inlineToolOf(call.function.name);
      if (inline) {
        // A read's declaration travels in its function arguments beside the tool's own.
        const declared: Record<string, unknown> = {};
        const rest: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(args))
          if ((STEP_DECLARATION_FIELDS as string[]).includes(k) || k === "identity") declared[k] = v;
          else rest[k] = v;
        toolCalls.push({ id, name: inline, arguments: rest, ...declared });
      } else if (call.function.name === PROPOSE_FUNCTION) {
        proposed.push(args);
        proposedIds.push(id);
      } else problems.push(`no tool named ${call.function.name}`);
    }
    const output = {
      assistant_message: content,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(proposed.length ? { proposed_actions: proposed } : {}),
    };
    const parsed = PlannerOutput.safeParse(output);
    candidate = parsed.success
      ? { ok: true, output: parsed.data, callIds: [...toolCalls.map((c) => c.id), ...proposedIds] }
      : { ok: false, problems: fieldProblems(parsed.error).map((p) => `${p.path}: ${p.message}`) };
  }
  if (!candidate.ok) return { ok: false, problems: [...problems, ...candidate.problems] };
  const { output } = candidate;
  const offered = new Set(proposableTools(registry));
  for (const action of output.proposed_actions ?? [])
    if (!offered.has(action.tool)) problems.push(`propose_action: no tool ${action.tool}`);
  const calls = (output.tool_calls?.length ?? 0) + (output.proposed_actions?.length ?? 0);
  if (calls === 0 && output.assistant_message.trim() === "") problems.push("the answer is empty");
  if (new Set(candidate.callIds).size !== candidate.callIds.length) problems.push("tool call ids repeat");
  if (problems.length) return { ok: false, problems };
  const plan = planProblems(output, registry);
  if (plan.length) {
    const steps = stepsOfOutput(output);
    return { ok: false, plan: true, problems: plan.map((p) => problemText(p, steps)) };
  }
  return candidate;
}

/** The invalid answer, as text for the repair prompt (its tool calls cannot be replayed without results). */
function echo(message: ProviderMessage): string {
  const calls = (message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
  const text = [message.content ?? "", ...calls.map((c) => `[tool call] ${c}`)].join("\n").trim();
  return (text || "(empty)").slice(0, 4000);
}

const repairPrompt = (problems: string[]) =>
  `Your previous answer could not be used: ${problems.join("; ")}. Answer again: call ${"web_fetch"} or ${PROPOSE_FUNCTION} with valid JSON object arguments, each declaring risk_level (low, medium or high, never below the step's real risk), requires_confirmation, verification_plan and description, or give a final message with no tool calls.`;

export class Planner {
  private readonly provider: ModelProvider;
  private readonly registry: ToolRegistry;
  private readonly tools: ToolSpec[];

  constructor(provider: ModelProvider, registry: ToolRegistry, tools: ToolSpec[]) {
    this.provider = provider;
    this.registry = registry;
    this.tools = tools;
  }

  async plan(
    messages: ModelMessage[],
    onDelta?: (attempt: number, text: string) => void,
  ): Promise<PlanResult> {
    const calls: ModelCallRecord[] = [];
    const config = this.provider.config;
    const call = async (
      attempt: PlanAttempt,
      convo: ModelMessage[],
      startAt: number,
      only: boolean,
    ): Promise<
      | { kind: "valid"; plan: PlanRecord; index: number }
      | { kind: "invalid"; problems: string[]; plan: boolean; message: ProviderMessage; index: number }
      | { kind: "unavailable"; message: string; retryAfterMs: number | null }
    > => {
      const n = calls.length;
      const done = await this.provider.complete({
        messages: convo,
        tools: this.tools,
        startAt,
        only,
        ...(onDelta ? { onDelta: (text: string) => onDelta(n, text) } : {}),
      });
      if (!done.ok) {
        calls.push({
          model: config.models[startAt] ?? "?",
          attempt,
          outcome: "unavailable",
          tokensIn: 0,
          tokensOut: 0,
          costUsd: 0,
          latencyMs: done.latencyMs,
          problems: done.attempts.map((a) => `${a.model}: ${a.outcome}`),
        });
        return { kind: "unavailable", message: done.message, retryAfterMs: done.retryAfterMs };
      }
      const normalized = normalize(done.message, done.finishReason, this.registry);
      calls.push({
        model: done.model,
        attempt,
        outcome: normalized.ok ? "valid" : "invalid",
        tokensIn: done.tokensIn,
        tokensOut: done.tokensOut,
        costUsd: costOf(config, done.model, done.tokensIn, done.tokensOut),
        latencyMs: done.latencyMs,
        problems: normalized.ok ? [] : normalized.problems,
      });
      if (normalized.ok)
        return {
          kind: "valid",
          plan: { output: normalized.output, callIds: normalized.callIds, model: done.model, attempt },
          index: done.modelIndex,
        };
      return {
        kind: "invalid",
        problems: normalized.problems,
        plan: normalized.plan === true,
        message: done.message,
        index: done.modelIndex,
      };
    };

    const first = await call("first", messages, 0, false);
    if (first.kind === "valid") return { ok: true, plan: first.plan, calls };
    if (first.kind === "unavailable")
      return {
        ok: false,
        code: "MODEL_UNAVAILABLE",
        message: first.message,
        retryAfterMs: first.retryAfterMs,
        calls,
      };

    const repaired = await call(
      "repair",
      [
        ...messages,
        { role: "assistant", content: echo(first.message) },
        { role: "user", content: repairPrompt(first.problems) },
      ],
      first.index,
      true,
    );
    if (repaired.kind === "valid") return { ok: true, plan: repaired.plan, calls };

    let last = repaired;
    if (first.index + 1 < config.models.length) {
      const fallback = await call("fallback", messages, first.index + 1, true);
      if (fallback.kind === "valid") return { ok: true, plan: fallback.plan, calls };
      last = fallback;
    }
    const problems = calls.flatMap((c) => c.problems.map((p) => `${c.model} (${c.attempt}): ${p}`));
    // The last answer was well formed but its plan failed validation: the turn stops before any step.
    if (last.kind === "invalid" && last.plan)
      return {
        ok: false,
        code: "PLAN_INVALID",
        message:
          `The model's plan failed validation after a repair retry and the fallback model: ${problems.slice(-6).join("; ")}`.slice(
            0,
            1000,
          ),
        retryAfterMs: null,
        calls,
      };
    return {
      ok: false,
      code: "FAILED_MODEL_OUTPUT",
      message:
        `The model's answer could not be used after a repair retry and the fallback model: ${problems.slice(0, 6).join("; ")}`.slice(
          0,
          1000,
        ),
      retryAfterMs: null,
      calls,
    };
  }
}
