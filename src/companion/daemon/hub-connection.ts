// The daemon's one websocket to the user's UserHub: the shared SessionClient (src/protocol/session-client.ts) over a
// `ws` socket that carries the device's Bearer token.
import WebSocket from "ws";
import type { ClientMessage } from "../../protocol/index.ts";
import { CONNECT_TIMEOUT_MS } from "../../protocol/session.ts";
import {
  type Connect,
  SessionClient,
  type SessionEvents,
  type SessionState,
} from "../../protocol/session-client.ts";
import { ServerMessage } from "../../protocol/socket.ts";

export type HubState = SessionState;

export interface HubEvents {
  onMessage: SessionEvents["onMessage"];
  onState(state: HubState, detail: string | null): void;
  /** Call ids to resume in `hello`, read at each (re)connect. */
  resumeIds(): string[];
}

const REVOKED_HINT = 'this device was revoked; pair again with "airlock pair <code>"';

/** Opens a `ws` socket with the token in its upgrade request; a 401 at the upgrade means the token is dead. */
function bearerSocket(url: string, token: string): Connect {
  return (events) => {
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: CONNECT_TIMEOUT_MS,
    });
    socket.on("open", () => events.opened());
    socket.on("unexpected-response", (_req, res) => {
      if (res.statusCode === 401) events.refused("the edge rejected this device's token (revoked?)");
      else events.failed(`HTTP ${res.statusCode}`);
      socket.terminate();
    });
    socket.on("message", (data) => events.received(data.toString()));
    socket.on("error", (error) => events.failed(error.message));
    socket.on("close", (code, reason) => events.closed(code, reason.toString()));
    return {
      get open() {
        return socket.readyState === WebSocket.OPEN;
      },
      send: (text) => socket.send(text),
      close: (code, reason) => {
        if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
        else socket.terminate();
      },
    };
  };
}

export class HubConnection {
  readonly #session: SessionClient;

  constructor(server: string, token: string, events: HubEvents, version = "0.1.0") {
    const url = `${server.replace(/^http/, "ws")}/v1/connect?role=companion`;
    this.#session = new SessionClient({
      connect: bearerSocket(url, token),
      client: { name: "airlock-companion", version },
      parser: () => ServerMessage,
      events: {
        onMessage: (message) => events.onMessage(message),
        onState: (state, detail) =>
          events.onState(state, state === "revoked" ? (detail ?? REVOKED_HINT) : detail),
        resumeIds: () => events.resumeIds(),
      },
    });
  }

  get state(): HubState {
    return this.#session.state;
  }

  get connected(): boolean {
    return this.#session.live;
  }

  get reconnects(): number {
    return this.#session.reconnects;
  }

  start(): void {
    this.#session.start();
  }

  stop(): void {
    this.#session.stop("daemon stopping");
  }

  /** Sends when connected; false means the message was not sent (the caller resends after the next welcome). */
  send(message: ClientMessage): boolean {
    return this.#session.send(message);
  }
}
