// A test websocket client against the Worker: connect, send, await the next message of a type.
import { exports } from "cloudflare:workers";
import { ServerMessage } from "../../src/protocol/socket.ts";
import { ORIGIN } from "./helpers.ts";

type Message = ServerMessage;

export interface TestSocket {
  ws: WebSocket;
  received: Message[];
  send(message: unknown): void;
  next<T extends Message["type"]>(type: T, timeoutMs?: number): Promise<Extract<Message, { type: T }>>;
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(
  headers: Record<string, string>,
  role?: "companion" | "approver" | "dashboard",
): Promise<TestSocket> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/v1/connect${role ? `?role=${role}` : ""}`, {
      headers: { upgrade: "websocket", ...headers },
    }),
  );
  const ws = res.webSocket;
  if (!ws) throw new Error(`no websocket: ${res.status} ${await res.text()}`);
  ws.accept();
  const received: Message[] = [];
  /** Messages no `next()` has taken yet, in arrival order. */
  const unread: Message[] = [];
  const waiting: { type: string; resolve: (m: Message) => void }[] = [];
  ws.addEventListener("message", (event) => {
    const message = ServerMessage.parse(JSON.parse(String(event.data)));
    received.push(message);
    const index = waiting.findIndex((w) => w.type === message.type);
    if (index >= 0) waiting.splice(index, 1)[0]?.resolve(message);
    else unread.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  return {
    ws,
    received,
    closed,
    send: (message) => ws.send(JSON.stringify(message)),
    next(type, timeoutMs = 3000) {
      const index = unread.findIndex((m) => m.type === type);
      if (index >= 0) return Promise.resolve(unread.splice(index, 1)[0] as never);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({
          type,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m as never);
          },
        });
      });
    },
  };
}
