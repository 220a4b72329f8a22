// Proposals through the real Worker and UserHub: idempotent creation, the gate, the shared approval
// queue, confirmation for high risk, expiry, exactly-once execution, and the audit of every transition.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { device, request } from "../approvals-helpers.ts";
import { errorOf } from "../helpers.ts";
import { auditOf, effectsOf, TARGET, uniqueKey } from "./support.ts";

type Device = Awaited<ReturnType<typeof device>>;

const write = (key: string, extra: Record<string, unknown> = {}) => ({
  tool: "http.request",
  identity: "bot",
  idempotency_key: key,
  justification: "Tell the build service the tests passed.",
  args: { method: "POST", url: `${TARGET}/effect`, ...extra },
});

/** The dev machine proposes; the phone (d.post) approves. */
async function propose(d: Device, body: unknown): Promise<{ status: number; proposal: ProposalView }> {
  const res = await d.companion.post("/v1/proposals", body);
  const json = (await res.json()) as { proposal: ProposalView };
  return { status: res.status, proposal: json.proposal };
}

async function proposalOf(d: Device, id: string): Promise<ProposalView> {
  return ((await (await d.get(`/v1/proposals/${id}`)).json()) as { proposal: ProposalView }).proposal;
}

async function pending(d: Device): Promise<CapabilityPrompt[]> {
  return ((await (await d.get("/v1/approvals?status=pending")).json()) as { approvals: CapabilityPrompt[] })
    .approvals;
}

/** Approval kicks the run off inside the hub; wait for it by asking the hub to run it (it joins). */
async function settled(d: Device, id: string): Promise<ProposalView> {
  const res = await d.post(`/v1/proposals/${id}/execute`);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

describe("creating proposals", () => {
  it("the same key and args return the same proposal; other args are a 409 idempotency_conflict, audited", async () => {
    const d = await device();
    const key = uniqueKey("create");
    const first = await propose(d, write(key));
    expect(first.status).toBe(201);
    expect(first.proposal).toMatchObject({
      state: "PENDING",
      tool: "http.request",
      identity: "bot",
      risk_class: "WRITE",
      gate: "ask",
      source: { kind: "companion" },
      summary: { what: expect.stringContaining("HTTP POST"), where: expect.stringContaining("127.0.0.1") },
    });
    const again = await propose(d, write(key));
    expect(again.status).toBe(200);
    expect(again.proposal.id).toBe(first.proposal.id);
    const other = await d.companion.post("/v1/proposals", write(key, { text: "different" }));
    expect(other.status).toBe(409);
    expect(await errorOf(other)).toMatchObject({
      code: "idempotency_conflict",
      details: { proposal_id: first.proposal.id },
    });
    const events = (await auditOf(d.userId, first.proposal.id)).map((r) => r.event);
    expect(events).toEqual(["conveyor.proposed", "conveyor.idempotency_conflict"]);
  });

  it.each([
    [{ ...write("k-unknown-tool-1"), tool: "shell.exec" }, 400, "unknown_tool"],
    [{ ...write("k-bad-args-1"), args: { method: "GET", url: `${TARGET}/x` } }, 400, "validation_failed"],
    [
      {
        ...write("k-credential-1"),
        args: { method: "POST", url: `${TARGET}/x`, headers: { Authorization: "Bearer x" } },
      },
      400,
      "validation_failed",
    ],
    [{ ...write("k-no-identity"), identity: undefined }, 400, "validation_failed"],
    [{ ...write("short"), idempotency_key: "short" }, 400, "validation_failed"],
  ])("refuses bad input with a 4xx and creates nothing (%#)", async (body, status, code) => {
    const d = await device();
    const res = await d.companion.post("/v1/proposals", body);
    expect(res.status).toBe(status);
    expect((await errorOf(res)).code).toBe(code);
    expect(
      ((await (await d.get("/v1/proposals")).json()) as { proposals: unknown[] }).proposals,
    ).toHaveLength(0);
  });

  it("internal tools run at once: memory.note is EXECUTED with its envelope", async () => {
    const d = await device();
    const { status, proposal } = await propose(d, {
      tool: "memory.note",
      identity: "bot",
      idempotency_key: uniqueKey("note"),
      justification: "Remember the deploy window.",
      args: { topic: "deploys", text: "Fridays are frozen." },
    });
    expect(status).toBe(201);
    expect(proposal).toMatchObject({
      state: "EXECUTED",
      gate: "none",
      envelope: { status: "executed", verification: { outcome: "passed" } },
    });
  });

  it("web.fetch is a READ: it runs without a person and labels the content untrusted", async () => {
    const d = await device();
    const { proposal } = await propose(d, {
      tool: "web.fetch",
      identity: "bot",
      idempotency_key: uniqueKey("fetch"),
      justification: "Read the status page.",
      args: { url: `${TARGET}/ok` },
    });
    expect(proposal).toMatchObject({
      state: "EXECUTED",
      envelope: { result: { status: 200, text: "hello", untrusted: true } },
    });
  });

  it("emergency read-only mode rejects a write proposal by policy, audited", async () => {
    const d = await device();
    await d.post("/v1/settings/emergency", { readOnly: true });
    const { proposal } = await propose(d, write(uniqueKey("ro")));
    expect(proposal).toMatchObject({ state: "REJECTED", decided_by: "policy" });
    const events = await auditOf(d.userId, proposal.id);
    expect(events.map((e) => e.event)).toEqual(["conveyor.proposed", "conveyor.rejected"]);
    expect(JSON.parse(events[1]?.details ?? "{}").reason).toMatch(/read-only/);
  });
});

describe("approving proposals through the shared queue", () => {
  it("a proposal's prompt is stored as one (kind), an agent call's as calls; allow_session on it is refused", async () => {
    const d = await device();
    const { proposal } = await propose(d, write(uniqueKey("kind")));
    await d.decide(request());
    const kinds = await runInDurableObject(d.hub, (_hub, state) =>
      state.storage.sql.exec<{ id: string; kind: string }>("SELECT id, kind FROM prompts").toArray(),
    );
    expect(kinds.find((p) => p.id === proposal.prompt_id)?.kind).toBe("proposal");
    expect(kinds.filter((p) => p.id !== proposal.prompt_id).map((p) => p.kind)).toContain("calls");
    const session = await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "session" });
    expect(session.status).toBe(400);
  });

  it("a PENDING proposal is a prompt in GET /v1/approvals; approving it by proposal id runs it once, with every transition audited", async () => {
    const d = await device();
    const key = uniqueKey("approve");
    const { proposal } = await propose(d, write(key));
    const prompts = await pending(d);
    const prompt = prompts.find((p) => p.proposal?.id === proposal.id);
    expect(prompt).toMatchObject({
      promptId: proposal.prompt_id,
      method: "http.request",
      risk: "medium",
      requiresConfirmation: false,
      options: ["allow_once", "allow_always", "deny_once", "deny_always"],
    });
    const res = await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" });
    expect(res.status).toBe(200);
    const done = await settled(d, proposal.id);
    expect(done).toMatchObject({
      state: "EXECUTED",
      decided_by: `device:${d.approver.deviceId}`,
      envelope: { status: "executed" },
    });
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
    expect(await pending(d)).toHaveLength(0);
    const events = (await auditOf(d.userId, proposal.id)).map((r) => r.event);
    expect(events).toEqual([
      "conveyor.proposed",
      "conveyor.approved",
      "conveyor.executing",
      "conveyor.executed",
    ]);
  });

  it("50 concurrent executions of one approved proposal: one effect, and all 50 callers get the same result", async () => {
    const d = await device();
    const key = uniqueKey("fifty");
    const { proposal } = await propose(d, write(key));
    await d.post(`/v1/approvals/${proposal.id}/approve`, {});
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => d.post(`/v1/proposals/${proposal.id}/execute`)),
    );
    const bodies = await Promise.all(
      answers.map(async (r) => ({ status: r.status, body: (await r.json()) as { proposal: ProposalView } })),
    );
    expect(bodies.map((b) => b.status)).toEqual(Array(50).fill(200));
    const envelopes = new Set(bodies.map((b) => JSON.stringify(b.body.proposal.envelope)));
    expect(envelopes.size).toBe(1);
    expect(bodies[0]?.body.proposal.state).toBe("EXECUTED");
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
  });

  it("a rejected proposal never runs; asking to run it is a 409 proposal_not_pending", async () => {
    const d = await device();
    const key = uniqueKey("reject");
    const { proposal } = await propose(d, write(key));
    expect((await d.post(`/v1/approvals/${proposal.id}/reject`, {})).status).toBe(200);
    expect(await proposalOf(d, proposal.id)).toMatchObject({ state: "REJECTED" });
    const run = await d.post(`/v1/proposals/${proposal.id}/execute`);
    expect(run.status).toBe(409);
    expect((await errorOf(run)).code).toBe("proposal_not_pending");
    const again = await d.post(`/v1/approvals/${proposal.id}/approve`, {});
    expect(again.status).toBe(409);
    // A proposal id the hub has no prompt for is named as not waiting (resolved inside the hub's one call).
    const unknown = await d.post("/v1/approvals/prp_nosuchproposal00/approve", {});
    expect(unknown.status).toBe(409);
    expect((await errorOf(unknown)).code).toBe("proposal_not_pending");
    expect(await effectsOf(`http.request:${key}`)).toBe(0);
  });

  it("an EXFILTRATION (a body leaves) needs a confirmation token, bound to its prompt", async () => {
    const d = await device();
    const key = uniqueKey("exfil");
    const { proposal } = await propose(d, write(key, { json: { report: "ok" } }));
    expect(proposal).toMatchObject({ risk_class: "EXFILTRATION", gate: "ask_confirm" });
    const bare = await d.post(`/v1/approvals/${proposal.id}/approve`, {});
    expect(bare.status).toBe(403);
    expect((await errorOf(bare)).code).toBe("confirmation_required");
    const token = ((await (await d.post(`/v1/approvals/${proposal.id}/confirm`)).json()) as { token: string })
      .token;
    expect((await d.post(`/v1/approvals/${proposal.id}/approve`, { confirmation_token: token })).status).toBe(
      200,
    );
    expect(await settled(d, proposal.id)).toMatchObject({ state: "EXECUTED" });
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
  });

  it("proposals have no session: allow_session is refused", async () => {
    const d = await device();
    const { proposal } = await propose(d, write(uniqueKey("session")));
    const res = await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "session" });
    expect(res.status).toBe(400);
    expect(await proposalOf(d, proposal.id)).toMatchObject({ state: "PENDING" });
  });

  it("an unanswered proposal expires with its prompt and auto-rejects (EXPIRED, by timeout)", async () => {
    const d = await device();
    const key = uniqueKey("expire");
    const { proposal } = await propose(d, write(key));
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE prompts SET expires_at = ?", Date.now() - 1);
    });
    await runDurableObjectAlarm(d.hub);
    expect(await proposalOf(d, proposal.id)).toMatchObject({ state: "EXPIRED", decided_by: "timeout" });
    expect((await d.post(`/v1/approvals/${proposal.id}/approve`, {})).status).toBe(409);
    const events = await auditOf(d.userId, proposal.id);
    expect(events.map((e) => [e.event, e.actor])).toEqual([
      ["conveyor.proposed", `device:${d.deviceId}`],
      ["conveyor.expired", "timeout"],
    ]);
    expect(await effectsOf(`http.request:${key}`)).toBe(0);
  });

  it("deny always saves a grant on exactly that scope: the next such proposal is rejected by it", async () => {
    const d = await device();
    const { proposal } = await propose(d, write(uniqueKey("deny-always")));
    await d.post(`/v1/approvals/${proposal.id}/reject`, { scope: "always" });
    const next = await propose(d, write(uniqueKey("deny-always-2")));
    expect(next.proposal).toMatchObject({ state: "REJECTED", decided_by: "policy" });
    // Another method on the same host is another scope: it still asks.
    const put = await propose(d, write(uniqueKey("deny-always-3"), { method: "PUT" }));
    expect(put.proposal.state).toBe("PENDING");
  });

  it("allow always on an external write lets the same scope run without asking next time", async () => {
    const d = await device();
    const first = await propose(d, write(uniqueKey("allow-always")));
    await d.post(`/v1/approvals/${first.proposal.id}/approve`, { scope: "always" });
    const key = uniqueKey("allow-always-2");
    const next = await propose(d, write(key));
    expect(next.proposal).toMatchObject({ state: "EXECUTED", gate: "none" });
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
  });
});
