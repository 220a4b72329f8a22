// The terminal safety spec's regression list (seed 001 §12), against the hosted runtime with the scripted
// model and the local target: no silent execution, no post-stop continuation, no false success without
// verification. A job's outcome comes from the envelopes of what it did, never from the model's words.
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/protocol/runtime.ts";
import { effectsOf } from "../conveyor/support.ts";
import {
  type Device,
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

const FAIL = `http://127.0.0.1:${new URL(EFFECT).port}/fail`;

/** Starts a job, approves each proposal it waits on, and waits for it to end. */
async function runApproving(d: Device, instructions: string): Promise<string> {
  await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
  await introspector.modifyAll(async (m) => m.disableRetryDelays());
  const started = await startJob(d, instructions);
  const [instance] = await introspector.get();
  if (!instance) throw new Error("no turn instance");
  const acted = (await instance.waitForStepResult({ name: "act 0" })) as { proposals?: string[] };
  for (const id of acted.proposals ?? [])
    expect((await d.post(`/v1/approvals/${id}/approve`, {})).status).toBe(200);
  await instance.waitForStatus("complete");
  return started.id;
}

async function lastMessage(d: Device, threadId: string): Promise<ChatMessage | undefined> {
  const page = (await (await d.get(`/v1/chat/threads/${threadId}/messages`)).json()) as {
    messages: ChatMessage[];
  };
  return page.messages.at(-1);
}

describe("RinaWarp regression list (seed 001 §12)", () => {
  it("no false success without verification: a FAILED proposal fails the job whatever the model says", async () => {
    const d = await device();
    const s = await script([
      { calls: [proposeCall({ method: "POST", url: `${FAIL}?deploy=1` })] },
      { text: "Deployed successfully! Everything is live." },
    ]);
    const id = await runApproving(d, `Deploy. ${s.marker}`);
    const job = await jobOf(d, id);
    expect(job.proposals).toEqual([expect.objectContaining({ state: "FAILED" })]);
    expect(job).toMatchObject({
      state: "failed",
      result: "Deployed successfully! Everything is live.",
      outcome: { state: "failed" },
      error: { code: "VERIFICATION_FAILED" },
    });
    expect(job.outcome?.summary).toContain("command_error: the target answered HTTP 500");
    // The person sees the verified outcome beside the model's claim.
    const shown = await lastMessage(d, job.thread_id);
    expect(shown?.content).toContain("Deployed successfully! Everything is live.");
    expect(shown?.content).toContain("[Airlock verified] failed.");
  });

  it("no false success: a PARTIAL effect (sent, no answer) makes the job partial", async () => {
    const d = await device();
    const hang = `http://127.0.0.1:${new URL(EFFECT).port}/hang`;
    const s = await script([
      { calls: [proposeCall({ method: "POST", url: hang, timeout_ms: 500 })] },
      { text: "Deployed successfully! Everything is live." },
    ]);
    const job = await jobOf(d, await runApproving(d, `Deploy. ${s.marker}`));
    expect(job.proposals).toEqual([expect.objectContaining({ state: "PARTIAL" })]);
    expect(job).toMatchObject({ state: "partial", outcome: { state: "partial" } });
    expect(job.outcome?.summary).toContain("check by hand");
  });

  it("no false success: a claim with nothing done says nothing was done", async () => {
    const d = await device();
    const s = await script([{ text: "Deployed successfully! Everything is live." }]);
    const { value } = await runTurns(() => startJob(d, `Deploy. ${s.marker}`));
    const job = await jobOf(d, value.id);
    expect(job.outcome).toEqual({
      state: "succeeded",
      summary: "succeeded. no action outside this conversation was taken.",
    });
    expect((await lastMessage(d, job.thread_id))?.content).toContain("no action outside this conversation");
  });

  it("no silent execution: every executed effect was approved by a person and is named in the final message", async () => {
    const d = await device();
    const key = crypto.randomUUID();
    const s = await script([
      { calls: [proposeCall({ method: "POST", url: `${EFFECT}?k=${key}` })] },
      { text: "Done." },
    ]);
    const id = await runApproving(d, `Post. ${s.marker}`);
    const job = await jobOf(d, id);
    expect(job.proposals).toEqual([expect.objectContaining({ state: "EXECUTED" })]);
    expect(job).toMatchObject({ state: "succeeded", outcome: { state: "succeeded" } });
    const final = (await lastMessage(d, job.thread_id))?.content ?? "";
    expect(final).toContain(`executed and verified: HTTP POST`);
    expect(final).toContain("HTTP 201");
    expect(await targetHits(`POST /effect?k=${key}`)).toBe(1);
    // The proposal was decided by the person, not by the model or a grant.
    const proposal = job.proposals[0];
    const view = (await (await d.get(`/v1/proposals/${proposal?.id}`)).json()) as {
      proposal: { decided_by: string };
    };
    expect(view.proposal.decided_by).toMatch(/^device:/);
  });

  it("no post-stop continuation: after cancel nothing executes and the model is not asked again", async () => {
    const d = await device();
    const key = crypto.randomUUID();
    const s = await script([
      { calls: [proposeCall({ method: "POST", url: `${EFFECT}?k=${key}` })] },
      { text: "Should never be asked." },
    ]);
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    await introspector.modifyAll(async (m) => m.disableRetryDelays());
    const started = await startJob(d, `Post. ${s.marker}`);
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no turn instance");
    const acted = (await instance.waitForStepResult({ name: "act 0" })) as { proposals: string[] };
    expect((await d.post(`/v1/jobs/${started.id}/cancel`)).status).toBe(200);
    await instance.waitForStatus("complete");
    // Approving after the stop changes nothing: the proposal was rejected by the cancel.
    const late = await d.post(`/v1/approvals/${acted.proposals[0]}/approve`, {});
    expect(late.status).toBe(409);
    const job = await jobOf(d, started.id);
    expect(job.state).toBe("cancelled");
    expect(job.proposals).toEqual([expect.objectContaining({ state: "REJECTED" })]);
    expect(await targetHits(`POST /effect?k=${key}`)).toBe(0);
    expect(await effectsOf(`http.request:turn:${job.turn_id}:0:0`)).toBe(0);
    expect(await planner.calls(s.id)).toHaveLength(1);
  });
});
