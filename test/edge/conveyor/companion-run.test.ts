// companion.run through the hub: HIGH, so a confirmation token every time; the command goes to one
// connected companion over its socket, and only that companion's answer settles the run.
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { device } from "../approvals-helpers.ts";
import { errorOf } from "../helpers.ts";
import { connect } from "../socket-client.ts";
import { uniqueKey } from "./support.ts";

type Device = Awaited<ReturnType<typeof device>>;

const run = (command: string, extra: Record<string, unknown> = {}) => ({
  tool: "companion.run",
  identity: "user",
  idempotency_key: uniqueKey("run"),
  justification: "Run the tests on the laptop.",
  args: { command, cwd: "/work/repo", timeout_ms: 5_000, ...extra },
});

async function proposeAndApprove(d: Device, body: unknown): Promise<ProposalView> {
  const { proposal } = (await (await d.post("/v1/proposals", body)).json()) as { proposal: ProposalView };
  expect(proposal).toMatchObject({ risk_class: "HIGH", gate: "ask_confirm", state: "PENDING" });
  const bare = await d.post(`/v1/approvals/${proposal.id}/approve`, {});
  expect(bare.status).toBe(403);
  expect((await errorOf(bare)).code).toBe("confirmation_required");
  const { token } = (await (await d.post(`/v1/approvals/${proposal.id}/confirm`)).json()) as {
    token: string;
  };
  expect((await d.post(`/v1/approvals/${proposal.id}/approve`, { confirmation_token: token })).status).toBe(
    200,
  );
  return proposal;
}

const finalOf = async (d: Device, id: string) =>
  ((await (await d.post(`/v1/proposals/${id}/execute`)).json()) as { proposal: ProposalView }).proposal;

describe("companion.run", () => {
  it("sends the approved command to the connected companion and records its output", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "laptop" } });
    await companion.next("welcome");
    const proposal = await proposeAndApprove(d, run("npm test"));
    const request = await companion.next("companion_run");
    expect(request).toMatchObject({ command: "npm test", cwd: "/work/repo", timeoutMs: 5_000 });
    companion.send({
      type: "companion_run_result",
      runId: request.runId,
      decision: "allow",
      reason: "allowed",
      exitCode: 0,
      stdout: "12 passed",
      stderr: "",
      truncated: false,
      timedOut: false,
    });
    expect(await finalOf(d, proposal.id)).toMatchObject({
      state: "EXECUTED",
      envelope: { result: { exit_code: 0, stdout: "12 passed" }, verification: { outcome: "passed" } },
    });
    companion.ws.close();
  });

  it("a command the companion's policy refuses is FAILED with permission_denied", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "laptop" } });
    await companion.next("welcome");
    const proposal = await proposeAndApprove(d, run("rm -rf /"));
    const request = await companion.next("companion_run");
    companion.send({
      type: "companion_run_result",
      runId: request.runId,
      decision: "deny",
      reason: "denied by rule no-rm",
      exitCode: null,
      stdout: "",
      stderr: "",
      truncated: false,
      timedOut: false,
    });
    expect(await finalOf(d, proposal.id)).toMatchObject({
      state: "FAILED",
      envelope: { failure: { class: "permission_denied" } },
    });
    companion.ws.close();
  });

  it("with no companion connected the run fails as tool_unavailable", async () => {
    const d = await device();
    const proposal = await proposeAndApprove(d, run("make"));
    expect(await finalOf(d, proposal.id)).toMatchObject({
      state: "FAILED",
      envelope: { failure: { class: "tool_unavailable" } },
    });
  });

  it("an answer for a run this device was not sent is refused", async () => {
    const d = await device();
    const companion = await connect(d.headers, "companion");
    companion.send({ type: "hello", client: { name: "laptop" } });
    await companion.next("welcome");
    companion.send({
      type: "companion_run_result",
      runId: "companion.run:forged",
      decision: "allow",
      reason: "",
      exitCode: 0,
      stdout: "",
      stderr: "",
      truncated: false,
      timedOut: false,
    });
    expect(await companion.next("error")).toMatchObject({ code: "not_found" });
    companion.ws.close();
  });
});
