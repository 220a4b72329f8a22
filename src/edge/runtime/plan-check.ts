// The hosted planner's steps checked against the plan validation contract (terminal safety spec §6,
// `validatePlan` in src/domain/plan.ts): each call the model asks for is a step, classed by the conveyor's
// own registry (a tool's `riskClass` of its validated arguments). Used by the planner (a plan that fails is
// repaired, or the turn stops before any step) and by `POST /v1/plans/validate`.
import { type PlanOptions, type PlanProblem, validatePlan } from "../../domain/plan.ts";
import type { PlannerOutput } from "../../protocol/planner.ts";
import type { ToolRegistry } from "../conveyor/registry.ts";
import { fieldProblems } from "../middleware/validate.ts";

export function hostedPlanOptions(registry: ToolRegistry): PlanOptions {
  return {
    registry: [...registry.keys()],
    classOf: (name, input) => {
      const tool = registry.get(name);
      if (!tool) return { problem: `no tool ${name}` };
      const parsed = tool.schema.safeParse(input ?? {});
      if (!parsed.success) {
        const why = fieldProblems(parsed.error)
          .map((p) => `${p.path}: ${p.message}`)
          .join("; ");
        return { problem: `input is not valid for ${name}: ${why}` };
      }
      return { riskClass: tool.riskClass(parsed.data) };
    },
  };
}

/** A planner round's calls as plan steps, in call order (reads first, then proposals). */
export function stepsOfOutput(output: PlannerOutput): Record<string, unknown>[] {
  const declared = (c: Record<string, unknown>) => ({
    risk_level: c.risk_level,
    requires_confirmation: c.requires_confirmation,
    verification_plan: c.verification_plan,
    description: c.description,
  });
  return [
    ...(output.tool_calls ?? []).map((c) => ({ tool: c.name, input: c.arguments, ...declared(c) })),
    ...(output.proposed_actions ?? []).map((a) => ({ tool: a.tool, input: a.args, ...declared(a) })),
  ];
}

/** Every reason the round's plan is not acceptable, or none. An answer without calls has no plan. */
export function planProblems(output: PlannerOutput, registry: ToolRegistry): PlanProblem[] {
  const steps = stepsOfOutput(output);
  if (steps.length === 0) return [];
  return validatePlan(steps, hostedPlanOptions(registry)).problems;
}

export function problemText(p: PlanProblem, steps: readonly Record<string, unknown>[]): string {
  const tool = steps[p.step]?.tool;
  return `step ${p.step}${typeof tool === "string" ? ` (${tool})` : ""}${p.field ? ` ${p.field}` : ""}: ${p.reason}`;
}
