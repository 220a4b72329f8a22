// Plan validation as a service (terminal safety spec §6): a hosted plan's steps checked against the
// contract and the conveyor's registry without running anything. 400 `plan_invalid` lists every actionable
// reason; 200 answers the normalized plan (each step's computed risk class, the run's category).

import { z } from "zod";
import { validatePlan } from "../../domain/plan.ts";
import { StepDeclaration, ValidatedPlan, ValidatePlanRequest } from "../../protocol/planner.ts";
import { toolRegistry } from "../conveyor/registry.ts";
import { ApiError } from "../errors.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { hostedPlanOptions } from "../runtime/plan-check.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const Declared = z.object(StepDeclaration);

export const planRoutes = routeGroup().openapi(
  apiRoute("explain_policy", {
    method: "post",
    path: "/v1/plans/validate",
    summary: "Check a plan against the plan validation contract (nothing runs)",
    description:
      "Each step names a conveyor tool, its input, and declares risk_level, requires_confirmation, verification_plan and description. Declared risk may not be below the computed one; a plan with a high-risk step needs every step confirmed.",
    request: jsonRequest(ValidatePlanRequest),
    responses: {
      200: json("The plan is valid: each step with its computed risk class.", ValidatedPlan),
      400: problem("plan_invalid: every reason, as details [{step, field, reason}]."),
    },
  }),
  async (c) => {
    const { steps } = c.req.valid("json");
    const registry = toolRegistry();
    const options = hostedPlanOptions(registry);
    const checked = validatePlan(steps, options);
    // Bounds the contract leaves to the wire shape (lengths): reasons like any other.
    steps.forEach((step, i) => {
      const declared = Declared.safeParse(step);
      if (!declared.success && checked.problems.every((p) => p.step !== i))
        checked.problems.push(
          ...fieldProblems(declared.error).map((p) => ({ step: i, field: p.path, reason: p.message })),
        );
    });
    if (checked.problems.length)
      throw new ApiError(
        400,
        "plan_invalid",
        `The plan is not valid: ${checked.problems
          .map((p) => `step ${p.step}${p.field ? ` ${p.field}` : ""}: ${p.reason}`)
          .join("; ")}`.slice(0, 4000),
        { details: checked.problems },
      );
    const normalized = steps.map((step) => {
      const tool = String(step.tool);
      const parsed = registry.get(tool)?.schema.safeParse(step.input ?? {});
      const classified = options.classOf?.(tool, step.input);
      if (!parsed?.success || !classified || !("riskClass" in classified))
        throw new Error(`validated step ${tool} does not parse`);
      return {
        tool,
        input: parsed.data as Record<string, unknown>,
        risk_class: classified.riskClass,
        ...Declared.parse(step),
      };
    });
    return c.json({ plan: { category: checked.category, steps: normalized } }, 200);
  },
);
