// Calendar tools against the Calendar v3 contract server: reads, an insert that can never make two events,
// invitees outside the account's domain make a proposal EXFILTRATION, deletes are DESTRUCTIVE and once.
import { describe, expect, it } from "vitest";
import { connectorRig, contract, resultOf, uniqueAccount } from "./support.ts";

const event = (attendees: string[] = []) => ({
  title: "Planning",
  start: "2026-12-01T10:00:00Z",
  end: "2026-12-01T11:00:00Z",
  attendees,
});

describe("calendar", () => {
  it("creates, lists, checks free/busy, updates and deletes (a second delete is already done)", async () => {
    const rig = await connectorRig();
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const made = await rig.run("calendar.create", event());
    expect(made.status).toBe("executed");
    const id = String(resultOf(made).id);
    const listed = await rig.run("calendar.list", {
      time_min: "2026-12-01T00:00:00Z",
      time_max: "2026-12-02T00:00:00Z",
    });
    expect(resultOf(listed)).toMatchObject({
      untrusted: true,
      events: [expect.objectContaining({ id, summary: "Planning" })],
    });
    const busy = await rig.run("calendar.freebusy", {
      time_min: "2026-12-01T00:00:00Z",
      time_max: "2026-12-02T00:00:00Z",
    });
    expect(String(resultOf(busy).text)).toContain("2026-12-01T10:00:00Z–2026-12-01T11:00:00Z");
    const moved = await rig.run("calendar.update", {
      event_id: id,
      start: "2026-12-01T12:00:00Z",
      end: "2026-12-01T13:00:00Z",
    });
    expect(resultOf(moved)).toMatchObject({ start: "2026-12-01T12:00:00Z" });
    expect((await rig.run("calendar.delete", { event_id: id })).status).toBe("executed");
    const again = await rig.run("calendar.delete", { event_id: id });
    expect(resultOf(again)).toMatchObject({ already_deleted: true });
  });

  it("the event id comes from the run's key: a repeated insert answers the existing event, never a second", async () => {
    let clock = Date.now();
    let crash = true;
    const rig = await connectorRig({
      now: () => clock,
      fault: (p) => {
        if (p === "after_effect" && crash) {
          crash = false;
          throw new Error("crash after the insert");
        }
      },
    });
    const me = uniqueAccount("alice");
    rig.connections.connect(rig.userId, "google", "user", me);
    const key = `cal-${crypto.randomUUID()}`;
    await expect(rig.run("calendar.create", event(), "user", key)).rejects.toThrow("crash");
    clock += 10 * 60_000;
    const recovered = await rig.run("calendar.create", event(), "user", key);
    expect(recovered.status).toBe("executed");
    expect(resultOf(recovered)).toMatchObject({ already_created: true });
    expect((await contract.stats(me)).events).toHaveLength(1);
  });

  it("an invitee outside the account's domain makes create/update EXFILTRATION; inside stays WRITE", async () => {
    const rig = await connectorRig();
    rig.connections.connect(rig.userId, "google", "user", "alice@corp.example");
    const create = rig.registry.get("calendar.create");
    const ctx = { userId: rig.userId, identity: "user" as const };
    const inside = create?.schema.parse(event(["bob@corp.example"]));
    const outside = create?.schema.parse(event(["bob@corp.example", "eve@elsewhere.example"]));
    expect((await create?.contextual?.(inside, ctx))?.riskClass).toBe("WRITE");
    expect((await create?.contextual?.(outside, ctx))?.riskClass).toBe("EXFILTRATION");
    // Without a connection the domain is unknown: every invitee counts as outside.
    expect((await create?.contextual?.(inside, { ...ctx, identity: "bot" }))?.riskClass).toBe("EXFILTRATION");
    expect(create?.riskClass(inside)).toBe("EXFILTRATION");
    expect(create?.riskClass(create.schema.parse(event()))).toBe("WRITE");
    const update = rig.registry.get("calendar.update");
    const add = update?.schema.parse({ event_id: "abcde", attendees: ["eve@elsewhere.example"] });
    expect((await update?.contextual?.(add, ctx))?.riskClass).toBe("EXFILTRATION");
    expect(rig.registry.get("calendar.delete")?.riskClass({})).toBe("DESTRUCTIVE");
  });

  it("refuses a window that ends before it starts", async () => {
    const rig = await connectorRig();
    const list = rig.registry.get("calendar.list");
    expect(
      list?.schema.safeParse({ time_min: "2026-12-02T00:00:00Z", time_max: "2026-12-01T00:00:00Z" }).success,
    ).toBe(false);
  });
});
