// A reply reads the original's thread and Message-ID before it sends, and the send scopes (gmail.send,
// gmail.compose) cannot read a message: a connection known to lack a read scope is refused before any call,
// naming gmail.readonly, and never sends; when Google itself refuses the read for scope, the error names the read
// scope too, not the send scope the connection has.
import { describe, expect, it } from "vitest";
import { connectorRig, contract, uniqueAccount } from "./support.ts";

const G = "https://www.googleapis.com/auth/";
const answer = (message_id: string) => ({
  message_id,
  to: ["bob@example.org"],
  subject: "Re: Lunch?",
  body: "Friday works.",
});

describe("gmail.reply needs a read scope as well as a send scope", () => {
  it("compose-only: refused before any call, naming gmail.readonly; nothing is sent", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("composer");
    rig.connections.connect(rig.userId, "google", "user", me, [`${G}gmail.compose`]);
    const mail = await contract.mail({
      account: me,
      from: "bob@example.org",
      subject: "Lunch?",
      body: "Friday?",
    });
    const ran = await rig.run("gmail.reply", answer(mail.id));
    expect(ran.status).toBe("failed");
    expect(ran.failure?.class).toBe("permission_denied");
    expect(ran.failure?.message).toContain(`lacks the scope ${G}gmail.readonly`);
    expect(ran.failure?.remediation).toContain(`grant ${G}gmail.readonly`);
    const stats = await contract.stats(me);
    expect(stats.requests).toHaveLength(0);
    expect(stats.sends).toHaveLength(0);
    // A draft answering a message reads it too; a new mail (no original to read) needs no read scope.
    const { message_id, ...fields } = answer(mail.id);
    const draft = await rig.run("gmail.draft", { ...fields, reply_to_message_id: message_id });
    expect(draft.failure?.message).toContain(`lacks the scope ${G}gmail.readonly`);
    const fresh = await rig.run("gmail.send", { to: ["bob@example.org"], subject: "Hi", body: "New mail." });
    expect(fresh.status).toBe("executed");
    expect((await contract.stats(me)).sends).toHaveLength(1);
  });

  it("read and compose: the reply reads the original and sends once, in its thread", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("both");
    rig.connections.connect(rig.userId, "google", "user", me, [`${G}gmail.readonly`, `${G}gmail.compose`]);
    const mail = await contract.mail({
      account: me,
      from: "bob@example.org",
      subject: "Lunch?",
      body: "Friday?",
    });
    const ran = await rig.run("gmail.reply", answer(mail.id));
    expect(ran.status).toBe("executed");
    const { sends } = await contract.stats(me);
    expect(sends).toHaveLength(1);
    expect(sends[0]?.threadId).toBe(mail.threadId);
  });

  it("Google's own 403 for scope on the read names the read scope, and nothing is sent", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("unknown-scopes");
    // Scopes unknown to Airlock (an empty list): the provider decides, and its refusal is reported precisely.
    rig.connections.connect(rig.userId, "google", "user", me, []);
    const mail = await contract.mail({
      account: me,
      from: "bob@example.org",
      subject: "Lunch?",
      body: "Friday?",
    });
    await contract.fault({
      api: "gmail",
      account: me,
      status: 403,
      kind: "scope",
      pathIncludes: "format=metadata",
    });
    const ran = await rig.run("gmail.reply", answer(mail.id));
    expect(ran.failure?.class).toBe("permission_denied");
    expect(ran.failure?.message).toContain(`lacks the scope ${G}gmail.readonly`);
    expect((await contract.stats(me)).sends).toHaveLength(0);
  });
});
