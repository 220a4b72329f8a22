// The connectors' guards as properties: nothing with a line break reaches a mail header, connector
// endpoints can only be overridden to loopback, Retry-After is read as seconds or a date, and a token
// never leaves the Authorization header (not in results, envelopes, proposals or audit).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { overrideConnectorEndpointsForTests } from "../../../src/edge/connectors/config.ts";
import { retryAfterMs } from "../../../src/edge/connectors/provider-errors.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog, idempotency } from "../../../src/edge/db/schema.ts";
import { connectorRig, contract, uniqueAccount } from "./support.ts";

describe("connector guards", () => {
  it("no CR, LF or NUL ever reaches a mail header: refused, or trimmed away at the edges", async () => {
    const rig = await connectorRig();
    const tools = ["gmail.send", "gmail.reply", "gmail.draft"].map((n) => rig.registry.get(n));
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom("\r", "\n", "\0", "\r\nBcc: eve@evil.test\r\n"),
        fc.string(),
        (a, bad, b) => {
          const evil = `${a}${bad}${b}`;
          for (const tool of tools) {
            const base = { message_id: "abc", to: ["bob@example.org"], subject: "s", body: "b" };
            for (const args of [
              { ...base, subject: evil },
              { ...base, to: [`bob${evil}@example.org`] },
              { ...base, cc: [`${evil}@example.org`] },
            ]) {
              const parsed = tool?.schema.safeParse(args);
              if (!parsed?.success) continue;
              const p = parsed.data as { to: string[]; cc: string[]; bcc: string[]; subject: string };
              for (const field of [p.subject, ...p.to, ...p.cc, ...p.bcc])
                expect(/[\r\n\0]/.test(field)).toBe(false);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("endpoints can be overridden to loopback only", () => {
    const base = {
      gmail: "http://127.0.0.1:1",
      calendar: "http://127.0.0.1:2",
      github: "http://127.0.0.1:3",
      braveSearch: "http://127.0.0.1:4",
    };
    fc.assert(
      fc.property(
        fc.constantFrom("gmail", "calendar", "github", "braveSearch"),
        fc.oneof(
          fc.domain(),
          fc.ipV4().filter((ip) => !ip.startsWith("127.")),
        ),
        (key, host) => {
          expect(() => overrideConnectorEndpointsForTests({ ...base, [key]: `https://${host}` })).toThrow();
        },
      ),
      { numRuns: 200 },
    );
    // Restore the test entry's own endpoints (the throwing calls changed nothing).
    overrideConnectorEndpointsForTests(JSON.parse(env.TEST_CONNECTOR_ENDPOINTS));
  });

  it("Retry-After as seconds or an HTTP date; GitHub's reset only when the budget is spent", () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (s) => {
        expect(retryAfterMs(new Headers({ "retry-after": String(s) }), now)).toBe(s * 1000);
        const date = new Date(now + s * 1000).toUTCString();
        expect(retryAfterMs(new Headers({ "retry-after": date }), now)).toBe(s * 1000);
      }),
    );
    const reset = String(now / 1000 + 30);
    expect(retryAfterMs(new Headers({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }), now)).toBe(
      30_000,
    );
    expect(
      retryAfterMs(new Headers({ "x-ratelimit-remaining": "5", "x-ratelimit-reset": reset }), now),
    ).toBeUndefined();
  });

  it("a planted token never appears in a result, an envelope or the audit", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("planted");
    rig.connections.connect(rig.userId, "google", "user", me);
    const seeded = await contract.mail({
      account: me,
      from: "bob@example.org",
      subject: "Hi",
      body: "hello",
    });
    await rig.run("gmail.read", { message_id: seeded.id });
    await rig.run("gmail.send", { to: ["bob@example.org"], subject: "Re: Hi", body: "hello back" });
    const token = (await rig.connections.access(rig.userId, "google", "user"))?.accessToken ?? "";
    expect(token).toMatch(/^tk_google_/);
    const db = openDb(env.DB);
    const stored = JSON.stringify([
      await db.select().from(idempotency).where(eq(idempotency.ownerId, rig.userId)),
      await db.select().from(auditLog).where(eq(auditLog.userId, rig.userId)),
    ]);
    expect(stored).toContain(me);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain("tk_google_");
  });
});
