// The daemon's adapter over the shared session client, against a real `ws` server: the Bearer token rides the
// upgrade, hello names the companion and carries the resume ids, and a 401 at the upgrade (a dead token) ends the
// session as revoked with no reconnect scheduled.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { HubConnection, type HubState } from "../../../src/companion/daemon/hub-connection.ts";
import { ClientMessage, type ServerMessage } from "../../../src/protocol/socket.ts";

let http: Server | undefined;
let wss: WebSocketServer | undefined;
let hub: HubConnection | undefined;

afterEach(async () => {
  hub?.stop();
  for (const ws of wss?.clients ?? []) ws.terminate();
  await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  http = wss = hub = undefined;
});

/** A hub on loopback; `refuse` answers every upgrade 401. Returns its base URL and what it saw. */
async function startHub(refuse: boolean) {
  const seen = { upgrades: 0, authorizations: [] as (string | undefined)[], hellos: [] as ClientMessage[] };
  http = createServer();
  wss = new WebSocketServer({ noServer: true });
  http.on("upgrade", (req, socket, head) => {
    seen.upgrades++;
    seen.authorizations.push(req.headers.authorization);
    if (refuse) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss?.handleUpgrade(req, socket, head, (ws) => {
      ws.on("message", (raw) => {
        const message = ClientMessage.parse(JSON.parse(String(raw)));
        if (message.type !== "hello") return;
        seen.hellos.push(message);
        const welcome: ServerMessage = {
          type: "welcome",
          role: "companion",
          deviceId: "dev_1",
          serverTime: new Date().toISOString(),
          emergency: { readOnly: false, disableHighImpact: false, blockedTools: [] },
        };
        ws.send(JSON.stringify(welcome));
      });
    });
  });
  await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", () => resolve()));
  return { server: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, seen };
}

function open(server: string, resume: string[]) {
  const states: { state: HubState; detail: string | null }[] = [];
  let notify = () => {};
  const until = (state: HubState) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${state}; saw ${JSON.stringify(states)}`)), 5000);
      notify = () => {
        if (states.some((s) => s.state === state)) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify();
    });
  hub = new HubConnection(
    server,
    "alk_tok.secret",
    {
      onMessage: () => {},
      onState: (state, detail) => {
        states.push({ state, detail });
        notify();
      },
      resumeIds: () => resume,
    },
    "9.9.9",
  );
  hub.start();
  return { hub, states, until };
}

describe("HubConnection", () => {
  it("sends the token on the upgrade and a companion hello with the resume ids", async () => {
    const { server, seen } = await startHub(false);
    const link = open(server, ["call_1"]);
    await link.until("connected");
    expect(link.hub.connected).toBe(true);
    expect(seen.authorizations).toEqual(["Bearer alk_tok.secret"]);
    expect(seen.hellos).toEqual([
      { type: "hello", client: { name: "airlock-companion", version: "9.9.9" }, resume: ["call_1"] },
    ]);
  });

  it("a 401 at the upgrade marks the device revoked and schedules no reconnect", async () => {
    const { server, seen } = await startHub(true);
    const link = open(server, []);
    await link.until("revoked");
    expect(link.states.at(-1)).toEqual({
      state: "revoked",
      detail: "the edge rejected this device's token (revoked?)",
    });
    expect(link.hub.reconnects).toBe(0);
    expect(seen.upgrades).toBe(1);
  });
});
