// What the planner does with bad model output and a struggling provider, end to end through a job:
// garbage → repair → fallback → FAILED_MODEL_OUTPUT (each audited), 429 storms, long Retry-After.
import { env } from "cloudflare:workers";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog } from "../../../src/edge/db/schema.ts";
import {
  device,
  EFFECT,
  jobOf,
  planner,
  proposeCall,
  runTurns,
  script,
  startJob,
  targetHits,
} from "./support.ts";

async function runtimeEvents(userId: string, turnId: string) {
  const rows = await openDb(env.DB)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), eq(auditLog.target, turnId), like(auditLog.event, "runtime.%")));
  return rows.sort((a, b) => a.at - b.at).map((r) => ({ event: r.event, details: JSON.parse(r.details) }));
}

const garbage = { calls: [{ name: "web_fetch", arguments: "{not json" }] };

describe("invalid model output", () => {
  it("a plan that fails validation (data leaving declared low, unconfirmed) stops the turn before any step", async () => {
    const d = await device();
    const key = crypto.randomUUID();
    const understated = {
      calls: [
        proposeCall(
          { method: "POST", url: `${EFFECT}?k=${key}`, json: { all: "the data" } },
          { risk_level: "low", requires_confirmation: false },
        ),
      ],
    };
    const s = await script([understated, understated, understated]);
    const { value } = await runTurns(() => startJob(d, `Send it. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job).toMatchObject({ state: "failed", error: { code: "PLAN_INVALID" }, steps: [], proposals: [] });
    expect(job.error?.message).toContain("declared risk_level low is below the computed high");
    expect(job.error?.message).toContain("requires_confirmation");
    expect(await targetHits(`POST /effect?k=${key}`)).toBe(0);
    // The repair prompt told the model what to fix.
    const repair = (await planner.calls(s.id))[1]?.messages.at(-1);
    expect(String(repair?.content)).toContain("risk_level");
    const events = (await runtimeEvents(d.userId, job.turn_id)).map((e) => e.event);
    expect(events).toContain("runtime.plan_invalid");
  });

  it("one repair retry fixes it; the invalid answer and the repair are audited", async () => {
    const d = await device();
    const s = await script([garbage, { text: "Fixed." }]);
    const { value } = await runTurns(() => startJob(d, `Say hi. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job).toMatchObject({ state: "succeeded", result: "Fixed." });
    expect(job.steps[0]).toMatchObject({ attempt: "repair", model: "primary-model" });
    const calls = await planner.calls(s.id);
    expect(calls.map((c) => c.model)).toEqual(["primary-model", "primary-model"]);
    // The repair request quotes the problem and the invalid answer.
    const repair = calls[1]?.messages.at(-1);
    expect(repair).toMatchObject({ role: "user" });
    expect(String(repair?.content)).toContain("arguments are not valid JSON");
    const events = (await runtimeEvents(d.userId, job.turn_id)).map((e) => e.event);
    expect(events).toContain("runtime.model_output_invalid");
    expect(events).toContain("runtime.model_output_repaired");
    expect(job.spend.model_calls).toBe(2);
  });

  it("after a failed repair, one attempt on the fallback model", async () => {
    const d = await device();
    const s = await script([
      garbage,
      { content: '{"assistant_message": 7}' },
      { text: "From the fallback." },
    ]);
    const { value } = await runTurns(() => startJob(d, `Say hi. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job).toMatchObject({ state: "succeeded", result: "From the fallback." });
    expect(job.steps[0]).toMatchObject({ attempt: "fallback", model: "fallback-model" });
    expect((await planner.calls(s.id)).map((c) => c.model)).toEqual([
      "primary-model",
      "primary-model",
      "fallback-model",
    ]);
  });

  it("garbage three times fails the job with FAILED_MODEL_OUTPUT, audited, and nothing runs", async () => {
    const d = await device();
    const s = await script([
      garbage,
      { calls: [{ name: "shell_exec", arguments: { command: "rm -rf /" } }] },
      { content: "" },
    ]);
    const { value } = await runTurns(() => startJob(d, `Do it. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job.state).toBe("failed");
    expect(job.error?.code).toBe("FAILED_MODEL_OUTPUT");
    expect(job.error?.message).toContain("no tool named shell_exec");
    expect(job.steps).toEqual([]);
    expect(job.spend.model_calls).toBe(3);
    const events = await runtimeEvents(d.userId, job.turn_id);
    expect(
      events.filter((e) => e.event === "runtime.model_output_invalid").map((e) => e.details.attempt),
    ).toEqual(["first", "repair", "fallback"]);
    expect(events.map((e) => e.event)).toContain("runtime.failed_model_output");
  });
});

describe("a struggling provider", () => {
  it("a 429 storm is retried with back-off until the model answers", async () => {
    const d = await device();
    const s = await script([
      { status: 429 },
      { status: 503 },
      { status: 429, retryAfter: "0" },
      { text: "Finally." },
    ]);
    const { value } = await runTurns(() => startJob(d, `Hi. ${s.marker}`));
    expect(await jobOf(d, value.id)).toMatchObject({ state: "succeeded", result: "Finally." });
    expect((await planner.calls(s.id)).map((c) => c.outcome)).toEqual([
      "HTTP 429",
      "HTTP 503",
      "HTTP 429",
      "answered",
    ]);
  });

  it("when the primary keeps failing, the chain falls back to the next model", async () => {
    const d = await device();
    const s = await script([
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { text: "Fallback answered." },
    ]);
    const { value } = await runTurns(() => startJob(d, `Hi. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job).toMatchObject({ state: "succeeded", result: "Fallback answered." });
    expect((await planner.calls(s.id)).map((c) => c.model)).toEqual([
      "primary-model",
      "primary-model",
      "primary-model",
      "primary-model",
      "fallback-model",
    ]);
  });

  it("every model failing ends the job with MODEL_UNAVAILABLE", async () => {
    const d = await device();
    const s = await script([{ status: 502 }]);
    const { value } = await runTurns(() => startJob(d, `Hi. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job.error?.code).toBe("MODEL_UNAVAILABLE");
    // 4 tries on each of the two models.
    expect(await planner.calls(s.id)).toHaveLength(8);
  });

  it("a Retry-After longer than a call waits becomes a durable sleep, then the step is planned again", async () => {
    const d = await device();
    const s = await script([
      { status: 429, retryAfter: "120" },
      { status: 429, retryAfter: "120" },
      { text: "After the pause." },
    ]);
    const { value } = await runTurns(() => startJob(d, `Hi. ${s.marker}`));
    expect(await jobOf(d, value.id)).toMatchObject({ state: "succeeded", result: "After the pause." });
    // Neither model waited 120 s in the call: each gave up at once, the workflow slept, then the chain
    // started over from the primary.
    expect((await planner.calls(s.id)).map((c) => c.model)).toEqual([
      "primary-model",
      "fallback-model",
      "primary-model",
    ]);
  });
});
