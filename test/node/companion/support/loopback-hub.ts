// A loopback hub for the daemon's edge link: a WebSocket server that welcomes a companion, records what it is sent
// (hellos with their resume lists, tool requests, the bearer each socket came with) and opens a prompt for every
// tool request. It can be stopped and started again on the same port, like an edge restart; the records persist.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type WebSocket, WebSocketServer } from "ws";
import { type Daemon, ensureBuilt, type Sandbox, sandbox, startDaemon } from "./sandbox.ts";

export const EMERGENCY = { readOnly: false, disableHighImpact: false, blockedTools: [] as string[] };

export interface Hello {
  type: "hello";
  resume?: string[];
}

export class LoopbackHub {
  http: Server | undefined;
  wss: WebSocketServer | undefined;
  readonly sockets = new Set<WebSocket>();
  readonly hellos: Hello[] = [];
  readonly requests: { id?: string; request: { call_id: string } }[] = [];
  readonly authorizations: (string | undefined)[] = [];
  /** The socket that connected last. */
  current: WebSocket | undefined;
  port = 0;
  /** The prompt every tool request is answered with (`decision_pending`). */
  readonly promptId: string;
  #waiters: Array<() => void> = [];

  constructor(promptId = "p-1") {
    this.promptId = promptId;
  }

  async start(port = 0): Promise<void> {
    this.http = createServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "not_found", message: "loopback hub: no REST here" } }));
    });
    this.wss = new WebSocketServer({ server: this.http });
    this.wss.on("connection", (ws, req) => {
      this.authorizations.push(req.headers.authorization);
      this.sockets.add(ws);
      this.current = ws;
      ws.on("close", () => this.sockets.delete(ws));
      ws.on("message", (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.type === "hello") {
          this.hellos.push(msg);
          ws.send(
            JSON.stringify({
              type: "welcome",
              role: "companion",
              deviceId: "d1",
              serverTime: new Date().toISOString(),
              emergency: EMERGENCY,
            }),
          );
        } else if (msg.type === "tool_request") {
          this.requests.push(msg);
          ws.send(
            JSON.stringify({
              type: "decision_pending",
              id: msg.id,
              callId: msg.request.call_id,
              promptId: this.promptId,
            }),
          );
        }
        for (const w of this.#waiters.splice(0)) w();
      });
    });
    await new Promise<void>((r) => this.http?.listen(port, "127.0.0.1", () => r()));
    this.port = (this.http.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((r) => (this.wss ? this.wss.close(() => r()) : r()));
    await new Promise<void>((r) => (this.http ? this.http.close(() => r()) : r()));
  }

  /** The call ids of every tool request received, in order (a resubmitted call appears again). */
  requestedCalls(): string[] {
    return this.requests.map((r) => r.request.call_id);
  }

  /** Sends the person's decision on a call to every connected socket. */
  decide(callId: string, decision: "allow" | "deny", reason = `${decision} on the phone`): void {
    for (const ws of this.sockets)
      ws.send(
        JSON.stringify({
          type: "capability_decision",
          data: { call_id: callId, decision, reason, source: "user", prompt_id: this.promptId },
        }),
      );
  }

  /** Resolves at the next message the hub receives after which `check` holds (at once if it holds already). */
  next(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the hub did not see it")), timeoutMs);
      const poll = () => {
        if (check()) {
          clearTimeout(timer);
          resolve();
        } else this.#waiters.push(poll);
      };
      poll();
    });
  }
}

/** Points the sandbox's companion at the hub: the credentials `airlock pair` would have written. */
export function linkToHub(box: Sandbox, hub: { port: number }, token: string): void {
  writeFileSync(
    join(box.airlockHome, "credentials.json"),
    JSON.stringify({ server: `http://127.0.0.1:${hub.port}`, token, device_id: "d1", user_id: "u1" }),
    { mode: 0o600 },
  );
}

/**
 * The hub started, a sandboxed companion (`env`) linked to it with `token` and a policy that allows reads and asks
 * the rest, and its daemon up once the hub has had its first hello.
 */
export async function daemonOnHub(
  hub: LoopbackHub,
  token: string,
  env: NodeJS.ProcessEnv,
): Promise<{ box: Sandbox; daemon: Daemon }> {
  await ensureBuilt();
  await hub.start();
  const box = sandbox(env);
  box.writePolicy(
    'default_action: ask\nrules:\n  - name: reads\n    condition: tool == "read"\n    action: allow\n',
  );
  linkToHub(box, hub, token);
  const daemon = await startDaemon(box.env);
  await hub.next(() => hub.hellos.length >= 1);
  return { box, daemon };
}
