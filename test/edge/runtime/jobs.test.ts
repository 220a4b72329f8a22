// Jobs through the real Worker, Workflow and UserHub: a tool loop that reads a page and answers, the
// job's view (steps, spend, thread), and what the model was sent.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/protocol/runtime.ts";
import { READ_STEP } from "../../support/plan-steps.ts";
import { device, jobOf, PAGE, planner, runTurns, script, startJob, targetHits } from "./support.ts";

describe("a job's tool loop", () => {
  it("reads a page inline, then answers; steps, spend and the thread show it", async () => {
    const d = await device();
    const tag = crypto.randomUUID();
    const s = await script([
      { calls: [{ name: "web_fetch", arguments: { ...READ_STEP, url: `${PAGE}?id=${tag}` } }] },
      { text: "The status page says all systems are green." },
    ]);
    const { value: started } = await runTurns(() => startJob(d, `Check the status page. ${s.marker}`), {
      expect: 1,
    });
    const job = await jobOf(d, started.id);
    expect(job).toMatchObject({
      state: "succeeded",
      result: "The status page says all systems are green.",
      trigger: { kind: "api" },
      error: null,
    });
    expect(job.steps).toHaveLength(2);
    expect(job.steps[0]?.calls).toEqual([
      expect.objectContaining({ tool: "web.fetch", mode: "inline", status: "executed", untrusted: true }),
    ]);
    expect(job.spend).toMatchObject({ steps: 1, model_calls: 2, tokens_in: 200, tokens_out: 40 });
    // primary-model costs 1 and 2 USD per million tokens.
    expect(job.spend.cost_usd).toBeCloseTo((200 * 1 + 40 * 2) / 1e6, 9);
    expect(await targetHits(`GET /page`)).toBeGreaterThan(0);
    // The list reads a page's spend in grouped queries: each job's is the same as its own view's.
    const listed = (await (await d.get("/v1/jobs")).json()) as { jobs: { id: string; spend: unknown }[] };
    expect(listed.jobs.find((j) => j.id === job.id)?.spend).toEqual(job.spend);

    const calls = await planner.calls(s.id);
    expect(calls.map((c) => c.model)).toEqual(["primary-model", "primary-model"]);
    // The second request carries the page, fenced as untrusted, answering the call it belongs to.
    const tool = calls[1]?.messages.find((m) => m.role === "tool");
    expect(tool?.tool_call_id).toBe("call_0_0");
    expect(String(tool?.content)).toMatch(
      /^<untrusted source="web.fetch">[\s\S]*All systems green[\s\S]*<\/untrusted>$/,
    );
    // The reads run inline (web and the connector reads); everything else is one propose_action.
    expect(calls[0]?.tools.map((t) => t.function.name)).toEqual([
      "web_fetch",
      "web_search",
      "gmail_search",
      "gmail_read",
      "calendar_list",
      "calendar_freebusy",
      "github_issue_read",
      "github_pr_read",
      "propose_action",
    ]);

    const page = await d.get(`/v1/chat/threads/${job.thread_id}/messages`);
    const { messages } = (await page.json()) as { messages: ChatMessage[] };
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[2]).toMatchObject({ untrusted: true, tool: { name: "web.fetch" } });
    // The model's words, then what Airlock verified (a read only: nothing outside was changed).
    expect(messages[3]?.content).toBe(`${job.result}\n\n[Airlock verified] ${job.outcome?.summary}`);
    expect(job.outcome?.state).toBe("succeeded");
  });
});
