// Plan validation (terminal safety spec §6): every step declares its risk, confirmation and
// verification; declared risk may not be below the computed one; all problems at once. The classes and
// their risks are policy's (src/policy/risk-class.ts); this checks a plan document against them.
import { CANONICAL_TOOLS, capabilityOf, classify } from "../policy/capabilities.ts";
import { higherClass, planRiskOf, type RiskClass, riskClassOf } from "../policy/risk-class.ts";
import { RISK_RANK, type Risk } from "../policy/types.ts";

function isRisk(value: unknown): value is Risk {
  return typeof value === "string" && Object.hasOwn(RISK_RANK, value);
}

export interface PlanProblem {
  step: number;
  field?: string;
  reason: string;
}

export interface PlanValidation {
  ok: boolean;
  problems: PlanProblem[];
  category: RiskClass;
}

const REQUIRED = ["risk_level", "requires_confirmation", "verification_plan", "tool", "description"] as const;

/**
 * How a registry other than the coding agent's computes a step's class (the hosted conveyor: each tool's
 * own `riskClass` of its validated arguments), or says why the input is not valid for the tool.
 */
export type StepClassifier = (tool: string, input: unknown) => { riskClass: RiskClass } | { problem: string };

export interface PlanOptions {
  /** The tools a step may name (default: the coding agent's canonical tools). */
  registry?: readonly string[];
  /** With `registry`: the class of a step from its tool and input, instead of the capability rubric. */
  classOf?: StepClassifier;
  cwd?: string;
}

export function validatePlan(steps: unknown, opts: PlanOptions = {}): PlanValidation {
  const registry = new Set(opts.registry ?? CANONICAL_TOOLS);
  const problems: PlanProblem[] = [];
  if (!Array.isArray(steps) || steps.length === 0) {
    return {
      ok: false,
      problems: [{ step: 0, reason: "a plan must be a non-empty array of steps" }],
      category: "HIGH",
    };
  }
  let category: RiskClass = "READ";
  const confirmations: boolean[] = [];
  steps.forEach((raw: unknown, step) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      problems.push({
        step,
        reason:
          "each step must be an object with risk_level, requires_confirmation, verification_plan, tool, description",
      });
      category = "HIGH";
      return;
    }
    const s = raw as Record<string, unknown>;
    for (const field of REQUIRED) {
      if (s[field] === undefined || s[field] === null)
        problems.push({ step, field, reason: `missing ${field}` });
    }
    const declared = s.risk_level;
    if (declared !== undefined && !isRisk(declared)) {
      problems.push({ step, field: "risk_level", reason: "risk_level must be one of low, medium, high" });
    }
    if (s.requires_confirmation !== undefined && typeof s.requires_confirmation !== "boolean") {
      problems.push({
        step,
        field: "requires_confirmation",
        reason: "requires_confirmation must be true or false",
      });
    }
    confirmations[step] = s.requires_confirmation === true;
    for (const field of ["verification_plan", "description"] as const) {
      if (s[field] !== undefined && (typeof s[field] !== "string" || (s[field] as string).trim() === "")) {
        problems.push({
          step,
          field,
          reason: `${field} must be a non-empty string saying ${field === "description" ? "what the step does" : "how success will be checked"}`,
        });
      }
    }
    const tool = s.tool;
    if (tool === undefined) return;
    if (typeof tool !== "string" || !registry.has(tool)) {
      problems.push({
        step,
        field: "tool",
        reason: `tool ${JSON.stringify(tool)} is not in the tool registry (${[...registry].join(", ")})`,
      });
      category = "HIGH";
      return;
    }
    const cls = stepClass(tool, s.input, opts);
    if (typeof cls !== "string") {
      problems.push({ step, field: "input", reason: cls.problem });
      category = "HIGH";
      return;
    }
    category = higherClass(category, cls);
    const computed = planRiskOf(cls);
    if (isRisk(declared) && RISK_RANK[declared] < RISK_RANK[computed]) {
      problems.push({
        step,
        field: "risk_level",
        reason: `declared risk_level ${String(declared)} is below the computed ${computed} (${cls} via ${tool}); declare ${computed}`,
      });
    }
    if (computed === "high" && s.requires_confirmation === false) {
      problems.push({
        step,
        field: "requires_confirmation",
        reason: `a high-risk step (${cls}) must set requires_confirmation: true`,
      });
    }
  });
  // Mixed categories: the highest category's policy covers the whole run.
  if (planRiskOf(category) === "high") {
    confirmations.forEach((confirmed, step) => {
      const already = problems.some((p) => p.step === step && p.field === "requires_confirmation");
      if (!confirmed && !already) {
        problems.push({
          step,
          field: "requires_confirmation",
          reason: `the plan includes ${category} steps, so every step must set requires_confirmation: true`,
        });
      }
    });
  }
  return { ok: problems.length === 0, problems, category };
}

function stepClass(tool: string, input: unknown, opts: PlanOptions): RiskClass | { problem: string } {
  if (opts.classOf) {
    const c = opts.classOf(tool, input);
    return "riskClass" in c ? c.riskClass : c;
  }
  let capability = capabilityOf(tool);
  let risk: Risk;
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const c = classify({ tool, input: input as Record<string, unknown>, cwd: opts.cwd ?? "/" });
    capability = c.capability;
    risk = c.risk;
  } else {
    risk =
      capability === "exec" || capability === "write"
        ? "high"
        : capability === "session" || capability === "ui"
          ? "low"
          : "medium";
  }
  return riskClassOf(tool, capability, risk);
}
