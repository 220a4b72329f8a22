// The socket router: upgrades, parses every client message (zod), and routes each to the hub's modules;
// a companion's last socket closing starts the grace period of the calls it held.
import type { DecisionResponse } from "../../protocol/decisions.ts";
import { CLOSE_CODES, ClientMessage, type ServerMessage } from "../../protocol/socket.ts";
import { admitRaw, refuseByRole } from "../auth/socket-gate.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { deviceTag, readAttachment, roleTag, type SocketState, writeAttachment } from "./attachment.ts";
import type { DecideOutcome, HubEngine } from "./engine.ts";
import { type Caller, deciderOf } from "./hub-context.ts";

type RunResult = Extract<ClientMessage, { type: "companion_run_result" }>;

interface RouterHooks {
  remember: (caller: Caller) => void;
  /** A companion's answer to a conveyor run; false when no run of that device waits for it. */
  companionRunResult: (deviceId: string, message: RunResult) => boolean;
}

export class SocketRouter {
  private readonly state: DurableObjectState;
  private readonly engine: HubEngine;
  private readonly hooks: RouterHooks;

  constructor(state: DurableObjectState, engine: HubEngine, hooks: RouterHooks) {
    this.state = state;
    this.engine = engine;
    this.hooks = hooks;
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
    this.hooks.remember({ userId, deviceId });
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
    await this.onClientMessage(ws, state, parsed.data);
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
        const result = await this.engine.resolver.resolve(
          message.promptId,
          message.decision,
          deciderOf(caller),
          {
            confirmationToken: message.confirmationToken,
            pattern: message.pattern,
            message: message.message,
          },
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

export type { DecisionResponse };
