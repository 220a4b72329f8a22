// The dashboard's HubSocket against a real websocket server on loopback: hello on every open, welcome makes it
// live, unknown messages are ignored (also those that wait for the lazily loaded validators), a dropped link
// reconnects by itself, decisions get their response.
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { ClientMessage, type ServerMessage } from "../../../src/protocol/socket.ts";
import { HubSocket, type LinkState } from "../../../web/src/hub-socket.ts";
import { loadedValidators } from "../../../web/src/load-validators.ts";

const welcome: ServerMessage = {
  type: "welcome",
  role: "approver",
  deviceId: "dev_test",
  serverTime: new Date().toISOString(),
  emergency: { readOnly: false, disableHighImpact: false, blockedTools: [] },
};

let server: WebSocketServer;
let url: string;
let sockets: WebSocket[];
let hellos: number;
let hub: HubSocket | undefined;

beforeEach(async () => {
  sockets = [];
  hellos = 0;
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("connection", (ws) => {
    sockets.push(ws);
    ws.on("message", (raw) => {
      const message = ClientMessage.parse(JSON.parse(String(raw)));
      if (message.type === "hello") {
        hellos++;
        ws.send(JSON.stringify({ type: "not_a_message" }));
        ws.send(JSON.stringify(welcome));
      } else if (message.type === "ping") {
        ws.send(JSON.stringify({ type: "pong", id: message.id, serverTime: new Date().toISOString() }));
      } else if (message.type === "capability_decision") {
        ws.send(
          JSON.stringify({
            type: "response",
            id: message.id,
            command: "capability_decision",
            success: message.decision === "deny_once",
            data: null,
            error: message.decision === "deny_once" ? null : "confirmation_required",
          } satisfies ServerMessage),
        );
      }
    });
  });
});

afterEach(async () => {
  hub?.stop();
  hub = undefined;
  for (const ws of sockets) ws.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Starts a HubSocket and returns helpers that await its state changes and messages. */
function connect() {
  const states: LinkState[] = [];
  const messages: ServerMessage[] = [];
  const closes: number[] = [];
  let synced = 0;
  let notify = () => {};
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; states ${states.join(",")}`)), 5000);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify = check;
      check();
    });
  hub = new HubSocket(url, {
    onState: (s) => {
      states.push(s);
      notify();
    },
    onMessage: (m) => {
      messages.push(m);
      notify();
    },
    onClose: (code) => {
      closes.push(code);
      notify();
    },
    onSynced: () => {
      synced++;
      notify();
    },
  });
  hub.start();
  return { hub, states, messages, closes, until, synced: () => synced };
}

describe("HubSocket", () => {
  // First in the file: nothing has loaded the validators yet, as on a page's first paint.
  it("holds messages that arrive before the validators, then parses them in order and drops the invalid", async () => {
    expect(loadedValidators()).toBeNull();
    const link = connect();
    await link.until(() => link.synced() === 1);
    expect(loadedValidators()).not.toBeNull();
    // The hub sent an unknown message and the welcome in one burst, before the validators were fetched.
    expect(link.messages.map((m) => m.type)).toEqual(["welcome", "pong"]);
    expect(link.states).toEqual(["connecting", "live"]);
  });

  it("says hello, goes live on welcome and ignores messages it cannot parse", async () => {
    const link = connect();
    await link.until(() => link.states.at(-1) === "live");
    expect(link.states).toEqual(["connecting", "live"]);
    expect(hellos).toBe(1);
    expect(link.messages[0]?.type).toBe("welcome");
    expect(link.messages.filter((m) => m.type !== "welcome" && m.type !== "pong")).toEqual([]);
    expect(link.hub.live).toBe(true);
  });

  it("marks the end of the hub's replay after each welcome (resume without a REST snapshot)", async () => {
    const link = connect();
    await link.until(() => link.synced() === 1);
    sockets[0]?.terminate();
    await link.until(() => link.synced() === 2);
    expect(hellos).toBe(2);
  });

  it("reconnects by itself after the link drops, and says hello again", async () => {
    const link = connect();
    await link.until(() => link.states.at(-1) === "live");
    sockets[0]?.terminate();
    await link.until(() => link.states.filter((s) => s === "live").length === 2);
    expect(link.states).toEqual(["connecting", "live", "reconnecting", "live"]);
    expect(hellos).toBe(2);
    expect(link.closes).toHaveLength(1);
  });

  it("does not reconnect a revoked device (close 4001)", async () => {
    const link = connect();
    await link.until(() => link.states.at(-1) === "live");
    sockets[0]?.close(4001, "device revoked");
    await link.until(() => link.closes.length === 1);
    expect(link.closes).toEqual([4001]);
    expect(link.states.at(-1)).toBe("live");
    expect(link.hub.live).toBe(false);
  });

  it("resolves a decision with the hub's response, success or refusal", async () => {
    const link = connect();
    await link.until(() => link.states.at(-1) === "live");
    const denied = await link.hub.decide({
      type: "capability_decision",
      promptId: "prm_1",
      decision: "deny_once",
    });
    expect(denied.success).toBe(true);
    const refused = await link.hub.decide({
      type: "capability_decision",
      promptId: "prm_1",
      decision: "allow_once",
    });
    expect(refused.success).toBe(false);
    expect(refused.error).toBe("confirmation_required");
  });

  it("refuses to send a decision while not connected", async () => {
    const link = connect();
    await expect(
      link.hub.decide({ type: "capability_decision", promptId: "prm_1", decision: "deny_once" }),
    ).rejects.toThrow("Not connected.");
  });
});
