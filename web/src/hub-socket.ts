// The dashboard's one transport to its UserHub: a partysocket ReconnectingWebSocket (backoff, reconnect), with
// Airlock's session on top: hello on every open, every message parsed with ServerMessage, a ping that finds
// half-open sockets, the link shown down at once when the browser goes offline, and request/response for decisions.
// Resume: after each welcome the hub replays every pending prompt, then answers a `sync` ping; the pong marks the
// end of the replay, so anything not replayed was settled while the link was down.
// The socket opens before the validators have arrived (load-validators.ts); messages wait for them, in order.
import { WebSocket as ReconnectingWebSocket } from "partysocket";
import type { ClientMessage, ServerMessage } from "../../src/protocol/socket.ts";
import { loadedValidators, loadValidators, type Validators } from "./load-validators.ts";

export type LinkState = "connecting" | "live" | "reconnecting" | "offline";
export type ResponseMessage = Extract<ServerMessage, { type: "response" }>;
type WithoutId<M> = M extends unknown ? Omit<M, "id"> : never;
/** What the person sends: an answer, or the undo of one the hub holds. */
export type DecisionMessage = WithoutId<
  Extract<ClientMessage, { type: "capability_decision" | "undo_decision" }>
>;

export interface HubSocketEvents {
  onMessage(message: ServerMessage): void;
  onState(state: LinkState): void;
  /** The hub finished replaying pending prompts after a welcome. */
  onSynced(): void;
  /** The socket closed; 4001 means this device was revoked, so it will not reconnect. */
  onClose(code: number): void;
}

/** Close code the hub uses for a revoked device. */
export const CLOSE_REVOKED = 4001;
const PING_EVERY_MS = 20_000;
// A phone that slept or changed network often keeps a half-open socket; no pong in time means reconnect.
const PONG_WITHIN_MS = 8_000;
const REQUEST_TIMEOUT_MS = 10_000;
const SYNC_ID = "sync";

interface Waiting {
  resolve(message: ResponseMessage): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Whether the browser says it has no network (always false outside a browser). */
function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

export class HubSocket {
  readonly #url: string;
  readonly #events: HubSocketEvents;
  #ws: ReconnectingWebSocket | null = null;
  #welcomed = false;
  #opened = false;
  #nextId = 0;
  #state: LinkState | null = null;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #pongTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #waiting = new Map<string, Waiting>();
  /** Raw messages of the current socket that arrived before the validators did; parsed in order once they are. */
  #inbox: string[] = [];

  constructor(url: string, events: HubSocketEvents) {
    this.#url = url;
    this.#events = events;
  }

  start(): void {
    if (this.#ws) return;
    if (typeof window !== "undefined") {
      window.addEventListener("offline", this.#offline);
      window.addEventListener("online", this.#wake);
      document.addEventListener("visibilitychange", this.#wake);
    }
    const ws = new ReconnectingWebSocket(this.#url, [], {
      // Jittered so many phones do not reconnect in step; 0.5–1 s first, growing to a 10 s cap.
      minReconnectionDelay: 500 + Math.random() * 500,
      maxReconnectionDelay: 10_000,
      reconnectionDelayGrowFactor: 1.6,
      connectionTimeout: 5_000,
      shouldReconnectOnClose: (event) => event.code !== CLOSE_REVOKED,
    });
    this.#ws = ws;
    this.#setState(browserOffline() ? "offline" : "connecting");
    ws.addEventListener("open", () => {
      this.#opened = true;
      this.#sendRaw({ type: "hello", client: { name: "airlock-dashboard", version: "0.2.0" } });
      clearInterval(this.#pingTimer);
      this.#pingTimer = setInterval(() => this.#ping(), PING_EVERY_MS);
    });
    ws.addEventListener("message", (event) => this.#receive(event.data));
    ws.addEventListener("close", (event) => this.#closed(event.code));
  }

  stop(): void {
    if (typeof window !== "undefined") {
      window.removeEventListener("offline", this.#offline);
      window.removeEventListener("online", this.#wake);
      document.removeEventListener("visibilitychange", this.#wake);
    }
    const ws = this.#ws;
    this.#ws = null;
    this.#drop();
    ws?.close(1000, "dashboard closed");
  }

  /** True once the hub said welcome on the current socket. */
  get live(): boolean {
    return this.#welcomed && this.#ws?.readyState === 1;
  }

  /** Sends a decision (or its undo) and resolves with the hub's `response` (success or its refusal). */
  decide(message: DecisionMessage): Promise<ResponseMessage> {
    if (!this.live) return Promise.reject(new Error("Not connected."));
    const id = `d${++this.#nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error("Airlock did not answer in time."));
      }, REQUEST_TIMEOUT_MS);
      this.#waiting.set(id, { resolve, reject, timer });
      this.#sendRaw({ ...message, id });
    });
  }

  #sendRaw(message: ClientMessage): void {
    this.#ws?.send(JSON.stringify(message));
  }

  #receive(raw: unknown): void {
    if (typeof raw !== "string") return;
    const validators = loadedValidators();
    if (validators && this.#inbox.length === 0) {
      this.#handle(validators, raw);
      return;
    }
    this.#inbox.push(raw);
    if (this.#inbox.length > 1) return;
    loadValidators().then(
      (loaded) => {
        for (const queued of this.#inbox.splice(0)) this.#handle(loaded, queued);
      },
      () => {
        // Without validators nothing can be read: start over on a new socket (the hub replays what is pending),
        // whose first message asks for the validators again.
        this.#inbox = [];
        this.#ws?.reconnect(4000, "validators did not load");
      },
    );
  }

  #handle(validators: Validators, raw: string): void {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = validators.ServerMessage.safeParse(data);
    if (!parsed.success) {
      console.warn("[airlock] ignored an unknown socket message");
      return;
    }
    const message = parsed.data;
    if (message.type === "welcome") {
      this.#welcomed = true;
      this.#setState("live");
      this.#events.onMessage(message);
      // The hub replays pending prompts right after welcome; this ping's pong arrives after the last of them.
      this.#sendRaw({ type: "ping", id: SYNC_ID });
      return;
    }
    if (message.type === "pong") {
      clearTimeout(this.#pongTimer);
      if (message.id === SYNC_ID) this.#events.onSynced();
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

  #ping(): void {
    if (!this.live) return;
    this.#sendRaw({ type: "ping" });
    clearTimeout(this.#pongTimer);
    this.#pongTimer = setTimeout(() => this.#ws?.reconnect(4000, "no pong"), PONG_WITHIN_MS);
  }

  /** Forgets the current session: timers off, anyone awaiting an answer is told the link went away. */
  #drop(): void {
    clearInterval(this.#pingTimer);
    clearTimeout(this.#pongTimer);
    this.#welcomed = false;
    // What the dropped socket said before the validators arrived is stale; the next welcome replays it.
    this.#inbox = [];
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error("The connection dropped before Airlock answered."));
      this.#waiting.delete(id);
    }
  }

  #closed(code: number): void {
    this.#drop();
    if (!this.#ws) return;
    this.#events.onClose(code);
    if (code === CLOSE_REVOKED) return;
    this.#setState(browserOffline() ? "offline" : this.#opened ? "reconnecting" : "connecting");
  }

  #setState(state: LinkState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#events.onState(state);
  }

  /** The browser lost its network: say so at once instead of waiting for a ping to time out. */
  readonly #offline = (): void => {
    if (!this.#ws) return;
    this.#drop();
    this.#setState("offline");
    this.#ws.reconnect(4000, "browser offline");
  };

  /** Back online or back in the foreground: reconnect now rather than wait out the backoff. */
  readonly #wake = (event: Event): void => {
    if (!this.#ws || document.visibilityState === "hidden") return;
    if (event.type === "online" || !this.live) {
      this.#setState(this.#opened ? "reconnecting" : "connecting");
      this.#ws.reconnect(4000, "wake");
    }
  };
}
