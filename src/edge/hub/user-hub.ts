// UserHub: one Durable Object per user, the single writer of that user's live state and websocket hub.
import { DurableObject } from "cloudflare:workers";
import { ClientMessage, type ClientRole, type ServerMessage } from "../../protocol/socket.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { deviceTag, readAttachment, roleTag, type SocketState, writeAttachment } from "./attachment.ts";
import { migrateHubStorage } from "./storage.ts";

/** Close code for sockets whose device was revoked (4000–4999 is the application range). */
export const CLOSE_REVOKED = 4001;

export class UserHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => migrateHubStorage(ctx.storage.sql));
  }

  // ---- platform entry points: thin wrappers that log and delegate ----

  override async fetch(request: Request): Promise<Response> {
    try {
      return this.onConnect(request);
    } catch (error) {
      console.error("[UserHub.fetch]", error);
      return new Response("hub failure", { status: 500 });
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    try {
      await this.onMessage(ws, message);
    } catch (error) {
      console.error("[UserHub.webSocketMessage]", error);
      this.send(ws, { type: "error", code: "internal", message: "The hub failed to handle that message." });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error("[UserHub.webSocketError]", readAttachment(ws)?.deviceId, error);
  }

  // ---- RPC used by the Worker ----

  /** Closes every open socket of a device (revocation takes effect at once). Returns how many closed. */
  async closeDevice(deviceId: string, reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(deviceTag(deviceId));
    for (const ws of sockets) {
      this.send(ws, { type: "error", code: "revoked", message: `Disconnected: ${reason}.` });
      ws.close(CLOSE_REVOKED, reason);
    }
    return sockets.length;
  }

  /** How many sockets are open, by role (for status and tests). */
  async connectionCounts(): Promise<Record<ClientRole, number>> {
    return {
      companion: this.ctx.getWebSockets(roleTag("companion")).length,
      dashboard: this.ctx.getWebSockets(roleTag("dashboard")).length,
    };
  }

  // ---- handlers ----

  protected onConnect(request: Request): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a websocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("x-airlock-user");
    const deviceId = request.headers.get("x-airlock-device");
    const role = request.headers.get("x-airlock-role") as ClientRole | null;
    if (!userId || !deviceId || (role !== "companion" && role !== "dashboard")) {
      return new Response("missing identity", { status: 400 });
    }
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [deviceTag(deviceId), roleTag(role)]);
    writeAttachment(server, { role, deviceId, userId, connectedAt: Date.now() });
    return new Response(null, { status: 101, webSocket: client });
  }

  protected async onMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const state = readAttachment(ws);
    if (!state) {
      ws.close(1011, "lost socket state");
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      this.send(ws, { type: "error", code: "invalid_json", message: "Messages are JSON objects." });
      return;
    }
    const parsed = ClientMessage.safeParse(data);
    if (!parsed.success) {
      this.send(ws, {
        type: "error",
        code: "validation_failed",
        message: "Unknown or malformed message.",
        details: fieldProblems(parsed.error),
      });
      return;
    }
    await this.onClientMessage(ws, state, parsed.data);
  }

  protected async onClientMessage(ws: WebSocket, state: SocketState, message: ClientMessage): Promise<void> {
    switch (message.type) {
      case "hello":
        writeAttachment(ws, { ...state, client: message.client });
        this.send(ws, {
          type: "welcome",
          role: state.role,
          deviceId: state.deviceId,
          serverTime: new Date().toISOString(),
          emergency: { readOnly: false, disableHighImpact: false, blockedTools: [] },
        });
        return;
      case "ping":
        this.send(ws, { type: "pong", id: message.id, serverTime: new Date().toISOString() });
        return;
      default:
        this.send(ws, {
          type: "error",
          id: message.id,
          code: "unsupported",
          message: `${message.type} is not available yet.`,
        });
    }
  }

  protected send(ws: WebSocket, message: ServerMessage): void {
    try {
      ws.send(JSON.stringify(message));
    } catch {
      // The socket closed under us; its close handler cleans up.
    }
  }
}
