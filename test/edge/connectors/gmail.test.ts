// Gmail tools against the Gmail v1 contract server: reads parse MIME and come back untrusted; a send is
// built by mimetext, carries its idempotency key as a header and happens once; errors say what to do.
import { describe, expect, it } from "vitest";
import { connectorRig, contract, resultOf, uniqueAccount } from "./support.ts";

const mail = (to: string[], extra: Record<string, unknown> = {}) => ({
  to,
  subject: "Invoice 42",
  body: "Hello,\nthe invoice is attached.\n",
  ...extra,
});

describe("gmail reads", () => {
  it("fails with 'Connect Google first' when the identity has no connection, and calls nothing", async () => {
    const rig = await connectorRig();
    const bot = uniqueAccount("bot");
    rig.connections.connect(rig.userId, "google", "bot", bot);
    const ran = await rig.run("gmail.search", { query: "is:unread" }, "user");
    expect(ran.status).toBe("failed");
    expect(ran.failure?.class).toBe("permission_denied");
    expect(ran.failure?.message).toContain("Connect Google first");
    expect(ran.failure?.message).toContain("as you");
    expect((await contract.stats(bot)).requests).toHaveLength(0);
  });

  it("searches unread mail and reads one, parsed by postal-mime and labelled untrusted", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    const id = rig.connections.connect(rig.userId, "google", "user", me);
    const seeded = await contract.mail({
      account: me,
      from: "Bob <bob@example.org>",
      subject: "Lunch?",
      body: "Are you free on Friday?",
    });
    await contract.mail({
      account: me,
      from: "old@example.org",
      subject: "Old",
      body: "read already",
      labels: ["INBOX"],
    });
    const found = await rig.run("gmail.search", { query: "is:unread in:inbox" });
    expect(found.status).toBe("executed");
    const list = resultOf(found);
    expect(list.untrusted).toBe(true);
    expect(list.messages).toEqual([
      expect.objectContaining({
        id: seeded.id,
        from: "Bob <bob@example.org>",
        subject: "Lunch?",
        unread: true,
      }),
    ]);
    const read = await rig.run("gmail.read", { message_id: seeded.id });
    const body = resultOf(read);
    expect(body).toMatchObject({
      untrusted: true,
      from: "Bob <bob@example.org>",
      subject: "Lunch?",
      thread_id: seeded.threadId,
    });
    expect(body.text).toContain("Are you free on Friday?");
    expect(rig.connections.lastUsed(id)).not.toBeNull();
  });

  it("reads an HTML-only mail as text", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const seeded = await contract.mail({
      account: me,
      from: "news@example.org",
      subject: "News",
      body: "<p>Big <b>news</b> &amp; more</p><script>x()</script>",
      html: true,
    });
    const text = String(resultOf(await rig.run("gmail.read", { message_id: seeded.id })).text);
    expect(text).toContain("Big news & more");
    expect(text).not.toContain("<b>");
    expect(text).not.toContain("x()");
  });

  it("answers 404 for a message that does not exist", async () => {
    const rig = await connectorRig();
    rig.connections.connect(rig.userId, "google", "user", uniqueAccount("alice"));
    const ran = await rig.run("gmail.read", { message_id: "doesnotexist" });
    expect(ran.status).toBe("failed");
    expect(ran.failure?.message).toContain("Not found at Google (HTTP 404)");
  });
});

describe("gmail errors", () => {
  it("401: refreshes once and retries with the new token", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 401 });
    const ran = await rig.run("gmail.search", { query: "in:inbox" });
    expect(ran.status).toBe("executed");
    expect(rig.connections.refreshes).toBe(1);
    const gens = (await contract.stats(me)).requests.map((r) => [r.status, r.tokenGeneration]);
    expect(gens).toEqual([
      [401, 1],
      [200, 2],
    ]);
  });

  it("401 after the refresh too: fails and says to reconnect, no third try", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 401, times: 5 });
    const ran = await rig.run("gmail.search", { query: "in:inbox" });
    expect(ran.failure?.message).toContain("even after a refresh");
    expect(ran.failure?.remediation).toContain("Reconnect Google");
    expect((await contract.stats(me)).requests).toHaveLength(2);
  });

  it("a revoked connection stops the next call", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    const id = rig.connections.connect(rig.userId, "google", "user", me);
    expect((await rig.run("gmail.search", { query: "in:inbox" })).status).toBe("executed");
    rig.connections.revoke(id);
    const ran = await rig.run("gmail.search", { query: "in:inbox" });
    expect(ran.failure?.message).toContain("Connect Google first");
    expect((await contract.stats(me)).requests).toHaveLength(1);
  });

  it("403 insufficient scope names the scope; a connection known to lack it is refused before any call", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 403, kind: "scope" });
    const ran = await rig.run("gmail.send", mail(["bob@example.org"]));
    expect(ran.failure?.class).toBe("permission_denied");
    expect(ran.failure?.message).toContain("lacks the scope https://www.googleapis.com/auth/gmail.send");

    const narrow = await connectorRig();
    const reader = uniqueAccount("reader");
    narrow.connections.connect(narrow.userId, "google", "user", reader, [
      "https://www.googleapis.com/auth/gmail.readonly",
    ]);
    const refused = await narrow.run("gmail.send", mail(["bob@example.org"]));
    expect(refused.failure?.message).toContain("lacks the scope https://www.googleapis.com/auth/gmail.send");
    expect((await contract.stats(reader)).requests).toHaveLength(0);
  });

  it("429: waits as Retry-After says, then succeeds; a wait past the bound fails and says how long", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 429, retryAfter: 2 });
    expect((await rig.run("gmail.search", { query: "in:inbox" })).status).toBe("executed");
    expect(rig.waits).toEqual([2000]);

    await contract.fault({ api: "gmail", account: me, status: 429, retryAfter: 3600 });
    const slow = await rig.run("gmail.search", { query: "in:inbox" });
    expect(slow.failure?.message).toContain("asks to wait 3600 s");
    expect(rig.waits).toEqual([2000]);
  });

  it("429 forever: at most two waits, then a clear failure", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 429, retryAfter: 1, times: 10 });
    const ran = await rig.run("gmail.search", { query: "in:inbox" });
    expect(ran.failure?.message).toContain("rate limiting");
    expect(rig.waits).toEqual([1000, 1000]);
    expect((await contract.stats(me)).requests).toHaveLength(3);
  });

  it("5xx: a read is retried (bounded); a send is never repeated and ends PARTIAL", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    await contract.fault({ api: "gmail", account: me, status: 503 });
    expect((await rig.run("gmail.search", { query: "in:inbox" })).status).toBe("executed");
    expect(rig.waits).toEqual([250]);

    await contract.fault({ api: "gmail", account: me, status: 500, method: "POST" });
    const sent = await rig.run("gmail.send", mail(["bob@example.org"]));
    expect(sent.status).toBe("partial");
    expect(sent.failure?.class).toBe("partial_execution");
    const posts = (await contract.stats(me)).requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect(rig.waits).toEqual([250]);
  });
});

describe("gmail sends", () => {
  it("sends once as the identity's account with the idempotency key as a header; the same key replays", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const args = mail(["bob@example.org"], { cc: ["carol@example.org"] });
    const first = await rig.run("gmail.send", args);
    expect(first.status).toBe("executed");
    const again = await rig.run("gmail.send", args, "user", first.key);
    expect(again.status).toBe("executed");
    const { sends } = await contract.stats(me);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      from: me,
      to: ["bob@example.org"],
      cc: ["carol@example.org"],
      subject: "Invoice 42",
      idempotencyKey: `gmail.send:${first.key}`,
    });
    expect(sends[0]?.text).toContain("the invoice is attached");
  });

  it("the identity picks the mailbox: bot sends as the assistant's account, never the person's", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    const bot = uniqueAccount("assistant");
    rig.connections.connect(rig.userId, "google", "user", me);
    rig.connections.connect(rig.userId, "google", "bot", bot);
    await rig.run("gmail.send", mail(["bob@example.org"]), "bot");
    expect((await contract.stats(bot)).sends.map((s) => s.from)).toEqual([bot]);
    expect((await contract.stats(me)).sends).toHaveLength(0);
  });

  it("a crash after the send never sends again: the recovered run is PARTIAL", async () => {
    let crash = true;
    let clock = Date.now();
    const rig = await connectorRig({
      now: () => clock,
      fault: (p) => {
        if (p === "after_effect" && crash) {
          crash = false;
          throw new Error("crash after the send");
        }
      },
    });
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const key = `crash-${crypto.randomUUID()}`;
    await expect(rig.run("gmail.send", mail(["bob@example.org"]), "user", key)).rejects.toThrow("crash");
    // The crashed run's lease runs out; the next caller of the same key takes the run over.
    clock += 10 * 60_000;
    const recovered = await rig.run("gmail.send", mail(["bob@example.org"]), "user", key);
    expect(recovered.status).toBe("partial");
    expect(recovered.failure?.class).toBe("partial_execution");
    expect((await contract.stats(me)).sends).toHaveLength(1);
  });

  it("replies in the original's thread with In-Reply-To, to exactly the recipients on the card", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const original = await contract.mail({
      account: me,
      from: "bob@example.org",
      subject: "Lunch?",
      body: "Friday?",
    });
    const ran = await rig.run("gmail.reply", {
      message_id: original.id,
      to: ["bob@example.org"],
      subject: "Re: Lunch?",
      body: "Yes!",
    });
    expect(ran.status).toBe("executed");
    const [sent] = (await contract.stats(me)).sends;
    expect(sent).toMatchObject({
      threadId: original.threadId,
      to: ["bob@example.org"],
      inReplyTo: `<${original.id}@mail.example.test>`,
    });
  });

  it("drafts stay in the mailbox: a draft is saved, nothing is sent", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const ran = await rig.run("gmail.draft", mail(["bob@example.org"]));
    expect(ran.status).toBe("executed");
    const stats = await contract.stats(me);
    expect(stats.drafts).toHaveLength(1);
    expect(stats.sends).toHaveLength(0);
  });

  it("refuses header injection in recipients and subject", () => {
    return connectorRig().then((rig) => {
      const send = rig.registry.get("gmail.send");
      expect(send?.schema.safeParse(mail(["bob@example.org\r\nBcc: eve@evil.test"])).success).toBe(false);
      expect(
        send?.schema.safeParse(mail(["bob@example.org"], { subject: "Hi\r\nBcc: eve@evil.test" })).success,
      ).toBe(false);
    });
  });
});
