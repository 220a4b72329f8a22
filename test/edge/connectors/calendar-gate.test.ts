// A calendar proposal's risk comes from the identity's connection: invitees inside the account's domain
// keep it a WRITE (ask), one outside makes it EXFILTRATION (ask with confirmation), as stored and shown.
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { testConnections } from "../../support/memory-connections.ts";
import { device } from "../runtime/support.ts";

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
});
