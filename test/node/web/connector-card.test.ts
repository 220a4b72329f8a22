// Connector proposal cards (web/src/connector-card.ts): what the phone shows for an email, an event and a
// pull request, from the card's args text; anything else keeps the generic card.
import { describe, expect, it } from "vitest";
import { type ProposalView, proposalCard } from "../../../src/protocol/conveyor.ts";
import { connectorCard, identityLabel, PREVIEW_CHARS } from "../../../web/src/connector-card.ts";

describe("connector cards", () => {
  it("an email shows From, To, Cc, Subject and a body preview", () => {
    const args = {
      to: ["bob@example.org"],
      cc: ["carol@example.org"],
      bcc: [],
      subject: "Re: Lunch?",
      body: "Friday works.",
    };
    const card = connectorCard("gmail.send", JSON.stringify(args), "Gmail, from alice@example.com (as you)");
    expect(card).toEqual({
      kind: "email",
      rows: [
        ["From", "alice@example.com"],
        ["To", "bob@example.org"],
        ["Cc", "carol@example.org"],
        ["Subject", "Re: Lunch?"],
      ],
      preview: "Friday works.",
    });
  });

  it("a long body stays a preview: the card args stay valid JSON and the preview is cut", () => {
    const body = "x".repeat(5000);
    const view = {
      id: "prp_1",
      tool: "gmail.send",
      identity: "user",
      risk_class: "EXFILTRATION",
      gate: "ask_confirm",
      gate_reason: null,
      summary: { what: "Email", where: "Gmail", impact: "Sends" },
      justification: "j",
      args: { to: ["bob@example.org"], subject: "Long", body },
      source: { kind: "job", ref: null },
      expires_at: "2026-11-26T00:00:00Z",
    } as unknown as ProposalView;
    const text = proposalCard(view).args_text;
    expect(text.length).toBeLessThanOrEqual(2000);
    const card = connectorCard("gmail.send", text, "Gmail");
    expect(card?.rows).toContainEqual(["Subject", "Long"]);
    expect(card?.preview?.length).toBe(PREVIEW_CHARS);
    expect(card?.preview?.endsWith("…")).toBe(true);
  });

  it("an event shows when and who; a pull request its repo, branches and title", () => {
    const event = connectorCard(
      "calendar.create",
      JSON.stringify({
        calendar_id: "primary",
        title: "Planning",
        start: "2026-12-01T10:00:00Z",
        end: "2026-12-01T11:00:00Z",
        attendees: ["eve@elsewhere.example"],
      }),
      "Google Calendar primary of alice@example.com (as you)",
    );
    expect(event?.rows).toContainEqual(["When", "2026-12-01T10:00:00Z → 2026-12-01T11:00:00Z"]);
    expect(event?.rows).toContainEqual(["Who", "eve@elsewhere.example"]);
    const pr = connectorCard(
      "github.pr.create",
      JSON.stringify({
        repo: "acme/app",
        title: "Fix crash",
        head: "fix/crash",
        base: "main",
        body: "",
        draft: false,
      }),
      "GitHub acme/app (as the assistant, as octo)",
    );
    expect(pr?.rows).toEqual([
      ["Repository", "acme/app"],
      ["Branch", "fix/crash → main"],
      ["Title", "Fix crash"],
      ["Account", "GitHub acme/app (as the assistant, as octo)"],
    ]);
  });

  it("other tools keep the generic card; identity reads as you / as the assistant", () => {
    expect(connectorCard("http.request", JSON.stringify({ method: "POST" }), "x")).toBeNull();
    expect(connectorCard("gmail.send", "{not json", "x")).toBeNull();
    expect(identityLabel("user")).toBe("As you");
    expect(identityLabel("bot")).toBe("As the assistant");
  });
});
