// POST /v1/plans/validate (terminal safety spec §6, §12 contract tests): 400 plan_invalid with every
// actionable reason, 200 with the normalized plan; nothing runs either way.
import { describe, expect, it } from "vitest";
import type { ValidatedPlan } from "../../../src/protocol/planner.ts";
import { READ_STEP, writeStep } from "../../support/plan-steps.ts";
import { device, EFFECT, PAGE, targetHits } from "./support.ts";

interface Problem {
  step: number;
  field?: string;
  reason: string;
}

const read = { tool: "web.fetch", input: { url: PAGE }, ...READ_STEP };
const send = (input: Record<string, unknown>) => ({ tool: "http.request", input, ...writeStep(input) });

async function validate(steps: unknown) {
  const d = await device();
  const res = await d.companion.post("/v1/plans/validate", { steps });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("POST /v1/plans/validate", () => {
  it("a valid plan answers 200 with each step's computed class and the run's category", async () => {
    const input = { method: "POST", url: `${EFFECT}?k=plan`, json: { a: 1 } };
    const { status, body } = await validate([{ ...read, requires_confirmation: true }, send(input)]);
    expect(status).toBe(200);
    const { plan } = body as ValidatedPlan;
    expect(plan.category).toBe("EXFILTRATION");
    expect(plan.steps.map((s) => [s.tool, s.risk_class, s.risk_level])).toEqual([
      ["web.fetch", "READ", "low"],
      ["http.request", "EXFILTRATION", "high"],
    ]);
    // Validation runs nothing.
    expect(await targetHits("POST /effect?k=plan")).toBe(0);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["reject missing risk_level", { ...read, risk_level: undefined }, "risk_level"],
    ["reject missing verification_plan", { ...read, verification_plan: undefined }, "verification_plan"],
    ["reject a missing description", { ...read, description: undefined }, "description"],
    ["reject a non-registry tool", { ...read, tool: "shell.exec" }, "tool"],
    ["reject input the tool does not take", { ...read, input: { url: 7 } }, "input"],
  ])("%s: 400 plan_invalid naming the field", async (_, step, field) => {
    const { status, body } = await validate([step]);
    expect(status).toBe(400);
    const error = body.error as { code: string; details: Problem[] };
    expect(error.code).toBe("plan_invalid");
    expect(error.details).toContainEqual(expect.objectContaining({ step: 0, field }));
  });

  it("reject a high-impact step with no confirmation: every reason at once", async () => {
    const del = { tool: "http.request", input: { method: "DELETE", url: `${EFFECT}?k=x` } };
    const { status, body } = await validate([
      read,
      { ...del, risk_level: "medium", requires_confirmation: false, description: "Delete it." },
    ]);
    expect(status).toBe(400);
    const { details, message } = body.error as { details: Problem[]; message: string };
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ step: 1, field: "verification_plan", reason: "missing verification_plan" }),
        expect.objectContaining({ step: 1, field: "risk_level" }),
        expect.objectContaining({ step: 1, field: "requires_confirmation" }),
        expect.objectContaining({ step: 0, field: "requires_confirmation" }),
      ]),
    );
    expect(message).toContain("declared risk_level medium is below the computed high (DESTRUCTIVE");
  });

  it("an empty plan or a body that is not a plan is a 400", async () => {
    expect((await validate([])).status).toBe(400);
    const d = await device();
    expect((await d.companion.post("/v1/plans/validate", { plan: [] })).status).toBe(400);
  });
});
