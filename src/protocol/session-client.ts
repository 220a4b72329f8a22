// The one reconnecting session to a UserHub, used by the daemon and the dashboard: hello (with resume ids) on every
// open, every message parsed with ServerMessage, the sync ping, pings that find half-open links, full-jitter
// backoff, no reconnect after `revoked`, request/response by id. The rules it follows are in ./session.ts.
// Runtime-neutral (no `ws`, no DOM): each side hands it a Connect that opens its own socket (the daemon through
// `ws` with a Bearer header, the browser with its cookie) and reports that socket's events.
import {
  BACKOFF,
  backoffDelay,
  CLOSE_CODES,
  CONNECT_TIMEOUT_MS,
  PING_INTERVAL_MS,
  PONG_DEADLINE_MS,
  REQUEST_TIMEOUT_MS,
  SYNC_PING_ID,
} from "./session.ts";
import type { ClientMessage, ServerMessage } from "./socket.ts";

export type SessionState = "connecting" | "connected" | "disconnected" | "revoked";

/** What a socket reports to the session; events of a socket the session has let go of are ignored. */
export interface TransportEvents {
  opened(): void;
  received(text: string): void;
  /** A detail for the close that follows (an error's message, an HTTP status). */
  failed(detail: string): void;
  /** The edge refused this device's credentials at the upgrade: the session stops (as revoked). */
  refused(detail: string): void;
  closed(code: number, reason: string): void;
}

/** One open socket, as the session uses it. `close` ends it without waiting for the peer. */
export interface Transport {
  readonly open: boolean;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export type Connect = (events: TransportEvents) => Transport;

/** ServerMessage, or anything that parses like it (the dashboard's lazily loaded copy of it). */
export interface MessageParser {
  safeParse(data: unknown): { success: true; data: ServerMessage } | { success: false };
}

export interface SessionEvents {
  onMessage(message: ServerMessage): void;
  /** `detail` says why a link went down (or why the device counts as revoked, when the edge said so). */
  onState(state: SessionState, detail: string | null): void;
  /** Every close of a socket, the session's own restarts included (their code is `client_restart`). */
  onClose?(code: number, reason: string): void;
  /** The hub finished replaying what is pending after a welcome (the `sync` pong). */
  onSynced?(): void;
  /** A message that is not JSON or not a ServerMessage was dropped (a newer hub, or a broken one). */
  onIgnored?(): void;
  /** Call ids this client still waits on, read at each open for `hello.resume`. */
  resumeIds?(): string[];
}

export interface SessionOptions {
  connect: Connect;
  client: { name: string; version?: string };
  /** The parser, or a promise of it: messages wait for it in arrival order; one that fails to come restarts. */
  parser(): MessageParser | Promise<MessageParser>;
  events: SessionEvents;
  /** For tests: the source of backoff jitter, in [0, 1). */
  random?: () => number;
  /** For tests: shorter deadlines than the session's (./session.ts). */
  timing?: Partial<SessionTiming>;
}

export interface SessionTiming {
  pingIntervalMs: number;
  pongDeadlineMs: number;
  connectTimeoutMs: number;
}

type WithoutId<M> = M extends unknown ? ("id" extends keyof M ? Omit<M, "id"> : never) : never;
/** A client message that can carry an id, without it: `request` assigns one. */
export type RequestMessage = WithoutId<ClientMessage>;

interface Waiting {
  resolve(message: ServerMessage): void;
  reject(error: Error): void;
  timer: Timer;
}

const MAX_RESUME = 1000;

type Timer = ReturnType<typeof setTimeout>;

/** Stops a timeout or an interval (the same handle type in Node, browsers and workerd). */
function cancel(timer: Timer | undefined): void {
  if (timer !== undefined) clearTimeout(timer);
}

export class SessionClient {
  readonly #options: SessionOptions;
  readonly #timing: SessionTiming;
  #transport: Transport | null = null;
  /** Bumped whenever the session lets a socket go, so that socket's late events are ignored. */
  #generation = 0;
  #state: SessionState = "disconnected";
  #started = false;
  #stopped = false;
  #welcomed = false;
  #attempt = 0;
  #reconnects = 0;
  #nextId = 0;
  #failure: string | null = null;
  #refusal: string | null = null;
  #parser: MessageParser | null = null;
  /** Messages of the current socket that arrived before the parser did; handled in order once it is here. */
  #inbox: string[] = [];
  #retryTimer: Timer | undefined;
  #connectTimer: Timer | undefined;
  #pingTimer: Timer | undefined;
  #pongTimer: Timer | undefined;
  readonly #waiting = new Map<string, Waiting>();

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#timing = {
      pingIntervalMs: PING_INTERVAL_MS,
      pongDeadlineMs: PONG_DEADLINE_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      ...options.timing,
    };
  }

  get state(): SessionState {
    return this.#state;
  }

  /** True once the hub said welcome on the current, still open socket. */
  get live(): boolean {
    return this.#welcomed && this.#transport?.open === true;
  }

  /** How many times the session scheduled a reconnect after a lost or failed socket. */
  get reconnects(): number {
    return this.#reconnects;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stopped = false;
    this.#open();
  }

  stop(reason = "client stopping"): void {
    this.#stopped = true;
    this.#started = false;
    cancel(this.#retryTimer);
    const transport = this.#transport;
    this.#letGo("The connection closed before Airlock answered.");
    transport?.close(1000, reason);
  }

  /** Sends when live; false means it was not sent (the caller sends it again after the next welcome). */
  send(message: ClientMessage): boolean {
    if (!this.live || !this.#transport) return false;
    this.#transport.send(JSON.stringify(message));
    return true;
  }

  /** Sends a message with a fresh id and resolves with the hub's first message carrying that id. */
  request(message: RequestMessage, timeoutMs = REQUEST_TIMEOUT_MS): Promise<ServerMessage> {
    if (!this.live) return Promise.reject(new Error("Not connected."));
    const id = `r${++this.#nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error("Airlock did not answer in time."));
      }, timeoutMs);
      this.#waiting.set(id, { resolve, reject, timer });
      this.send({ ...message, id });
    });
  }

  /** Drops the current socket and opens a new one now (back online, back in the foreground, a fresh start). */
  reconnect(reason: string): void {
    if (!this.#started || this.#stopped) return;
    cancel(this.#retryTimer);
    this.#restart(reason);
    this.#attempt = 0;
    this.#open();
  }

  #open(): void {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#failure = null;
    this.#setState("connecting", null);
    this.#connectTimer = setTimeout(() => {
      if (current()) this.#giveUp("the edge did not accept the connection in time");
    }, this.#timing.connectTimeoutMs);
    this.#transport = this.#options.connect({
      opened: () => {
        if (!current()) return;
        cancel(this.#connectTimer);
        this.#sendHello();
      },
      received: (text) => {
        if (current()) this.#receive(generation, text);
      },
      failed: (detail) => {
        if (current()) this.#failure ??= detail;
      },
      refused: (detail) => {
        if (!current()) return;
        this.#refusal = detail;
        this.#stopped = true;
      },
      closed: (code, reason) => {
        if (current()) this.#closed(code, reason);
      },
    });
  }

  #sendHello(): void {
    const hello: ClientMessage = { type: "hello", client: this.#options.client };
    const resume = this.#options.events.resumeIds?.().slice(0, MAX_RESUME) ?? [];
    if (resume.length > 0) hello.resume = resume;
    this.#transport?.send(JSON.stringify(hello));
  }

  #receive(generation: number, text: string): void {
    // Anything from the hub shows the link is alive, whether or not it parses.
    this.#stopPongDeadline();
    if (this.#parser && this.#inbox.length === 0) {
      this.#handle(this.#parser, text);
      return;
    }
    this.#inbox.push(text);
    if (this.#inbox.length > 1) return;
    const drain = (parser: MessageParser) => {
      this.#parser = parser;
      for (const queued of this.#inbox.splice(0)) this.#handle(parser, queued);
    };
    const found = this.#options.parser();
    if (!(found instanceof Promise)) {
      drain(found);
      return;
    }
    found.then(
      (parser) => {
        if (generation === this.#generation) drain(parser);
      },
      // Nothing can be read without it: start over on a new socket (the hub replays what is pending), whose first
      // message asks for the parser again.
      () => {
        if (generation === this.#generation) this.#giveUp("the message validators did not load");
      },
    );
  }

  #handle(parser: MessageParser, text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      this.#options.events.onIgnored?.();
      return;
    }
    const parsed = parser.safeParse(data);
    if (!parsed.success) {
      this.#options.events.onIgnored?.();
      return;
    }
    const message = parsed.data;
    if (message.type === "welcome") {
      this.#welcomed = true;
      this.#attempt = 0;
      this.#setState("connected", null);
      this.#options.events.onMessage(message);
      this.#ping(SYNC_PING_ID);
      cancel(this.#pingTimer);
      this.#pingTimer = setInterval(() => this.#ping(), this.#timing.pingIntervalMs);
      return;
    }
    if (message.type === "pong" && message.id === SYNC_PING_ID) this.#options.events.onSynced?.();
    const id = "id" in message ? message.id : undefined;
    const waiting = id === undefined ? undefined : this.#waiting.get(id);
    if (id !== undefined && waiting) {
      this.#waiting.delete(id);
      cancel(waiting.timer);
      waiting.resolve(message);
    }
    this.#options.events.onMessage(message);
  }

  #ping(id?: string): void {
    if (!this.send(id === undefined ? { type: "ping" } : { type: "ping", id })) return;
    // A half-open link (a sleeping laptop, a dropped NAT entry) never closes by itself: end it and reconnect. The
    // deadline runs from the first unanswered ping; later pings do not push it back.
    this.#pongTimer ??= setTimeout(
      () => this.#giveUp("the edge stopped answering pings"),
      this.#timing.pongDeadlineMs,
    );
  }

  #stopPongDeadline(): void {
    cancel(this.#pongTimer);
    this.#pongTimer = undefined;
  }

  #closed(code: number, reason: string): void {
    const failure = this.#failure;
    this.#letGo("The connection dropped before Airlock answered.");
    this.#options.events.onClose?.(code, reason);
    if (code === CLOSE_CODES.revoked || this.#refusal !== null) {
      this.#stopped = true;
      this.#setState("revoked", this.#refusal);
      return;
    }
    this.#setState("disconnected", failure ?? (reason || `closed (${code})`));
    if (!this.#stopped) this.#schedule();
  }

  /** The session ends this socket itself (no pong, no open in time, no parser) and tries again after a backoff. */
  #giveUp(reason: string): void {
    this.#restart(reason);
    this.#schedule();
  }

  #restart(reason: string): void {
    const transport = this.#transport;
    this.#letGo("The connection dropped before Airlock answered.");
    transport?.close(CLOSE_CODES.client_restart, reason);
    this.#options.events.onClose?.(CLOSE_CODES.client_restart, reason);
    this.#setState("disconnected", reason);
  }

  /** Forgets the current socket: its late events are ignored, timers stop, waiting requests fail. */
  #letGo(why: string): void {
    this.#generation++;
    this.#transport = null;
    this.#welcomed = false;
    this.#inbox = [];
    cancel(this.#connectTimer);
    cancel(this.#pingTimer);
    this.#stopPongDeadline();
    for (const [id, waiting] of this.#waiting) {
      cancel(waiting.timer);
      waiting.reject(new Error(why));
      this.#waiting.delete(id);
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    const delay = backoffDelay(this.#attempt, (this.#options.random ?? Math.random)());
    this.#attempt = Math.min(this.#attempt + 1, 32);
    this.#reconnects++;
    cancel(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#open(), Math.min(delay, BACKOFF.maxMs));
  }

  #setState(state: SessionState, detail: string | null): void {
    this.#state = state;
    this.#options.events.onState(state, detail);
  }
}
