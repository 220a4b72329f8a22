// The daemon's one websocket to the user's UserHub: hello with resumed calls, jittered reconnect, typed messages.
import WebSocket from "ws";
import { type ClientMessage, ServerMessage } from "../../protocol/index.ts";

export type HubState = "connecting" | "connected" | "disconnected" | "revoked";

export interface HubEvents {
  onMessage(message: ServerMessage): void;
  onState(state: HubState, detail: string | null): void;
  /** Call ids to resume in `hello`, read at each (re)connect. */
  resumeIds(): string[];
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 15_000;
const PING_EVERY_MS = 15_000;
/** No message at all (a pong answers every ping) for this long: the link is dead even if TCP has not said so. */
const SILENCE_LIMIT_MS = 2 * PING_EVERY_MS + 5_000;
/** The hub closes a revoked device's socket with this code. */
const REVOKED_CLOSE = 4001;

export class HubConnection {
  readonly #url: string;
  readonly #token: string;
  readonly #events: HubEvents;
  readonly #version: string;
  #socket: WebSocket | null = null;
  #attempt = 0;
  #timer: NodeJS.Timeout | null = null;
  #ping: NodeJS.Timeout | null = null;
  #stopped = false;
  #lastHeard = 0;
  #state: HubState = "disconnected";
  reconnects = 0;

  constructor(server: string, token: string, events: HubEvents, version = "0.1.0") {
    this.#url = `${server.replace(/^http/, "ws")}/v1/connect?role=companion`;
    this.#token = token;
    this.#events = events;
    this.#version = version;
  }

  get state(): HubState {
    return this.#state;
  }

  get connected(): boolean {
    return this.#state === "connected" && this.#socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.#stopped = false;
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#ping) clearInterval(this.#ping);
    this.#socket?.close(1000, "daemon stopping");
    this.#socket = null;
  }

  /** Sends when connected; false means the message was not sent (the caller resends after the next welcome). */
  send(message: ClientMessage): boolean {
    if (!this.connected || !this.#socket) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #setState(state: HubState, detail: string | null): void {
    this.#state = state;
    this.#events.onState(state, detail);
  }

  #open(): void {
    if (this.#stopped) return;
    this.#setState("connecting", null);
    const socket = new WebSocket(this.#url, {
      headers: { authorization: `Bearer ${this.#token}` },
      handshakeTimeout: 10_000,
    });
    this.#socket = socket;
    let failure: string | null = null;
    socket.on("open", () => {
      const hello: ClientMessage = {
        type: "hello",
        client: { name: "airlock-companion", version: this.#version },
      };
      const resume = this.#events.resumeIds().slice(0, 1000);
      if (resume.length > 0) hello.resume = resume;
      socket.send(JSON.stringify(hello));
    });
    socket.on("unexpected-response", (_req, res) => {
      failure =
        res.statusCode === 401
          ? "the edge rejected this device's token (revoked?)"
          : `HTTP ${res.statusCode}`;
      if (res.statusCode === 401) this.#stopped = true;
      socket.terminate();
    });
    socket.on("message", (data) => {
      this.#lastHeard = Date.now();
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        return;
      }
      const parsed = ServerMessage.safeParse(raw);
      if (!parsed.success) return;
      if (parsed.data.type === "welcome") {
        this.#attempt = 0;
        this.#setState("connected", null);
        if (this.#ping) clearInterval(this.#ping);
        this.#ping = setInterval(() => {
          // A half-open link (a sleeping laptop, a dropped NAT entry) never closes by itself: end it and reconnect.
          if (Date.now() - this.#lastHeard > SILENCE_LIMIT_MS) {
            failure = "the edge stopped answering pings";
            socket.terminate();
            return;
          }
          this.send({ type: "ping" });
        }, PING_EVERY_MS);
      }
      this.#events.onMessage(parsed.data);
    });
    socket.on("error", (error) => {
      failure ??= error.message;
    });
    socket.on("close", (code, reason) => {
      if (this.#ping) clearInterval(this.#ping);
      this.#ping = null;
      if (this.#socket === socket) this.#socket = null;
      if (code === REVOKED_CLOSE || (this.#stopped && failure?.includes("revoked"))) {
        this.#stopped = true;
        this.#setState(
          "revoked",
          failure ?? 'this device was revoked; pair again with "airlock pair <code>"',
        );
        return;
      }
      this.#setState("disconnected", failure ?? (reason.toString() || `closed (${code})`));
      if (!this.#stopped) this.#schedule();
    });
  }

  /** Full-jitter exponential backoff, so many companions do not reconnect in step after an edge restart. */
  #schedule(): void {
    const cap = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.#attempt);
    this.#attempt = Math.min(this.#attempt + 1, 10);
    const delay = MIN_BACKOFF_MS / 2 + Math.random() * cap;
    this.reconnects++;
    this.#timer = setTimeout(() => this.#open(), delay);
  }
}
