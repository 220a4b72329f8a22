// A turn's life through the real Workflow: proposing an effect and waiting for the phone's approval
// (waitForEvent), being restarted mid-loop without repeating a tool call, and being cancelled.
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { READ_STEP, writeStep } from "../../support/plan-steps.ts";
import { auditOf, effectsOf } from "../conveyor/support.ts";
import { device, EFFECT, jobOf, PAGE, planner, script, startJob, targetHits } from "./support.ts";

const propose = (key: string) => ({
  name: "propose_action",
  arguments: {
    tool: "http.request",
    identity: "bot",
    args: { method: "POST", url: `${EFFECT}?k=${key}` },
    justification: "CI is green: start the deploy.",
    ...writeStep({ method: "POST" }),
  },
});

async function proposal(d: Awaited<ReturnType<typeof device>>, id: string): Promise<ProposalView> {
  return ((await (await d.get(`/v1/proposals/${id}`)).json()) as { proposal: ProposalView }).proposal;
}

describe("a job that proposes an effect", () => {
  it("waits for the phone's approval, the executor runs it once, and the job finishes with a message", async () => {
    const d = await device();
    const s = await script([{ calls: [propose("a")] }, { text: "Deploy started." }]);
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    await introspector.modifyAll(async (m) => m.disableRetryDelays());
    const started = await startJob(d, `Deploy if green. ${s.marker}`);
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no turn instance");
    const acted = (await instance.waitForStepResult({ name: "act 0" })) as {
      kind: string;
      proposals: string[];
    };
    expect(acted.kind).toBe("waiting");
    const proposalId = acted.proposals[0] ?? "";
    const pending = await proposal(d, proposalId);
    // A background job only proposes: a person approves, whatever grants exist.
    expect(pending).toMatchObject({
      state: "PENDING",
      gate: "ask",
      source: { kind: "job", ref: started.id },
    });
    expect((await jobOf(d, started.id)).state).toBe("waiting_approval");

    expect((await d.post(`/v1/approvals/${proposalId}/approve`, {})).status).toBe(200);
    await instance.waitForStatus("complete");

    const job = await jobOf(d, started.id);
    expect(job).toMatchObject({ state: "succeeded", result: "Deploy started." });
    expect(job.proposals).toEqual([expect.objectContaining({ id: proposalId, state: "EXECUTED" })]);
    expect(await effectsOf(`http.request:turn:${job.turn_id}:0:0`)).toBe(1);
    // The model saw the outcome as the call's result.
    const last = (await planner.calls(s.id)).at(-1);
    const result = last?.messages.find((m) => m.role === "tool");
    expect(String(result?.content)).toContain(`Proposal ${proposalId}`);
    expect(String(result?.content)).toContain("EXECUTED");
    const events = (await auditOf(d.userId, proposalId)).map((r) => r.event);
    expect(events).toEqual([
      "conveyor.proposed",
      "conveyor.approved",
      "conveyor.executing",
      "conveyor.executed",
    ]);
    expect((await auditOf(d.userId, proposalId))[0]?.actor).toBe(`job:${started.id}`);
  });

  it("a rejection is the call's result: nothing runs, and the job goes on to its answer", async () => {
    const d = await device();
    const s = await script([{ calls: [propose("r")] }, { text: "Not deployed: you said no." }]);
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    const started = await startJob(d, `Deploy. ${s.marker}`);
    const [instance] = await introspector.get();
    const acted = (await instance?.waitForStepResult({ name: "act 0" })) as { proposals: string[] };
    const proposalId = acted.proposals[0] ?? "";
    await d.post(`/v1/approvals/${proposalId}/reject`, {});
    await instance?.waitForStatus("complete");
    const job = await jobOf(d, started.id);
    expect(job).toMatchObject({
      state: "succeeded",
      proposals: [expect.objectContaining({ state: "REJECTED" })],
    });
    expect(await effectsOf(`http.request:turn:${job.turn_id}:0:0`)).toBe(0);
  });

  it("cancel rejects the waiting proposal and stops the job at its next step: nothing executes after", async () => {
    const d = await device();
    const s = await script([{ calls: [propose("c")] }, { text: "should never be asked" }]);
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    const started = await startJob(d, `Deploy. ${s.marker}`);
    const [instance] = await introspector.get();
    const acted = (await instance?.waitForStepResult({ name: "act 0" })) as { proposals: string[] };
    const proposalId = acted.proposals[0] ?? "";
    const cancel = await d.post(`/v1/jobs/${started.id}/cancel`);
    expect(cancel.status).toBe(200);
    await instance?.waitForStatus("complete");
    const job = await jobOf(d, started.id);
    expect(job).toMatchObject({ state: "cancelled", error: { code: "CANCELLED" } });
    expect(job.cancel_requested_at).not.toBeNull();
    expect((await proposal(d, proposalId)).state).toBe("REJECTED");
    // Approving now is refused, and no effect ever happened.
    expect((await d.post(`/v1/approvals/${proposalId}/approve`, {})).status).toBe(409);
    expect(await effectsOf(`http.request:turn:${job.turn_id}:0:0`)).toBe(0);
    expect(await planner.calls(s.id)).toHaveLength(1);
    // Cancelling again answers the cancelled job.
    const again = await d.post(`/v1/jobs/${started.id}/cancel`);
    expect(again.status).toBe(200);
  });
});

describe("a turn restarted mid-loop", () => {
  it("resumes from its checkpoint: every tool call ran exactly once, finished rounds were not re-planned", async () => {
    const d = await device();
    const tag = crypto.randomUUID().slice(0, 8);
    const read = (n: number) => ({
      calls: [{ name: "web_fetch", arguments: { ...READ_STEP, url: `${PAGE}?restart=${tag}-${n}` } }],
    });
    const s = await script(
      [read(0), read(1), { calls: [propose(`restart-${tag}`)] }, { text: "Read two, deployed." }],
      "by_turn",
    );
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    await introspector.modifyAll(async (m) => m.disableRetryDelays());
    const started = await startJob(d, `Read two pages, then deploy. ${s.marker}`);
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no turn instance");
    const acted = (await instance.waitForStepResult({ name: "act 2" })) as { proposals: string[] };
    // The instance is restarted while it waits for the person: every step result it kept is wiped, and it
    // runs from the top again, against the D1 checkpoint.
    const handle = await env.TURN_WORKFLOW.get(started.turn_id);
    await handle.restart();
    const proposalId = acted.proposals[0] ?? "";
    expect((await d.post(`/v1/approvals/${proposalId}/approve`, {})).status).toBe(200);
    await instance.waitForStatus("complete");

    const job = await jobOf(d, started.id);
    expect(job).toMatchObject({ state: "succeeded", result: "Read two, deployed." });
    for (const n of [0, 1]) expect(await targetHits(`GET /page?restart=${tag}-${n}`)).toBe(1);
    expect(job.proposals).toEqual([expect.objectContaining({ id: proposalId, state: "EXECUTED" })]);
    expect(await effectsOf(`http.request:turn:${job.turn_id}:2:0`)).toBe(1);
    expect(job.steps.map((st) => st.calls.map((c) => c.status))).toEqual([
      ["executed"],
      ["executed"],
      ["EXECUTED"],
      [],
    ]);
    // Each round was planned once: the restarted run read rounds 0–2 from the checkpoint.
    const rounds = (await planner.calls(s.id)).map(
      (c) => c.messages.filter((m) => m.role === "assistant").length,
    );
    expect(rounds).toEqual([0, 1, 2, 3]);
    expect(job.spend.model_calls).toBe(4);
  }, 60_000);
});
