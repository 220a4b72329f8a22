// UserHub: one Durable Object per user, the single writer of that user's live state and websocket hub.
// A thin shell: platform entry points, RPC for the Worker, the socket router; the work is in HubEngine.

import { DurableObject } from "cloudflare:workers";
import { longPollUntil, promptTimeoutMs } from "../../policy/index.ts";
import type { EmergencyControls, PromptDecision } from "../../protocol/capability.ts";
import type { CreateProposalRequest, ProposalView } from "../../protocol/conveyor.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import type { FuturesStats } from "../../protocol/futures.ts";
import type { PolicyStats, PolicySuggestionList } from "../../protocol/policy-insights.ts";
import type { CapabilityPrompt } from "../../protocol/prompts.ts";
import { CLOSE_CODES, type ClientRole, type ServerMessage } from "../../protocol/socket.ts";
import { ConveyorRuntime, type Proposer } from "../conveyor/runtime.ts";
import { openDb } from "../db/client.ts";
import { notifyPrompt } from "../push/send.ts";
import { loadShellParser } from "../shims/mvdan-sh-deferred.ts";
import type { Actor } from "./account-admin.ts";
import { Admission } from "./admission.ts";
import { deviceTag, readAttachment, roleTag } from "./attachment.ts";
import { CompanionRuns } from "./companion-runs.ts";
import { conveyorAlarm, conveyorPorts } from "./conveyor-ports.ts";
import { type DecideOutcome, HubEngine } from "./engine.ts";
import { HubFuturesStats, type StoredFuturesStats } from "./futures-stats.ts";
import { type LocalGrantUse, recordLocalGrantUses } from "./grant-audit.ts";
import { HostedRuntime } from "./hosted-runtime.ts";
import { type Caller, deciderOf } from "./hub-context.ts";
import { HubLanes, LaneDropped, LaneFull } from "./lanes.ts";
import { policyStats, policySuggestions, SUGGEST_AFTER } from "./policy-insights.ts";
import { migrateProposalPrompts, promptOfProposal } from "./proposal-prompts.ts";
import { failure, type HubResult } from "./result.ts";
import { SocketRouter } from "./socket-router.ts";
import { migrateHubStorage } from "./storage.ts";

export type { Caller } from "./hub-context.ts";

/** A companion's REST call over its device's budget: answered 429 with Retry-After. */
export type RateLimited = { kind: "rate_limited"; retryAfterMs: number };

export class UserHub extends DurableObject<Env> {
  private readonly engine: HubEngine;
  private readonly router: SocketRouter;
  readonly conveyor: ConveyorRuntime;
  private readonly companionRuns: CompanionRuns;
  readonly runtime: HostedRuntime;
  /** The person's lane and the companions' (src/edge/hub/lanes.ts), and the companions' budgets. */
  private readonly lanes = new HubLanes();
  private readonly admission = new Admission();
  private readonly revokedDevices = new Set<string>();

  /**
   * The hub keeps its grants and settings in memory after the first read and drops them on its own writes;
   * a tool or test that writes the hub's SQLite directly calls this afterwards.
   */
  forgetReads(): void {
    this.engine.ctx.grants.forget();
    this.engine.ctx.settings.forget();
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.engine = new HubEngine({
      sql: ctx.storage.sql,
      db: openDb(env.DB),
      transaction: (fn) => ctx.storage.transactionSync(fn),
      userId: () => this.userId(),
      toDashboards: (message) => {
        this.router.sendAll(this.ctx.getWebSockets(roleTag("approver")), message);
        // A new prompt batch also reaches approvers' phones that are not looking (Web Push, rate-limited).
        if (message.type === "capability_prompt") this.ctx.waitUntil(this.pushPrompt(message.data));
      },
      toDevice: (deviceId, message) =>
        this.router.sendAll(this.ctx.getWebSockets(deviceTag(deviceId)), message),
      toCompanions: (message) => this.router.sendAll(this.ctx.getWebSockets(roleTag("companion")), message),
      deviceConnected: (deviceId) => this.ctx.getWebSockets(deviceTag(deviceId)).length > 0,
      setAlarm: (at) => ctx.storage.setAlarm(at),
      defaultTimeoutMs: promptTimeoutMs(Number(env.AIRLOCK_PROMPT_TIMEOUT_MS)),
      proposals: {
        onResolved: (proposalId, resolution, by, promptId) =>
          this.conveyor.onResolved(proposalId, resolution, by, promptId),
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
            send: (m: ServerMessage) => this.router.send(ws, m),
          })),
    });
    this.conveyor = new ConveyorRuntime(
      conveyorPorts({
        env,
        sql: ctx.storage.sql,
        engine: this.engine,
        userId: () => this.userId(),
        toDashboards: (message) => this.router.sendAll(this.ctx.getWebSockets(roleTag("approver")), message),
        companionRunner: this.companionRuns.runner,
      }),
    );
    this.runtime = new HostedRuntime({
      sql: ctx.storage.sql,
      db: openDb(env.DB),
      env,
      userId: () => this.userId(),
      toDashboards: (message) => this.router.sendAll(this.ctx.getWebSockets(roleTag("approver")), message),
      arm: () => this.engine.ctx.schedule.arm(),
      relax: () => this.engine.ctx.schedule.relax(),
    });
    // The one alarm's sources besides the engine's deadlines (HubEngine registers those first): the conveyor's
    // wakeups after them, the runtime's due schedules beside them (hub/schedule.ts, AlarmLane).
    this.engine.ctx.schedule.register(conveyorAlarm(ctx.storage.sql, this.conveyor));
    this.engine.ctx.schedule.register(this.runtime, "alongside");
    this.router = new SocketRouter(
      ctx,
      this.engine,
      {
        companionRunResult: (deviceId, message) => this.companionRuns.onResult(deviceId, message),
        revoked: (deviceId) => this.revokedDevices.has(deviceId),
      },
      { lanes: this.lanes, admission: this.admission },
    );
    ctx.blockConcurrencyWhile(async () => {
      // proposal_prompts first: a hub storage migration reads it (the prompts' kind).
      migrateProposalPrompts(ctx.storage.sql);
      migrateHubStorage(ctx.storage.sql);
      this.recordUser();
      HostedRuntime.migrate(ctx.storage.sql);
      await loadShellParser();
      // After a restart no socket is open: calls their sockets held start a grace period to be resumed.
      this.engine.queue.releaseOrphans(Date.now());
      await this.engine.ctx.schedule.arm();
    });
  }

  // ---- platform entry points: thin wrappers that log and delegate ----

  override async fetch(request: Request): Promise<Response> {
    try {
      return this.router.connect(request);
    } catch (error) {
      console.error("[UserHub.fetch]", error);
      return new Response("hub failure", { status: 500 });
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    try {
      await this.router.message(ws, message);
    } catch (error) {
      console.error("[UserHub.webSocketMessage]", error);
      this.router.send(ws, {
        type: "error",
        code: "internal",
        message: "The hub failed to handle that message.",
      });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
    try {
      await this.router.close(ws);
    } catch (error) {
      console.error("[UserHub.webSocketClose]", error);
    }
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error("[UserHub.webSocketError]", readAttachment(ws)?.deviceId, error);
  }

  override async alarm(): Promise<void> {
    try {
      await this.engine.ctx.schedule.run();
    } catch (error) {
      console.error("[UserHub.alarm]", error);
      throw error; // let the platform retry the alarm
    }
  }

  // ---- RPC used by the Worker ----
  // Every method takes its caller (the Worker checked the role); the user is the hub's own (userId()), so a method
  // that acts for no device takes it unread.

  /**
   * `wait`: a long poll — answers when the call is decided, or still pending after LONG_POLL_MS; the caller
   * asks again (same call) to keep waiting, which also keeps the call held.
   */
  async decide(
    caller: Caller,
    request: DecisionRequest,
    wait: boolean,
  ): Promise<DecideOutcome | RateLimited> {
    const device = caller.deviceId;
    let outcome: DecideOutcome;
    if (device === null) {
      outcome = await this.engine.decide(request, null, wait ? "wait" : "poll");
    } else {
      // A companion's REST call spends its device's budget and waits in the companion lane, as its socket would.
      const admitted = this.revokedDevices.has(device)
        ? { ok: false as const, retryAfterMs: 60_000 }
        : this.admission.admitDevice(device, Date.now());
      if (!admitted.ok) return { kind: "rate_limited", retryAfterMs: admitted.retryAfterMs };
      try {
        outcome = await this.lanes.companion(device, () =>
          this.engine.decide(request, device, wait ? "wait" : "poll"),
        );
      } catch (error) {
        if (error instanceof LaneFull || error instanceof LaneDropped)
          return { kind: "rate_limited", retryAfterMs: 1_000 };
        throw error;
      }
    }
    if (outcome.kind !== "pending" || !wait) return outcome;
    const response = await this.engine.waitFor(request.call_id, longPollUntil(Date.now(), outcome.expiresAt));
    return response ? { kind: "decided", response } : outcome;
  }

  async decisionFor(caller: Caller, callId: string) {
    return this.engine.decisionFor(callId, caller.deviceId);
  }

  /** The caller's device stops waiting for these calls: each is denied as abandoned. */
  async withdraw(caller: Caller, callIds: string[]): Promise<number> {
    const n = this.engine.queue.withdraw(caller.deviceId, callIds, Date.now());
    await this.engine.ctx.flush();
    return n;
  }

  async approvals(_caller: Caller, status: "pending" | "resolved", limit: number) {
    return status === "pending" ? this.engine.queue.pendingViews() : this.engine.queue.resolvedViews(limit);
  }

  async confirm(_caller: Caller, promptId: string) {
    return this.lanes.person(() => this.engine.resolver.confirm(promptId));
  }

  /** `pattern`: a wider grant the card offered; `message`: with a deny, the person's words for the agent. */
  async resolve(
    caller: Caller,
    promptId: string,
    decision: PromptDecision,
    options: { confirmationToken?: string; pattern?: string; message?: string } = {},
  ) {
    return this.lanes.person(async () => {
      // A proposal's id names its prompt here, in the same call (a second RPC to look it up first was a
      // measurable part of each approval).
      const id = promptId.startsWith("prp_") ? promptOfProposal(this.ctx.storage.sql, promptId) : promptId;
      if (!id)
        return failure(
          409,
          "proposal_not_pending",
          `Proposal ${promptId} is not waiting for a person (see GET /v1/proposals/${promptId}).`,
        );
      return this.engine.resolver.resolve(id, decision, deciderOf(caller), options);
    });
  }

  async endSession(_caller: Caller, sessionId: string): Promise<number> {
    return this.lanes.person(async () => this.engine.ctx.sessions.endSession(sessionId));
  }

  /** Every grant of the account from the one store: saved (agent calls, proposals) and live session grants. */
  async listGrants(_caller: Caller) {
    await this.engine.ctx.grants.load();
    return { saved: this.engine.ctx.grants.list(), sessions: this.engine.ctx.sessions.list(Date.now()) };
  }

  async listSessionGrants(_caller: Caller) {
    return this.engine.ctx.sessions.list(Date.now());
  }

  async deleteSessionGrant(caller: Caller, id: string): Promise<HubResult<{ deleted: true }>> {
    return this.lanes.person(() => this.engine.admin.deleteSessionGrant(id, this.actor(caller)));
  }

  /**
   * Saved agent-call grants a companion decided by locally (its reported decisions): their last use and a
   * grant.used row each. Unknown ids (revoked meanwhile, or not this account's) are skipped.
   */
  async grantsUsedLocally(caller: Caller, uses: LocalGrantUse[]): Promise<number> {
    return recordLocalGrantUses(this.engine.ctx, caller, uses);
  }

  /** Revokes a grant of any kind (grt_: saved, sg_: session); the next matching call no longer sees it. */
  async deleteGrant(caller: Caller, id: string): Promise<HubResult<{ deleted: true }>> {
    return this.lanes.person(() =>
      id.startsWith("sg_")
        ? this.engine.admin.deleteSessionGrant(id, this.actor(caller))
        : this.engine.admin.deleteGrant(id, this.actor(caller)),
    );
  }

  /** Sends queued audit and grant writes to D1 now, so a read of D1 that follows sees them. */
  async flushOutbox(_caller: Caller): Promise<number> {
    await this.engine.ctx.flush();
    return this.engine.ctx.outbox.pending();
  }

  async emergency(_caller: Caller): Promise<EmergencyControls> {
    return this.engine.ctx.settings.emergency();
  }

  async setEmergency(caller: Caller, patch: Partial<EmergencyControls>): Promise<EmergencyControls> {
    return this.lanes.person(async () => {
      const after = await this.engine.admin.setEmergency(patch, this.actor(caller));
      this.router.sendAll(this.ctx.getWebSockets(), { type: "emergency_updated", data: after });
      return after;
    });
  }

  async accountPolicy(_caller: Caller) {
    return this.engine.ctx.settings.accountPolicy();
  }

  /** Asks per 100 calls over 7 days by reason; `localCalls`: what companions decided alone (from the audit log). */
  async policyStats(_caller: Caller, localCalls: number): Promise<PolicyStats> {
    return policyStats(this.ctx.storage.sql, Date.now(), localCalls);
  }

  async policySuggestions(_caller: Caller): Promise<PolicySuggestionList> {
    const text = this.engine.ctx.settings.accountPolicy()?.text ?? "";
    return {
      threshold: SUGGEST_AFTER,
      suggestions: policySuggestions(this.ctx.storage.sql, text, Date.now()),
    };
  }

  async acceptSuggestion(caller: Caller, id: string) {
    return this.lanes.person(() => this.engine.admin.acceptSuggestion(id, this.actor(caller)));
  }

  async setAccountPolicy(caller: Caller, text: string) {
    return this.lanes.person(() => this.engine.admin.setAccountPolicy(text, this.actor(caller)));
  }

  async putFuturesStats(caller: Caller, stats: FuturesStats): Promise<void> {
    if (caller.deviceId) new HubFuturesStats(this.ctx.storage.sql).put(caller.deviceId, stats, new Date());
  }

  async futuresStats(_caller: Caller): Promise<StoredFuturesStats[]> {
    return new HubFuturesStats(this.ctx.storage.sql).list();
  }

  async setPromptTimeout(_caller: Caller, ms: number): Promise<void> {
    this.engine.ctx.settings.setPromptTimeoutMs(ms);
  }

  // ---- the conveyor (src/edge/conveyor; routes in routes/proposals.ts and routes/hooks.ts) ----

  async propose(
    caller: Caller,
    request: CreateProposalRequest,
    source: Omit<Proposer, "deviceId" | "actor"> & { actor?: string },
  ): Promise<HubResult<{ view: ProposalView; created: boolean }>> {
    // A device is always named by its id; only the Worker's own callers (webhooks, hosted turns) name one.
    const actor =
      caller.deviceId === null && source.actor
        ? source.actor
        : source.kind === "webhook"
          ? `webhook:${source.ref}`
          : deciderOf(caller).actor;
    return this.conveyor.propose(request, { ...source, deviceId: caller.deviceId, actor });
  }

  // ---- the hosted runtime (src/edge/runtime; the hub's side in hosted-runtime.ts) ----

  /** Chat replies as they stream, stored messages, job progress and notifications, to open dashboards. */
  async broadcastRuntime(_caller: Caller, message: ServerMessage): Promise<boolean> {
    return this.runtime.broadcast(message);
  }

  /** A schedule was created or changed: its next wakeup is re-read and the alarm re-armed. */
  async scheduleChanged(_caller: Caller, scheduleId: string): Promise<number | null> {
    return this.runtime.scheduleChanged(scheduleId);
  }

  async executeProposal(caller: Caller, proposalId: string): Promise<HubResult<ProposalView>> {
    return this.conveyor.execute(proposalId, deciderOf(caller).actor);
  }

  /** `prp_…` ids in the approvals API name the proposal's prompt. */
  async promptOfProposal(_caller: Caller, proposalId: string): Promise<string | undefined> {
    return promptOfProposal(this.ctx.storage.sql, proposalId);
  }

  /**
   * Revocation, at once: the device's queued calls are dropped unrun, its budget forgotten, its late
   * messages refused, and every open socket of it closed. Returns how many sockets closed.
   */
  async closeDevice(deviceId: string, reason: string): Promise<number> {
    this.revokedDevices.add(deviceId);
    this.lanes.drop(deviceId, reason);
    this.admission.forget(deviceId);
    const sockets = this.ctx.getWebSockets(deviceTag(deviceId));
    for (const ws of sockets) {
      this.router.send(ws, { type: "error", code: "revoked", message: `Disconnected: ${reason}.` });
      ws.close(CLOSE_CODES.revoked, reason);
    }
    return sockets.length;
  }

  async connectionCounts(): Promise<Record<ClientRole, number>> {
    return {
      companion: this.ctx.getWebSockets(roleTag("companion")).length,
      approver: this.ctx.getWebSockets(roleTag("approver")).length,
    };
  }

  private async pushPrompt(prompt: CapabilityPrompt): Promise<void> {
    try {
      const open = this.engine.ctx.prompts.openCount();
      await notifyPrompt(this.env, openDb(this.env.DB), this.userId(), prompt, open);
    } catch (error) {
      console.error("[UserHub.pushPrompt]", error instanceof Error ? error.message : error);
    }
  }

  private actor(caller: Caller): Actor {
    return { userId: caller.userId, ...deciderOf(caller) };
  }

  /**
   * Records the hub's user (its name: the Worker names each hub by user id, hub/stub.ts) where an alarm can find
   * it: an alarm that wakes the object cold, after a restart, may come without the name.
   */
  private recordUser(): void {
    const name = this.ctx.id.name;
    if (name === undefined) return;
    this.ctx.storage.sql.exec(
      `INSERT INTO hub_meta (key, value) VALUES ('user_id', ?) ON CONFLICT (key) DO NOTHING`,
      name,
    );
  }

  private userId(): string {
    const name = this.ctx.id.name;
    if (name !== undefined) return name;
    const row = this.ctx.storage.sql
      .exec<{ value: string }>(`SELECT value FROM hub_meta WHERE key = 'user_id'`)
      .toArray()[0];
    if (!row) throw new Error("UserHub has no user yet");
    return row.value;
  }
}

export type { DecisionResponse };
