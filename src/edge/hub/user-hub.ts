// UserHub: one Durable Object per user, the single writer of that user's live state and websocket hub.
import { DurableObject } from "cloudflare:workers";
import { emergencyAuditEvents } from "../../policy/index.ts";
import type { EmergencyControls, PromptDecision } from "../../protocol/capability.ts";
import type { CreateProposalRequest, ProposalView } from "../../protocol/conveyor.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import type { CapabilityPrompt } from "../../protocol/prompts.ts";
import { CLOSE_CODES, ClientMessage, type ClientRole, type ServerMessage } from "../../protocol/socket.ts";
import { admitRaw, refuseByRole } from "../auth/socket-gate.ts";
import { ConveyorRuntime, type Proposer } from "../conveyor/runtime.ts";
import { openDb } from "../db/client.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { notifyPrompt } from "../push/send.ts";
import { loadShellParser } from "../shims/mvdan-sh-deferred.ts";
import { ApprovalEngine, type DecideOutcome, type Decider } from "./approvals.ts";
import { deviceTag, readAttachment, roleTag, type SocketState, writeAttachment } from "./attachment.ts";
import { CompanionRuns } from "./companion-runs.ts";
import { conveyorPorts } from "./conveyor-ports.ts";
import { compileAccountPolicy } from "./edge-policy.ts";
import { migrateProposalPrompts, nextWakeup, promptOfProposal, takeDueWakeups } from "./proposal-prompts.ts";
import { failure, type HubResult } from "./result.ts";
import { migrateHubStorage } from "./storage.ts";

/** Close code for sockets whose device was revoked (4000–4999 is the application range). */
export const CLOSE_REVOKED = CLOSE_CODES.revoked;
/** How long past a prompt's own deadline an HTTP waiter holds on before answering "still pending". */
const WAIT_GRACE_MS = 2_000;

export interface Caller {
  userId: string;
  deviceId: string | null;
}

export class UserHub extends DurableObject<Env> {
  private readonly engine: ApprovalEngine;
  readonly conveyor: ConveyorRuntime;
  private readonly companionRuns: CompanionRuns;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      migrateHubStorage(ctx.storage.sql);
      migrateProposalPrompts(ctx.storage.sql);
      await loadShellParser();
    });
    this.engine = new ApprovalEngine({
      sql: ctx.storage.sql,
      db: openDb(env.DB),
      userId: () => this.userId(),
      toDashboards: (message) => {
        this.sendAll(this.ctx.getWebSockets(roleTag("approver")), message);
        // A new prompt batch also reaches approvers' phones that are not looking (Web Push, rate-limited).
        if (message.type === "capability_prompt") this.ctx.waitUntil(this.pushPrompt(message.data));
      },
      toDevice: (deviceId, message) => this.sendAll(this.ctx.getWebSockets(deviceTag(deviceId)), message),
      setAlarm: (at) => ctx.storage.setAlarm(at),
      defaultTimeoutMs: Number(env.AIRLOCK_PROMPT_TIMEOUT_MS) || 30_000,
      proposals: {
        onResolved: (proposalId, resolution, by, promptId) =>
          this.conveyor.onResolved(proposalId, resolution, by, promptId),
        nextWake: () => nextWakeup(ctx.storage.sql),
      },
    });
    this.companionRuns = new CompanionRuns({
      companions: (deviceId) =>
        this.ctx
          .getWebSockets(deviceId ? deviceTag(deviceId) : roleTag("companion"))
          .map((ws) => ({ ws, state: readAttachment(ws) }))
          .filter((s) => s.state?.role === "companion")
          .sort((a, b) => (a.state?.connectedAt ?? 0) - (b.state?.connectedAt ?? 0))
          .map(({ ws, state }) => ({
            deviceId: state?.deviceId ?? "",
            send: (m: ServerMessage) => this.send(ws, m),
          })),
    });
    this.conveyor = new ConveyorRuntime(
      conveyorPorts({
        env,
        sql: ctx.storage.sql,
        engine: this.engine,
        userId: () => this.userId(),
        toDashboards: (message) => this.sendAll(this.ctx.getWebSockets(roleTag("approver")), message),
        companionRunner: this.companionRuns.runner,
      }),
    );
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

  override async alarm(): Promise<void> {
    try {
      await this.engine.onAlarm();
      if (takeDueWakeups(this.ctx.storage.sql, Date.now()) > 0) await this.conveyor.onAlarm();
      await this.engine.schedule();
    } catch (error) {
      console.error("[UserHub.alarm]", error);
      throw error; // let the platform retry the alarm
    }
  }

  // ---- RPC used by the Worker ----

  async decide(caller: Caller, request: DecisionRequest, wait: boolean): Promise<DecideOutcome> {
    this.remember(caller);
    const outcome = await this.engine.decide(request, caller.deviceId);
    if (outcome.kind === "decided" || !wait) return outcome;
    const prompt = this.engine.store.prompt(outcome.promptId);
    const deadline = (prompt?.expires_at ?? Date.now()) + WAIT_GRACE_MS;
    const response = await this.engine.waitFor(request.call_id, deadline);
    return response ? { kind: "decided", response } : outcome;
  }

  async decisionFor(caller: Caller, callId: string) {
    this.remember(caller);
    return this.engine.decisionFor(callId);
  }

  async approvals(caller: Caller, status: "pending" | "resolved", limit: number) {
    this.remember(caller);
    return status === "pending" ? this.engine.pendingViews() : this.engine.resolvedViews(limit);
  }

  async confirm(caller: Caller, promptId: string) {
    this.remember(caller);
    return this.engine.confirm(promptId);
  }

  async resolve(
    caller: Caller,
    promptId: string,
    decision: PromptDecision,
    confirmationToken?: string,
    message?: string,
  ) {
    this.remember(caller);
    return this.engine.resolve(
      promptId,
      decision,
      this.decider(caller),
      confirmationToken,
      Date.now(),
      message,
    );
  }

  async endSession(caller: Caller, sessionId: string): Promise<number> {
    this.remember(caller);
    return this.engine.sessions.endSession(sessionId);
  }

  async listGrants(caller: Caller) {
    this.remember(caller);
    return this.engine.grants.list();
  }

  async listSessionGrants(caller: Caller) {
    this.remember(caller);
    return this.engine.sessions.list(Date.now());
  }

  async deleteSessionGrant(caller: Caller, id: string): Promise<HubResult<{ deleted: true }>> {
    this.remember(caller);
    const removed = this.engine.sessions.remove(id);
    if (!removed) return failure(404, "not_found", `No session grant ${id} on this account.`);
    await this.engine.audit([
      {
        userId: caller.userId,
        deviceId: caller.deviceId,
        actor: this.decider(caller).actor,
        event: "grant.session_revoked",
        target: id,
        agentId: removed.agent_id,
        details: {
          capability: removed.capability,
          scope_pattern: removed.scope_pattern,
          session_id: removed.session_id,
        },
      },
    ]);
    return { ok: true, value: { deleted: true } };
  }

  async deleteGrant(caller: Caller, id: string): Promise<HubResult<{ deleted: true }>> {
    this.remember(caller);
    const removed = await this.engine.grants.remove(id);
    if (!removed) return failure(404, "not_found", `No grant ${id} on this account.`);
    await this.engine.audit([
      {
        userId: caller.userId,
        deviceId: caller.deviceId,
        actor: this.decider(caller).actor,
        event: "grant.deleted",
        target: id,
        agentId: removed.agentId,
        details: {
          capability: removed.capability,
          scope_pattern: removed.scopePattern,
          effect: removed.effect,
        },
      },
    ]);
    return { ok: true, value: { deleted: true } };
  }

  async emergency(caller: Caller): Promise<EmergencyControls> {
    this.remember(caller);
    return this.engine.settings.emergency();
  }

  async setEmergency(caller: Caller, patch: Partial<EmergencyControls>): Promise<EmergencyControls> {
    this.remember(caller);
    const before = this.engine.settings.emergency();
    const after: EmergencyControls = { ...before, ...patch };
    after.blockedTools = [...new Set(after.blockedTools)].sort();
    this.engine.settings.setEmergency(after);
    const by = this.decider(caller);
    await this.engine.audit(
      emergencyAuditEvents(before, after, by.actor, new Date()).map((event) => ({
        userId: caller.userId,
        deviceId: caller.deviceId,
        actor: by.actor,
        event: "emergency.changed",
        target: event.control,
        details: { ...event },
      })),
    );
    this.sendAll(this.ctx.getWebSockets(), { type: "emergency_updated", data: after });
    return after;
  }

  async accountPolicy(caller: Caller) {
    this.remember(caller);
    return this.engine.settings.accountPolicy();
  }

  async setAccountPolicy(caller: Caller, text: string) {
    this.remember(caller);
    const compiled = compileAccountPolicy(text);
    if (!compiled.ok)
      return failure(400, "validation_failed", "The account policy does not load.", compiled.errors);
    const now = Date.now();
    this.engine.settings.setAccountPolicy(text, now);
    await this.engine.audit([
      {
        userId: caller.userId,
        deviceId: caller.deviceId,
        actor: this.decider(caller).actor,
        event: "policy.account_updated",
      },
    ]);
    return { ok: true as const, value: { updatedAt: now } };
  }

  async setPromptTimeout(caller: Caller, ms: number): Promise<void> {
    this.remember(caller);
    this.engine.settings.setPromptTimeoutMs(ms);
  }

  /** Closes every open socket of a device (revocation takes effect at once). Returns how many closed. */
  async closeDevice(deviceId: string, reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(deviceTag(deviceId));
    for (const ws of sockets) {
      this.send(ws, { type: "error", code: "revoked", message: `Disconnected: ${reason}.` });
      ws.close(CLOSE_REVOKED, reason);
    }
    return sockets.length;
  }

  async connectionCounts(): Promise<Record<ClientRole, number>> {
    return {
      companion: this.ctx.getWebSockets(roleTag("companion")).length,
      approver: this.ctx.getWebSockets(roleTag("approver")).length,
    };
  }

  // ---- the conveyor (src/edge/conveyor; routes in routes/proposals.ts and routes/hooks.ts) ----

  async propose(
    caller: Caller,
    request: CreateProposalRequest,
    source: Omit<Proposer, "deviceId" | "actor">,
  ): Promise<HubResult<{ view: ProposalView; created: boolean }>> {
    this.remember(caller);
    const actor = source.kind === "webhook" ? `webhook:${source.ref}` : this.decider(caller).actor;
    return this.conveyor.propose(request, { ...source, deviceId: caller.deviceId, actor });
  }

  async executeProposal(caller: Caller, proposalId: string): Promise<HubResult<ProposalView>> {
    this.remember(caller);
    return this.conveyor.execute(proposalId, this.decider(caller).actor);
  }

  /** `prp_…` ids in the approvals API name the proposal's prompt. */
  async promptOfProposal(caller: Caller, proposalId: string): Promise<string | undefined> {
    this.remember(caller);
    return promptOfProposal(this.ctx.storage.sql, proposalId);
  }

  // ---- handlers ----

  protected onConnect(request: Request): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a websocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("x-airlock-user");
    const deviceId = request.headers.get("x-airlock-device");
    const role = request.headers.get("x-airlock-role");
    if (!userId || !deviceId || (role !== "companion" && role !== "approver")) {
      return new Response("missing identity", { status: 400 });
    }
    this.remember({ userId, deviceId });
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
      await this.engine.audit([refusal.audit]);
      return;
    }
    await this.onClientMessage(ws, state, parsed.data);
  }

  protected async onClientMessage(ws: WebSocket, state: SocketState, message: ClientMessage): Promise<void> {
    const caller = { userId: state.userId, deviceId: state.deviceId };
    switch (message.type) {
      case "hello": {
        writeAttachment(ws, { ...state, client: message.client });
        this.send(ws, {
          type: "welcome",
          role: state.role,
          deviceId: state.deviceId,
          serverTime: new Date().toISOString(),
          emergency: this.engine.settings.emergency(),
        });
        if (state.role === "approver") {
          for (const prompt of this.engine.pendingViews())
            this.send(ws, { type: "capability_prompt", data: prompt });
        }
        for (const callId of message.resume ?? []) {
          const known = this.engine.decisionFor(callId);
          if (known?.response) this.send(ws, { type: "capability_decision", data: known.response });
        }
        return;
      }
      case "ping":
        this.send(ws, { type: "pong", id: message.id, serverTime: new Date().toISOString() });
        return;
      case "tool_request": {
        const outcome = await this.engine.decide(message.request, state.deviceId);
        if (outcome.kind === "decided") {
          this.send(ws, { type: "capability_decision", id: message.id, data: outcome.response });
        } else {
          this.send(ws, {
            type: "decision_pending",
            id: message.id,
            callId: message.request.call_id,
            promptId: outcome.promptId,
          });
        }
        return;
      }
      case "companion_run_result": {
        if (state.role !== "companion" || !this.companionRuns.onResult(state.deviceId, message)) {
          this.send(ws, {
            type: "error",
            code: "not_found",
            message: `No run ${message.runId} is waiting for this device.`,
          });
        }
        return;
      }
      case "capability_decision": {
        const result = await this.engine.resolve(
          message.promptId,
          message.decision,
          this.decider(caller),
          message.confirmationToken,
          Date.now(),
          message.message,
        );
        this.send(ws, {
          type: "response",
          id: message.id,
          command: "capability_decision",
          success: result.ok,
          data: result.ok ? result.value : null,
          error: result.ok ? null : result.message,
        });
        return;
      }
    }
  }

  // ---- helpers ----

  private async pushPrompt(prompt: CapabilityPrompt): Promise<void> {
    try {
      await notifyPrompt(
        this.env,
        openDb(this.env.DB),
        this.userId(),
        prompt,
        this.engine.store.openPrompts().length,
      );
    } catch (error) {
      console.error("[UserHub.pushPrompt]", error instanceof Error ? error.message : error);
    }
  }

  private decider(caller: Caller): Decider {
    return { deviceId: caller.deviceId, actor: caller.deviceId ? `device:${caller.deviceId}` : "api" };
  }

  private remember(caller: Caller): void {
    this.ctx.storage.sql.exec(
      `INSERT INTO hub_meta (key, value) VALUES ('user_id', ?) ON CONFLICT (key) DO NOTHING`,
      caller.userId,
    );
  }

  private userId(): string {
    const row = this.ctx.storage.sql
      .exec<{ value: string }>(`SELECT value FROM hub_meta WHERE key = 'user_id'`)
      .toArray()[0];
    if (!row) throw new Error("UserHub has no user yet");
    return row.value;
  }

  /** Sockets that closed under us are skipped; their close handler cleans up. */
  private sendAll(sockets: WebSocket[], message: ServerMessage): void {
    const text = JSON.stringify(message);
    for (const ws of sockets) {
      try {
        ws.send(text);
      } catch {
        // Closed under us.
      }
    }
  }

  protected send(ws: WebSocket, message: ServerMessage): void {
    this.sendAll([ws], message);
  }
}

export type { DecisionResponse };
