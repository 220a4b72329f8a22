// A calendar proposal's risk comes from the identity's connection: invitees inside the account's domain
// keep it a WRITE (ask), one outside makes it EXFILTRATION (ask with confirmation), as stored and shown. The run
// judges again against the account actually used: an approval at WRITE never sends invitations outside its domain.
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { testConnections } from "../../support/memory-connections.ts";
import { type Device, device } from "../runtime/support.ts";
import { contract, uniqueAccount } from "./support.ts";

async function proposeCreate(d: Device, attendees: string[], args: Record<string, unknown> = {}) {
  const res = await d.companion.post("/v1/proposals", {
    tool: "calendar.create",
    identity: "user",
    idempotency_key: `cal-${crypto.randomUUID()}`,
    justification: "Plan the week.",
    args: {
      title: "Planning",
      start: "2026-12-01T10:00:00Z",
      end: "2026-12-01T11:00:00Z",
      attendees,
      ...args,
    },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

/** Approves once (a WRITE needs no confirmation) and answers the settled run. */
async function approveAndRun(d: Device, p: ProposalView): Promise<ProposalView> {
  expect((await d.post(`/v1/approvals/${p.prompt_id}/approve`, { scope: "once" })).status).toBe(200);
  const res = await d.companion.post(`/v1/proposals/${p.id}/execute`, {});
  expect(res.status).toBe(200);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

describe("calendar proposals through the gate", () => {
  it("in-domain invitees ask; an outside invitee asks with confirmation, and the card names the account", async () => {
    const d = await device();
    testConnections.connect(d.userId, "google", "user", "alice@corp.example");
    const propose = async (attendees: string[]) => {
      const res = await d.companion.post("/v1/proposals", {
        tool: "calendar.create",
        identity: "user",
        idempotency_key: `cal-${crypto.randomUUID()}`,
        justification: "Plan the week.",
        args: { title: "Planning", start: "2026-12-01T10:00:00Z", end: "2026-12-01T11:00:00Z", attendees },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { proposal: ProposalView }).proposal;
    };
    const inside = await propose(["bob@corp.example"]);
    expect(inside).toMatchObject({ risk_class: "WRITE", gate: "ask", state: "PENDING" });
    expect(inside.summary.where).toBe("Google Calendar primary of alice@corp.example (as you)");
    const outside = await propose(["bob@corp.example", "eve@elsewhere.example"]);
    expect(outside).toMatchObject({ risk_class: "EXFILTRATION", gate: "ask_confirm", state: "PENDING" });
    expect(outside.summary.impact).toContain("eve@elsewhere.example");
  });

  it("approved at WRITE, then the account changed domain: the run refuses the now-outside invitees, sends nothing", async () => {
    const d = await device();
    const corp = uniqueAccount("alice", "corp.example");
    const elsewhere = uniqueAccount("alice", "elsewhere.example");
    testConnections.connect(d.userId, "google", "user", corp);
    const p = await proposeCreate(d, ["bob@corp.example"]);
    expect(p).toMatchObject({ risk_class: "WRITE", gate: "ask" });
    // Before the person answers, Google is connected again as an account of another domain.
    testConnections.connect(d.userId, "google", "user", elsewhere);
    const ran = await approveAndRun(d, p);
    expect(ran.state).toBe("FAILED");
    expect(ran.envelope?.failure?.class).toBe("permission_denied");
    expect(ran.envelope?.failure?.message).toContain("bob@corp.example is outside elsewhere.example");
    expect(ran.envelope?.failure?.message).toContain("the approval covered WRITE");
    const stats = await contract.stats(elsewhere);
    expect(stats.events).toHaveLength(0);
    expect(stats.requests).toHaveLength(0);
  });

  it("the same run with the account it was approved for creates the event, invitees and all", async () => {
    const d = await device();
    const corp = uniqueAccount("alice", "corp.example");
    testConnections.connect(d.userId, "google", "user", corp);
    const ran = await approveAndRun(d, await proposeCreate(d, ["bob@corp.example"]));
    expect(ran.state).toBe("EXECUTED");
    expect((await contract.stats(corp)).events.map((e) => e.attendees)).toEqual([["bob@corp.example"]]);
  });
});
