// The dashboard's one transport to its UserHub: the shared SessionClient (src/protocol/session-client.ts: hello,
// parsing, the sync ping that ends the replay, half-open detection, backoff, no reconnect after revoked, requests)
// over the browser's WebSocket, which carries the pairing cookie. Here only what is the browser's: the link shown
// down at once when it goes offline, a reconnect when it comes back or to the foreground, and the validators,
// loaded lazily: the socket opens before they arrive (load-validators.ts) and messages wait for them, in order.
import { type Connect, SessionClient } from "../../src/protocol/session-client.ts";
import type { ClientMessage, ServerMessage } from "../../src/protocol/socket.ts";
import { loadedValidators, loadValidators } from "./load-validators.ts";

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
  /** The socket closed; CLOSE_CODES.revoked means this device was revoked, so it will not reconnect. */
  onClose(code: number): void;
}

/** Whether the browser says it has no network (always false outside a browser). */
function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** The browser's own WebSocket (its cookie authenticates the upgrade). */
function browserSocket(url: string): Connect {
  return (events) => {
    const ws = new WebSocket(url);
    ws.addEventListener("open", () => events.opened());
    ws.addEventListener("message", (event: MessageEvent) => {
      if (typeof event.data === "string") events.received(event.data);
    });
    ws.addEventListener("error", () => events.failed("the socket failed"));
    ws.addEventListener("close", (event) => events.closed(event.code, event.reason));
    return {
      get open() {
        return ws.readyState === WebSocket.OPEN;
      },
      send: (text) => ws.send(text),
      close: (code, reason) => ws.close(code, reason),
    };
  };
}

export class HubSocket {
  readonly #session: SessionClient;
  readonly #events: HubSocketEvents;
  #started = false;
  #everLive = false;
  #state: LinkState | null = null;

  constructor(url: string, events: HubSocketEvents) {
    this.#events = events;
    this.#session = new SessionClient({
      connect: browserSocket(url),
      client: { name: "airlock-dashboard", version: "0.2.0" },
      parser: () => loadedValidators()?.ServerMessage ?? loadValidators().then((v) => v.ServerMessage),
      events: {
        onMessage: (message) => events.onMessage(message),
        onState: (state) => {
          if (state === "revoked") return;
          if (state === "connected") this.#everLive = true;
          this.#setState(state === "connected" ? "live" : this.#down());
        },
        onClose: (code) => events.onClose(code),
        onSynced: () => events.onSynced(),
        onIgnored: () => console.warn("[airlock] ignored an unknown socket message"),
      },
    });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (typeof window !== "undefined") {
      window.addEventListener("offline", this.#offline);
      window.addEventListener("online", this.#wake);
      document.addEventListener("visibilitychange", this.#wake);
    }
    this.#session.start();
  }

  stop(): void {
    if (typeof window !== "undefined") {
      window.removeEventListener("offline", this.#offline);
      window.removeEventListener("online", this.#wake);
      document.removeEventListener("visibilitychange", this.#wake);
    }
    this.#started = false;
    this.#session.stop("dashboard closed");
  }

  /** True once the hub said welcome on the current socket. */
  get live(): boolean {
    return this.#session.live;
  }

  /** Sends a decision (or its undo) and resolves with the hub's `response` (success or its refusal). */
  async decide(message: DecisionMessage): Promise<ResponseMessage> {
    const reply = await this.#session.request(message);
    if (reply.type === "response") return reply;
    throw new Error(reply.type === "error" ? reply.message : "Airlock answered something unexpected.");
  }

  /** What a link that is not live is called: offline if the browser says so, else (re)connecting. */
  #down(): LinkState {
    if (browserOffline()) return "offline";
    return this.#everLive ? "reconnecting" : "connecting";
  }

  #setState(state: LinkState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#events.onState(state);
  }

  /** The browser lost its network: say so at once instead of waiting for a ping to time out. */
  readonly #offline = (): void => {
    if (!this.#started) return;
    this.#session.reconnect("browser offline");
    this.#setState("offline");
  };

  /** Back online or back in the foreground: reconnect now rather than wait out the backoff. */
  readonly #wake = (event: Event): void => {
    if (!this.#started || document.visibilityState === "hidden") return;
    if (event.type === "online" || !this.live) this.#session.reconnect("wake");
  };
}
