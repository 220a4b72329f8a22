// The dashboard's one websocket to its UserHub: hello on every open, every message parsed with ServerMessage,
// keepalive pings, reconnects by itself with jittered backoff, and request/response for decisions.
import { type ClientMessage, ServerMessage } from "../../src/protocol/socket.ts";
import { reconnectDelay } from "./backoff.ts";

export type LinkState = "connecting" | "live" | "reconnecting";
export type ResponseMessage = Extract<ServerMessage, { type: "response" }>;
type DecisionMessage = Omit<Extract<ClientMessage, { type: "capability_decision" }>, "id">;

export interface HubSocketEvents {
  onMessage(message: ServerMessage): void;
  onState(state: LinkState): void;
  /** The socket closed; 4001 means this device was revoked, so it will not reconnect. */
  onClose(code: number): void;
}

/** Close code the hub uses for a revoked device. */
export const CLOSE_REVOKED = 4001;
const PING_EVERY_MS = 20_000;
// A phone that slept or changed network often keeps a half-open socket; no pong in time means reconnect.
const PONG_WITHIN_MS = 8_000;
const REQUEST_TIMEOUT_MS = 10_000;

interface Waiting {
  resolve(message: ResponseMessage): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class HubSocket {
  readonly #url: string;
  readonly #events: HubSocketEvents;
  #ws: WebSocket | null = null;
  #welcomed = false;
  #attempt = 0;
  #stopped = true;
  /** Set after the first drop, so the indicator says "Reconnecting…" rather than "Connecting…". */
  #retrying = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #pongTimer: ReturnType<typeof setTimeout> | undefined;
  #nextId = 0;
  #state: LinkState | null = null;
  readonly #waiting = new Map<string, Waiting>();

  constructor(url: string, events: HubSocketEvents) {
    this.#url = url;
    this.#events = events;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    if (typeof document !== "undefined") {
      window.addEventListener("online", this.#wake);
      document.addEventListener("visibilitychange", this.#wake);
    }
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    if (typeof document !== "undefined") {
      window.removeEventListener("online", this.#wake);
      document.removeEventListener("visibilitychange", this.#wake);
    }
    clearTimeout(this.#retryTimer);
    const ws = this.#ws;
    this.#drop();
    ws?.close(1000, "dashboard closed");
  }

  /** True once the hub said welcome on the current socket. */
  get live(): boolean {
    return this.#welcomed && this.#ws?.readyState === WebSocket.OPEN;
  }

  /** Sends a decision and resolves with the hub's `response` (success or its error). */
  decide(message: DecisionMessage): Promise<ResponseMessage> {
    const ws = this.#ws;
    if (!ws || !this.live) return Promise.reject(new Error("Not connected."));
    const id = `d${++this.#nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error("Airlock did not answer in time."));
      }, REQUEST_TIMEOUT_MS);
      this.#waiting.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...message, id } satisfies ClientMessage));
    });
  }

  #open(): void {
    if (this.#stopped) return;
    this.#setState(this.#retrying ? "reconnecting" : "connecting");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.#url);
    } catch {
      this.#scheduleRetry();
      return;
    }
    this.#ws = ws;
    ws.onopen = () => {
      const hello: ClientMessage = { type: "hello", client: { name: "airlock-dashboard", version: "0.1.0" } };
      ws.send(JSON.stringify(hello));
      this.#pingTimer = setInterval(() => this.#ping(ws), PING_EVERY_MS);
    };
    ws.onmessage = (event) => {
      if (ws === this.#ws) this.#receive(event.data);
    };
    ws.onclose = (event) => {
      if (ws === this.#ws) this.#closed(event.code);
    };
  }

  #receive(raw: unknown): void {
    if (typeof raw !== "string") return;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = ServerMessage.safeParse(data);
    if (!parsed.success) {
      console.warn("[airlock] ignored an unknown socket message");
      return;
    }
    const message = parsed.data;
    if (message.type === "welcome") {
      this.#welcomed = true;
      this.#attempt = 0;
      this.#setState("live");
    } else if (message.type === "pong") {
      clearTimeout(this.#pongTimer);
    } else if (message.type === "response" && message.id) {
      const waiting = this.#waiting.get(message.id);
      if (waiting) {
        this.#waiting.delete(message.id);
        clearTimeout(waiting.timer);
        waiting.resolve(message);
      }
    }
    this.#events.onMessage(message);
  }

  #ping(ws: WebSocket): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: "ping" } satisfies ClientMessage));
    clearTimeout(this.#pongTimer);
    this.#pongTimer = setTimeout(() => {
      if (ws !== this.#ws) return;
      this.#closed(1006);
      ws.close();
    }, PONG_WITHIN_MS);
  }

  /** Forgets the current socket: timers off, anyone awaiting an answer is told the link went away. */
  #drop(): void {
    clearInterval(this.#pingTimer);
    clearTimeout(this.#pongTimer);
    this.#ws = null;
    this.#welcomed = false;
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error("The connection dropped before Airlock answered."));
      this.#waiting.delete(id);
    }
  }

  #closed(code: number): void {
    this.#drop();
    this.#events.onClose(code);
    if (this.#stopped || code === CLOSE_REVOKED) return;
    this.#scheduleRetry();
  }

  #setState(state: LinkState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#events.onState(state);
  }

  #scheduleRetry(): void {
    this.#retrying = true;
    this.#setState("reconnecting");
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#open(), reconnectDelay(this.#attempt++));
  }

  /** Back online or back in the foreground: retry now rather than wait out the backoff. */
  readonly #wake = (): void => {
    if (this.#stopped || this.#ws || document.visibilityState === "hidden") return;
    clearTimeout(this.#retryTimer);
    this.#attempt = 0;
    this.#open();
  };
}
