// The socket router: upgrades, parses every client message (zod), and routes each to the hub's modules;
// a companion's last socket closing starts the grace period of the calls it held.
import type { DecisionResponse } from "../../protocol/decisions.ts";
import { CLOSE_CODES, ClientMessage, type ServerMessage } from "../../protocol/socket.ts";
import { admitRaw, refuseByRole } from "../auth/socket-gate.ts";
import { fieldProblems } from "../middleware/validate.ts";
import type { Admission } from "./admission.ts";
import { deviceTag, readAttachment, roleTag, type SocketState, writeAttachment } from "./attachment.ts";
import type { DecideOutcome, HubEngine } from "./engine.ts";
import { deciderOf } from "./hub-context.ts";
import { type HubLanes, LaneDropped, LaneFull } from "./lanes.ts";

type RunResult = Extract<ClientMessage, { type: "companion_run_result" }>;

interface RouterHooks {
  /** A companion's answer to a conveyor run; false when no run of that device waits for it. */
  companionRunResult: (deviceId: string, message: RunResult) => boolean;
  /** Devices revoked since this hub started: their sockets' late messages are dropped unread. */
  revoked: (deviceId: string) => boolean;
}

/** Companion messages that do the hub's work wait in the companion lane; the rest are answered at once. */
const LANED = new Set<ClientMessage["type"]>(["hello", "tool_request", "withdraw"]);
/** Laned messages one socket may have waiting; past this each new one is a strike (the hub is behind). */
const MAX_PENDING_PER_SOCKET = 64;

export class SocketRouter {
  private readonly state: DurableObjectState;
  private readonly engine: HubEngine;
  private readonly hooks: RouterHooks;
  private readonly lanes: HubLanes;
  private readonly admission: Admission;
  /** Per socket: the tail of its laned messages (so they are answered in order) and how many wait. */
  private readonly streams = new WeakMap<WebSocket, { tail: Promise<void>; pending: number }>();

  constructor(
    state: DurableObjectState,
    engine: HubEngine,
    hooks: RouterHooks,
    control: { lanes: HubLanes; admission: Admission },
  ) {
    this.state = state;
    this.engine = engine;
    this.hooks = hooks;
    this.lanes = control.lanes;
    this.admission = control.admission;
  }

  connect(request: Request): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a websocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("x-airlock-user");
    const deviceId = request.headers.get("x-airlock-device");
    const role = request.headers.get("x-airlock-role");
    if (!userId || !deviceId || (role !== "companion" && role !== "approver")) {
      return new Response("missing identity", { status: 400 });
    }
    const penalty = role === "companion" ? this.admission.penaltyMs(deviceId, Date.now()) : 0;
    if (penalty > 0) {
      const body = {
        error: {
          code: "rate_limited",
          message: "This device ignored its message budget; reconnect after Retry-After.",
          details: { retry_after_ms: penalty },
        },
      };
      return Response.json(body, {
        status: 429,
        headers: { "Retry-After": String(Math.ceil(penalty / 1000)) },
      });
    }
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair) as [WebSocket, WebSocket];
    this.state.acceptWebSocket(server, [deviceTag(deviceId), roleTag(role)]);
    writeAttachment(server, { role, deviceId, userId, connectedAt: Date.now() });
    return new Response(null, { status: 101, webSocket: client });
  }

  async message(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const state = readAttachment(ws);
    if (!state) {
      ws.close(CLOSE_CODES.lost_state, "lost socket state");
      return;
    }
    // A companion's budget is spent before its message is read: in a flood, most messages are refused,
    // and reading each (size, depth, JSON) before refusing it was most of the hub's work per message.
    if (state.role === "companion" && !this.withinBudget(ws, state, raw)) return;
    const admitted = admitRaw(raw);
    if (!admitted.ok) {
      if ("close" in admitted) ws.close(admitted.close.code, admitted.close.reason);
      else this.send(ws, { type: "error", ...admitted.error });
      return;
    }
    const data = admitted.value;
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
    const refusal = refuseByRole(state, parsed.data);
    if (refusal) {
      this.send(ws, {
        type: "error",
        id: "id" in parsed.data ? parsed.data.id : undefined,
        ...refusal.error,
      });
      const { ctx } = this.engine;
      ctx.ports.transaction(() => ctx.audit([refusal.audit], Date.now()));
      await ctx.flush();
      return;
    }
    const message = parsed.data;
    if (state.role === "approver") {
      await this.lanes.person(() => this.onClientMessage(ws, state, message));
      return;
    }
    if (!LANED.has(message.type)) {
      await this.onClientMessage(ws, state, message);
      return;
    }
    this.enqueue(ws, state, message);
  }

  /**
   * A companion's message joins its socket's stream (answered in order) and then the companion lane. The
   * handler returns at once, so the next message is read (and budgeted) now instead of after this one's
   * work: a flood is shed here rather than queued unseen in front of everything else.
   */
  private enqueue(ws: WebSocket, state: SocketState, message: ClientMessage): void {
    let stream = this.streams.get(ws);
    if (!stream) {
      stream = { tail: Promise.resolve(), pending: 0 };
      this.streams.set(ws, stream);
    }
    if (stream.pending >= MAX_PENDING_PER_SOCKET) {
      const verdict = this.admission.strike(ws, Date.now(), 1_000);
      if ("close" in verdict) {
        this.admission.penalize(state.deviceId, Date.now());
        ws.close(verdict.close.code, verdict.close.reason);
      } else if (!verdict.ok) this.refuse(ws, messageId(message), verdict.retryAfterMs, verdict.scope);
      return;
    }
    const own = stream;
    own.pending++;
    const run = async () => {
      if (this.hooks.revoked(state.deviceId)) return;
      try {
        await this.lanes.companion(state.deviceId, () => this.onClientMessage(ws, state, message));
      } catch (error) {
        if (error instanceof LaneDropped) return; // revoked: its sockets are closing
        if (error instanceof LaneFull) return this.refuse(ws, messageId(message), 1_000, "device");
        console.error("[UserHub.webSocketMessage]", error);
        this.send(ws, { type: "error", code: "internal", message: "The hub failed to handle that message." });
      } finally {
        own.pending--;
      }
    };
    own.tail = own.tail.then(run);
    this.state.waitUntil(own.tail);
  }

  /**
   * The companion's budgets, checked before the message is even read: false when it was refused (answered
   * with a retry hint) or the socket closed for ignoring earlier hints. A refused message is read only for
   * the id its hint echoes, and only while the socket still gets hints (its strikes bound that); past
   * them the socket closes and what is still in flight is dropped unread.
   */
  private withinBudget(ws: WebSocket, state: SocketState, raw: string | ArrayBuffer): boolean {
    // Messages that were in flight when the hub closed this socket are dropped unread.
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (this.hooks.revoked(state.deviceId)) {
      ws.close(CLOSE_CODES.revoked, "device revoked");
      return false;
    }
    const now = Date.now();
    if (this.admission.penaltyMs(state.deviceId, now) > 0) {
      // Another socket of this device was closed for flooding: this one goes too.
      ws.close(CLOSE_CODES.try_again_later, "device over its message budget");
      return false;
    }
    const verdict = this.admission.admitSocket(ws, state.deviceId, now);
    if (verdict.ok) return true;
    if ("close" in verdict) {
      this.admission.penalize(state.deviceId, now);
      ws.close(verdict.close.code, verdict.close.reason);
      return false;
    }
    this.refuse(ws, idOf(raw), verdict.retryAfterMs, verdict.scope);
    return false;
  }

  private refuse(
    ws: WebSocket,
    id: string | undefined,
    retryAfterMs: number,
    scope: "socket" | "device",
  ): void {
    this.send(ws, {
      type: "error",
      id,
      code: "rate_limited",
      message: `Over this ${scope}'s message budget: send again in ${retryAfterMs} ms.`,
      details: { retryAfterMs, scope },
    });
  }

  async onClientMessage(ws: WebSocket, state: SocketState, message: ClientMessage): Promise<void> {
    const caller = { userId: state.userId, deviceId: state.deviceId };
    switch (message.type) {
      case "hello": {
        writeAttachment(ws, { ...state, client: message.client });
        this.send(ws, {
          type: "welcome",
          role: state.role,
          deviceId: state.deviceId,
          serverTime: new Date().toISOString(),
          emergency: this.engine.ctx.settings.emergency(),
        });
        if (state.role === "approver") {
          for (const prompt of this.engine.queue.pendingViews())
            this.send(ws, { type: "capability_prompt", data: prompt });
        }
        const resume = message.resume ?? [];
        // The socket holds the resumed calls again; answers made while it was away go out now.
        this.engine.queue.resume(state.deviceId, resume);
        for (const callId of resume) {
          const known = this.engine.decisionFor(callId);
          if (known?.response) this.send(ws, { type: "capability_decision", data: known.response });
        }
        return;
      }
      case "ping":
        this.send(ws, { type: "pong", id: message.id, serverTime: new Date().toISOString() });
        return;
      case "tool_request": {
        const outcome = await this.engine.decide(message.request, state.deviceId, "socket");
        this.send(ws, this.outcomeMessage(outcome, message.id, message.request.call_id));
        return;
      }
      case "companion_run_result": {
        if (state.role !== "companion" || !this.hooks.companionRunResult(state.deviceId, message)) {
          this.send(ws, {
            type: "error",
            code: "not_found",
            message: `No run ${message.runId} is waiting for this device.`,
          });
        }
        return;
      }
      case "capability_decision": {
        const options = {
          confirmationToken: message.confirmationToken,
          pattern: message.pattern,
          message: message.message,
        };
        const by = deciderOf(caller);
        const result =
          message.undoMs === undefined
            ? await this.engine.resolver.resolve(message.promptId, message.decision, by, options)
            : await this.engine.undoWindows.hold(
                message.promptId,
                message.decision,
                by,
                options,
                message.undoMs,
              );
        this.send(ws, {
          type: "response",
          id: message.id,
          command: "capability_decision",
          success: result.ok,
          data: result.ok ? result.value : null,
          error: result.ok ? null : result.message,
          ...(result.ok ? {} : { code: result.code }),
        });
        return;
      }
      case "undo_decision": {
        const result = this.engine.undoWindows.undo(message.promptId);
        await this.engine.ctx.schedule.arm();
        this.send(ws, {
          type: "response",
          id: message.id,
          command: "undo_decision",
          success: result.ok,
          data: result.ok ? result.value : null,
          error: result.ok ? null : result.message,
          ...(result.ok ? {} : { code: result.code }),
        });
        return;
      }
      case "withdraw": {
        const withdrawn = this.engine.queue.withdraw(state.deviceId, message.callIds, Date.now());
        await this.engine.ctx.flush();
        this.send(ws, {
          type: "response",
          id: message.id,
          command: "withdraw",
          success: true,
          data: { withdrawn },
          error: null,
        });
        return;
      }
    }
  }

  /** A device's last socket closed: the calls its sockets held get a grace period to be resumed. */
  async close(ws: WebSocket): Promise<void> {
    const state = readAttachment(ws);
    if (!state) return;
    // The closing socket may still be listed (as another wrapper object): count only open ones.
    const open = this.state
      .getWebSockets(deviceTag(state.deviceId))
      .filter((s) => s !== ws && s.readyState === WebSocket.OPEN);
    if (open.length > 0) return;
    this.engine.queue.release(state.deviceId, Date.now());
    await this.engine.ctx.schedule.arm();
  }

  // ---- helpers ----

  private outcomeMessage(outcome: DecideOutcome, id: string | undefined, callId: string): ServerMessage {
    switch (outcome.kind) {
      case "decided":
        return { type: "capability_decision", id, data: outcome.response };
      case "pending":
        return {
          type: "decision_pending",
          id,
          callId,
          promptId: outcome.promptId,
          expiresAt: new Date(outcome.expiresAt).toISOString(),
        };
      case "conflict":
        return {
          type: "error",
          id,
          code: "call_conflict",
          message: `call_id ${outcome.callId} was already used for a different call; it is not answered again.`,
        };
    }
  }

  /** Sockets that closed under us are skipped; their close handler cleans up. */
  sendAll(sockets: WebSocket[], message: ServerMessage): void {
    const text = JSON.stringify(message);
    for (const ws of sockets) {
      try {
        ws.send(text);
      } catch {
        // Closed under us.
      }
    }
  }

  send(ws: WebSocket, message: ServerMessage): void {
    this.sendAll([ws], message);
  }
}

const messageId = (message: ClientMessage) => ("id" in message ? message.id : undefined);

/** The id a refused message carries, for its retry hint (read within the same bounds as any message). */
function idOf(raw: string | ArrayBuffer): string | undefined {
  const admitted = admitRaw(raw);
  if (!admitted.ok) return undefined;
  const data = admitted.value;
  return typeof data === "object" && data !== null && "id" in data && typeof data.id === "string"
    ? data.id.slice(0, 100)
    : undefined;
}

export type { DecisionResponse };
