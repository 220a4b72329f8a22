// Session grants in the dashboard's Grants view: "Allow for session" shows up in GET /v1/grants/session, an
// approver revokes it (audited) and the next matching call asks again; a companion may neither list nor revoke.
import { describe, expect, it } from "vitest";
import { device, request } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";

interface SessionGrant {
  id: string;
  session_id: string;
  agent_id: string;
  capability: string;
}

describe("session grants", () => {
  it("lists a session grant, revokes it, and the next call asks again", async () => {
    const d = await device();
    const first = (await (await d.decide(request({ session_id: "s-grant" }))).json()) as {
      prompt_id: string;
    };
    const approved = await d.post(`/v1/approvals/${first.prompt_id}/approve`, { scope: "session" });
    expect(approved.status).toBe(200);

    const covered = (await (await d.decide(request({ session_id: "s-grant" }))).json()) as {
      source?: string;
    };
    expect(covered.source).toBe("session_grant");

    expect((await d.companion.get("/v1/grants/session")).status).toBe(403);
    const listed = (await (await d.approver.get("/v1/grants/session")).json()) as { grants: SessionGrant[] };
    expect(listed.grants).toEqual([
      expect.objectContaining({ session_id: "s-grant", agent_id: "claude-code", capability: "read" }),
    ]);
    const id = listed.grants[0]?.id ?? "";

    const byCompanion = await api(`/v1/grants/session/${id}`, { method: "DELETE", headers: d.headers });
    expect(byCompanion.status).toBe(403);

    const revoked = await api(`/v1/grants/session/${id}`, { method: "DELETE", headers: d.approver.headers });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ deleted: true });

    const asksAgain = await d.decide(request({ session_id: "s-grant" }));
    expect(asksAgain.status).toBe(202);
    const audit = (await (await d.get("/v1/audit?event=grant.session_revoked")).json()) as {
      events: { target: string }[];
    };
    expect(audit.events.map((e) => e.target)).toContain(id);

    const again = await api(`/v1/grants/session/${id}`, { method: "DELETE", headers: d.approver.headers });
    expect(again.status).toBe(404);
  });

  it("refuses a malformed id", async () => {
    const d = await device();
    const res = await api("/v1/grants/session/not-an-id", { method: "DELETE", headers: d.approver.headers });
    expect(res.status).toBe(400);
  });
});
