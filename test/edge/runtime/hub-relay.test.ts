// The runtime's relay to the dashboards (UserHub.broadcastRuntime): it carries only the runtime's own message
// kinds. A hosted turn must never be able to put a prompt, a decision or an emergency change on the phone.
import { describe, expect, it } from "vitest";
import { NO_EMERGENCY } from "../../../src/policy/index.ts";
import type { ServerMessage } from "../../../src/protocol/socket.ts";
import { connect } from "../socket-client.ts";
import { device } from "./support.ts";

describe("the runtime's relay to dashboards", () => {
  it("refuses every message kind that is not the runtime's, and sends the runtime's", async () => {
    const d = await device();
    const phone = await connect(d.approver.headers, "approver");
    phone.send({ type: "hello", client: { name: "phone" } });
    await phone.next("welcome");
    const caller = { userId: d.userId, deviceId: null };
    const forged: ServerMessage[] = [
      { type: "emergency_updated", data: { ...NO_EMERGENCY, readOnly: true } },
      {
        type: "capability_decision",
        data: { call_id: "c1", decision: "allow", reason: "forged", source: "user" },
      },
      { type: "pong", serverTime: new Date().toISOString() },
    ];
    for (const message of forged) expect(await d.hub.broadcastRuntime(caller, message)).toBe(false);
    const note: ServerMessage = {
      type: "notification",
      data: { id: "ntf_1", title: "Job done", body: "ok" },
    };
    expect(await d.hub.broadcastRuntime(caller, note)).toBe(true);
    expect(await phone.next("notification")).toEqual(note);
    const kinds = phone.received.map((m) => m.type);
    for (const message of forged) expect(kinds).not.toContain(message.type);
    phone.ws.close();
  });
});
