// The shared SessionClient against a real websocket server on loopback: hello with the resume ids read at every
// open, reconnect after a drop with backoff, no reconnect after a revoked close, a half-open link (the hub stops
// answering pings) found and replaced, a request that times out, and the backoff's bounds as a property.
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { BACKOFF, backoffDelay, CLOSE_CODES } from "../../../src/protocol/session.ts";
import {
  type Connect,
  SessionClient,
  type SessionOptions,
  type SessionState,
} from "../../../src/protocol/session-client.ts";
import { ClientMessage, ServerMessage } from "../../../src/protocol/socket.ts";

const welcome: ServerMessage = {
  type: "welcome",
  role: "companion",
  deviceId: "dev_test",
  serverTime: new Date().toISOString(),
  emergency: { readOnly: false, disableHighImpact: false, blockedTools: [] },
};

let server: WebSocketServer;
let url: string;
let sockets: WebSocket[];
let hellos: Extract<ClientMessage, { type: "hello" }>[];
/** While false the hub reads pings and never answers them (a half-open link as the client sees it). */
let answerPings: boolean;
/** While false the hub never answers a capability_decision. */
let answerDecisions: boolean;
let session: SessionClient | undefined;

beforeEach(async () => {
  sockets = [];
  hellos = [];
  answerPings = true;
  answerDecisions = true;
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("connection", (ws) => {
    sockets.push(ws);
    ws.on("message", (raw) => {
      const message = ClientMessage.parse(JSON.parse(String(raw)));
      if (message.type === "hello") {
        hellos.push(message);
        ws.send(JSON.stringify(welcome));
      } else if (message.type === "ping" && answerPings) {
        ws.send(JSON.stringify({ type: "pong", id: message.id, serverTime: new Date().toISOString() }));
      } else if (message.type === "capability_decision" && answerDecisions) {
        const response: ServerMessage = {
          type: "response",
          id: message.id,
          command: "capability_decision",
          success: true,
          data: null,
          error: null,
        };
        ws.send(JSON.stringify(response));
      }
    });
  });
});

afterEach(async () => {
  session?.stop();
  session = undefined;
  for (const ws of sockets) ws.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Node's own WebSocket (the WHATWG one, as in a browser). */
const nodeSocket: Connect = (events) => {
  const ws = new globalThis.WebSocket(url);
  ws.addEventListener("open", () => events.opened());
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string") events.received(event.data);
  });
  ws.addEventListener("error", () => events.failed("socket error"));
  ws.addEventListener("close", (event) => events.closed(event.code, event.reason));
  return {
    get open() {
      return ws.readyState === globalThis.WebSocket.OPEN;
    },
    send: (text) => ws.send(text),
    close: (code, reason) => ws.close(code, reason),
  };
};

/** Starts a session and returns what it reported, with a helper that awaits a condition on it. */
function connect(extra: Partial<SessionOptions> = {}, resumeIds: () => string[] = () => []) {
  const states: { state: SessionState; detail: string | null; at: number }[] = [];
  const closes: number[] = [];
  const messages: ServerMessage[] = [];
  let synced = 0;
  let ignored = 0;
  let notify = () => {};
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out; states ${states.map((s) => s.state).join(",")}`)),
        5000,
      );
      notify = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify();
    });
  const client = new SessionClient({
    connect: nodeSocket,
    client: { name: "session-test", version: "1" },
    parser: () => ServerMessage,
    random: () => 0,
    events: {
      onMessage: (m) => {
        messages.push(m);
        notify();
      },
      onState: (state, detail) => {
        states.push({ state, detail, at: Date.now() });
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
      onIgnored: () => {
        ignored++;
      },
      resumeIds,
    },
    ...extra,
  });
  session = client;
  client.start();
  const count = (state: SessionState) => states.filter((s) => s.state === state).length;
  return {
    client,
    states,
    closes,
    messages,
    until,
    count,
    synced: () => synced,
    ignored: () => ignored,
  };
}

describe("SessionClient", () => {
  it("says hello with the resume ids read at each open, and marks the replay's end after each welcome", async () => {
    let waiting = ["call_a"];
    const link = connect({}, () => waiting);
    await link.until(() => link.synced() === 1);
    expect(link.client.live).toBe(true);
    waiting = ["call_a", "call_b"];
    sockets[0]?.terminate();
    await link.until(() => link.synced() === 2);
    expect(hellos.map((h) => h.resume)).toEqual([["call_a"], ["call_a", "call_b"]]);
    expect(hellos[0]?.client).toEqual({ name: "session-test", version: "1" });
  });

  it("leaves resume out of hello when nothing is waiting", async () => {
    const link = connect();
    await link.until(() => link.count("connected") === 1);
    expect(hellos).toHaveLength(1);
    expect(hellos[0]).not.toHaveProperty("resume");
  });

  it("reconnects after a drop, no sooner than the backoff's floor, and counts it", async () => {
    const link = connect();
    await link.until(() => link.count("connected") === 1);
    sockets[0]?.terminate();
    await link.until(() => link.count("connected") === 2);
    expect(link.states.map((s) => s.state)).toEqual([
      "connecting",
      "connected",
      "disconnected",
      "connecting",
      "connected",
    ]);
    const down = link.states[2]?.at ?? 0;
    const again = link.states[3]?.at ?? 0;
    expect(again - down).toBeGreaterThanOrEqual(BACKOFF.minMs - 5);
    expect(link.client.reconnects).toBe(1);
    expect(link.closes).toHaveLength(1);
  });

  it("does not reconnect a revoked device, and fails what was waiting", async () => {
    answerDecisions = false;
    const link = connect();
    await link.until(() => link.count("connected") === 1);
    const waiting = link.client.request({
      type: "capability_decision",
      promptId: "p",
      decision: "deny_once",
    });
    sockets[0]?.close(CLOSE_CODES.revoked, "device revoked");
    await expect(waiting).rejects.toThrow("dropped");
    await link.until(() => link.count("revoked") === 1);
    expect(link.closes).toEqual([CLOSE_CODES.revoked]);
    expect(link.client.state).toBe("revoked");
    expect(link.client.live).toBe(false);
    expect(link.client.reconnects).toBe(0);
    // A later wake-up does not bring a revoked session back.
    link.client.reconnect("wake");
    expect(link.client.state).toBe("revoked");
    expect(hellos).toHaveLength(1);
  });

  it("finds a half-open link (pings unanswered), ends it and connects again", async () => {
    const link = connect({ timing: { pingIntervalMs: 50, pongDeadlineMs: 100 } });
    await link.until(() => link.synced() === 1);
    answerPings = false;
    await link.until(() => link.count("disconnected") === 1);
    expect(link.states.find((s) => s.state === "disconnected")?.detail).toBe(
      "the edge stopped answering pings",
    );
    expect(link.closes).toEqual([CLOSE_CODES.client_restart]);
    answerPings = true;
    await link.until(() => link.count("connected") === 2);
    expect(hellos).toHaveLength(2);
  });

  it("resolves a request with the reply carrying its id, and rejects one the hub never answers", async () => {
    const link = connect();
    await link.until(() => link.count("connected") === 1);
    const reply = await link.client.request({
      type: "capability_decision",
      promptId: "prm_1",
      decision: "deny_once",
    });
    expect(reply).toMatchObject({ type: "response", success: true });
    answerDecisions = false;
    await expect(
      link.client.request({ type: "capability_decision", promptId: "prm_1", decision: "deny_once" }, 50),
    ).rejects.toThrow("did not answer in time");
    expect(link.client.live).toBe(true);
  });

  it("refuses to send or request before the welcome", async () => {
    const link = connect();
    expect(link.client.send({ type: "ping" })).toBe(false);
    await expect(
      link.client.request({ type: "capability_decision", promptId: "p", decision: "deny_once" }),
    ).rejects.toThrow("Not connected.");
  });

  it("ignores what does not parse, in order with what does", async () => {
    server.removeAllListeners("connection");
    server.on("connection", (ws) => {
      sockets.push(ws);
      ws.send("not json");
      ws.send(JSON.stringify({ type: "not_a_message" }));
      ws.send(JSON.stringify(welcome));
    });
    const link = connect();
    await link.until(() => link.count("connected") === 1);
    expect(link.messages.map((m) => m.type)).toEqual(["welcome"]);
    expect(link.ignored()).toBe(2);
  });
});

describe("backoffDelay", () => {
  it("stays within the bounds, and its ceiling never shrinks as attempts grow", () => {
    fc.assert(
      fc.property(
        fc.nat(1_000),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = backoffDelay(attempt, r);
          expect(delay).toBeGreaterThanOrEqual(BACKOFF.minMs);
          expect(delay).toBeLessThanOrEqual(BACKOFF.maxMs);
          expect(backoffDelay(attempt + 1, 0.999999)).toBeGreaterThanOrEqual(backoffDelay(attempt, 0.999999));
        },
      ),
    );
  });

  it("spreads the first retry (full jitter) and reaches the cap", () => {
    expect(backoffDelay(0, 0)).toBe(BACKOFF.minMs);
    expect(backoffDelay(0, 0.5)).toBeGreaterThan(BACKOFF.minMs);
    expect(backoffDelay(20, 0.999999)).toBeCloseTo(BACKOFF.maxMs, -1);
  });
});
