// `airlock up`: the long-running companion. Owns the hub connection, the journal of waiting calls, the policy
// store, grant caches, emergency controls and the audit queue; answers hooks and adapters over the control socket.
import type { Server } from "node:net";
import type { DecisionRecord, EmergencyControls } from "../../policy/index.ts";
import type { DecisionRequest, ServerMessage } from "../../protocol/index.ts";
import { enqueueAudit, queuedAuditCount } from "../audit-queue.ts";
import { type Env, edgeTimeoutMs, promptTimeoutMs, socketPath, stateDir } from "../config.ts";
import { type Credentials, loadCredentials } from "../credentials.ts";
import { type Approver, decideToolCall } from "../decide.ts";
import { fromDecisionResponse, toDecisionRequest, unreachableDecision } from "../edge-approver.ts";
import { EdgeClient } from "../edge-client.ts";
import { readEmergencyCache, writeEmergencyCache } from "../emergency-cache.ts";
import { matchGrant, SessionGrants } from "../grants.ts";
import { type AgentToolCall, type CompanionDecision, denied } from "../tool-call.ts";
import type { ControlRequest, ControlResponse, DaemonStatus } from "./control-protocol.ts";
import { listenControl } from "./control-server.ts";
import { EdgeRuns } from "./edge-runs.ts";
import { EdgeSync } from "./edge-sync.ts";
import { HubConnection, type HubState } from "./hub-connection.ts";
import { Journal } from "./journal.ts";
import { PolicyStore } from "./policy-store.ts";

const NO_EMERGENCY: EmergencyControls = { readOnly: false, disableHighImpact: false, blockedTools: [] };
/** Extra wait beyond the prompt timeout for the edge's own timeout answer to arrive. */
const DEADLINE_MARGIN_MS = 10_000;
const SWEEP_MS = 1_000;
const GRANT_REFRESH_MS = 5 * 60_000;
const POLL_EVERY_MS = 3_000;

interface Waiter {
  resolve: Array<(d: CompanionDecision) => void>;
  record: DecisionRecord | undefined;
}

export interface DaemonOptions {
  env: Env;
  log: (line: string) => void;
  version?: string;
  /** Bind the control socket (false for in-process use, e.g. the benchmark). */
  listen?: boolean;
}

export class Daemon {
  readonly #env: Env;
  readonly #log: (line: string) => void;
  readonly #options: DaemonOptions;
  readonly #journal: Journal;
  readonly #policies: PolicyStore;
  readonly #sessionGrants = new SessionGrants();
  readonly #sync: EdgeSync;
  readonly #waiters = new Map<string, Waiter>();
  readonly #prompts = new Map<string, { text: string; cwd: string | undefined; at: number }>();
  readonly #startedAt = new Date().toISOString();
  #credentials: Credentials | null = null;
  #edge: EdgeClient | null = null;
  #hub: HubConnection | null = null;
  #server: Server | null = null;
  #emergency: EmergencyControls;
  #connection: { state: HubState | "unpaired"; since: string; lastError: string | null } = {
    state: "unpaired",
    since: new Date().toISOString(),
    lastError: null,
  };
  #timers: NodeJS.Timeout[] = [];
  #polling = false;
  #decisions = 0;
  /** Calls this process sent to the edge; a resumed call the edge never saw is resubmitted once. */
  readonly #submitted = new Set<string>();
  readonly #requestIds = new Map<string, string>();
  readonly #polledAt = new Map<string, number>();
  #requestCounter = 0;
  readonly #edgeRuns = new EdgeRuns(
    () => ({
      policy: (cwd) => this.#policies.get(cwd),
      emergency: () => this.#emergency,
      audit: (event) => enqueueAudit([event], this.#env),
      promptTimeoutMs: promptTimeoutMs(this.#env),
    }),
    (message) => this.#hub?.send(message),
    (line) => this.#log(line),
  );

  constructor(options: DaemonOptions) {
    this.#options = options;
    this.#env = options.env;
    this.#log = options.log;
    this.#journal = new Journal(stateDir(this.#env));
    this.#policies = new PolicyStore(this.#env, options.log);
    this.#sync = new EdgeSync(this.#env, this.#log, this.#sessionGrants);
    this.#emergency = readEmergencyCache(this.#env) ?? NO_EMERGENCY;
  }

  async start(): Promise<void> {
    const resumed = this.#journal.load().filter((e) => e.status === "pending");
    if (resumed.length > 0) this.#log(`resuming ${resumed.length} call(s) that were waiting for a person`);
    for (const entry of resumed) this.#waiters.set(entry.call.callId, { resolve: [], record: undefined });
    const creds = loadCredentials(this.#env);
    if (creds.ok) {
      this.#credentials = creds.credentials;
      this.#edge = EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(this.#env));
      this.#sync.edge = this.#edge;
      this.#hub = new HubConnection(
        creds.credentials.server,
        creds.credentials.token,
        {
          onMessage: (m) => this.#onHubMessage(m),
          onState: (state, detail) => this.#onHubState(state, detail),
          resumeIds: () => this.#journal.pending().map((e) => e.call.callId),
        },
        this.#options.version,
      );
      this.#hub.start();
    } else {
      this.#log(`${creds.reason}; local policy only, calls that need a person are denied`);
    }
    if (this.#options.listen !== false) {
      this.#server = await listenControl(socketPath(this.#env), (r) => this.handle(r), this.#log);
    }
    this.#timers.push(setInterval(() => this.#sweep(), SWEEP_MS));
    this.#timers.push(setInterval(() => void this.#sync.refreshGrants(), GRANT_REFRESH_MS));
    this.#timers.push(setInterval(() => this.#policies.refresh(), 2_000));
    for (const t of this.#timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#hub?.stop();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  async handle(request: ControlRequest): Promise<ControlResponse> {
    switch (request.type) {
      case "decide":
        return {
          id: request.id,
          type: "decision",
          decision: await this.decide(request.call, request.askMode),
        };
      case "prompt_text":
        // Kept for warming read-only futures; never logged (it is the user's words).
        this.#prompts.set(request.session_id, { text: request.text, cwd: request.cwd, at: Date.now() });
        return { id: request.id, type: "ok" };
      case "status":
        if (request.cwd) this.#policies.get(request.cwd);
        return { id: request.id, type: "status", status: this.status() };
      case "session_end": {
        const removed = this.#sessionGrants.endSession(request.session_id);
        this.#log(`session ${request.session_id} ended; ${removed} session grant(s) dropped`);
        void this.#edge?.endSession(request.session_id).catch(() => {});
        return { id: request.id, type: "ok" };
      }
    }
  }

  /** The daemon's decision for one call (what the control socket answers; also used in-process by the bench). */
  async decide(call: AgentToolCall, askMode: "approver" | "return" = "approver"): Promise<CompanionDecision> {
    this.#decisions++;
    const known = this.#journal.get(call.callId);
    if (known?.status === "decided" && known.decision) return known.decision;
    if (known?.status === "pending") return this.#wait(call.callId, undefined);
    return decideToolCall(call, {
      policy: (cwd) => this.#policies.get(cwd),
      emergency: () => this.#emergency,
      grants: (c, record) =>
        matchGrant(this.#sync.grants, c.agent.id, record) ??
        this.#sessionGrants.match(c.sessionId, c.agent.id, record),
      ...(this.#edge
        ? { approver: this.#approver() }
        : { unpairedReason: 'this machine is not paired (run "airlock pair <code>")' }),
      audit: (event) => enqueueAudit([event], this.#env),
      promptTimeoutMs: promptTimeoutMs(this.#env),
      askMode,
    });
  }

  #approver(): Approver {
    return {
      ask: async (call, record, timeoutMs) => {
        if (this.#connection.state === "revoked") {
          return denied(
            'Airlock denied this call: it needs approval, but this device was revoked; pair again with "airlock pair <code>"',
            "unavailable",
          );
        }
        const request = toDecisionRequest(call, record);
        // The journal is on disk: it keeps the redacted input the edge sees, never file contents.
        this.#journal.put({
          call: { ...call, input: request.input },
          request,
          status: "pending",
          submittedAt: new Date().toISOString(),
          deadline: Date.now() + timeoutMs + DEADLINE_MARGIN_MS,
        });
        const waiting = this.#wait(call.callId, record);
        this.#submit(call.callId, request);
        return waiting;
      },
    };
  }

  #submit(callId: string, request: DecisionRequest): void {
    this.#submitted.add(callId);
    // Socket message ids are short (≤ 100); call ids may be longer, so each request gets its own id.
    const id = `req-${++this.#requestCounter}`;
    this.#requestIds.set(id, callId);
    if (!this.#hub?.send({ type: "tool_request", id, request })) void this.#submitOverRest(callId, request);
  }

  async #submitOverRest(callId: string, request: DecisionRequest): Promise<void> {
    if (!this.#edge) return;
    try {
      const answer = await this.#edge.decide(request, { wait: false, waitMs: edgeTimeoutMs(this.#env) });
      if (answer.state === "decided") this.#finalize(callId, fromDecisionResponse(answer.response));
      else this.#notePrompt(callId, answer.promptId);
    } catch (error) {
      // Nobody can be asked: fail closed now, and forget the call so a retry asks again once the edge is back.
      const decision = unreachableDecision(error, this.#edge.server);
      this.#settle(callId, decision);
      this.#journal.remove(callId);
    }
  }

  #wait(callId: string, record: DecisionRecord | undefined): Promise<CompanionDecision> {
    return new Promise((resolve) => {
      const waiter = this.#waiters.get(callId) ?? { resolve: [], record };
      waiter.record ??= record;
      waiter.resolve.push(resolve);
      this.#waiters.set(callId, waiter);
    });
  }

  #settle(callId: string, decision: CompanionDecision): void {
    const waiter = this.#waiters.get(callId);
    this.#waiters.delete(callId);
    for (const resolve of waiter?.resolve ?? []) resolve(decision);
  }

  /** Records a person's (or the edge's) answer durably, then wakes everyone waiting for it. */
  #finalize(callId: string, decision: CompanionDecision): void {
    for (const [id, c] of this.#requestIds) if (c === callId) this.#requestIds.delete(id);
    this.#polledAt.delete(callId);
    const entry = this.#journal.get(callId);
    if (!entry || entry.status === "decided") return;
    this.#journal.put({ ...entry, status: "decided", decision, decidedAt: new Date().toISOString() });
    const record = this.#waiters.get(callId)?.record;
    this.#settle(callId, decision);
    this.#log(`call ${callId}: ${decision.decision} (${decision.source})`);
    if (record) void this.#sync.learn(entry.call, record, decision);
  }

  #notePrompt(callId: string, promptId: string): void {
    const entry = this.#journal.get(callId);
    if (entry && entry.status === "pending" && entry.promptId !== promptId)
      this.#journal.put({ ...entry, promptId });
  }

  #onHubState(state: HubState, detail: string | null): void {
    const was = this.#connection.state;
    this.#connection = {
      state,
      since: new Date().toISOString(),
      lastError: detail ?? this.#connection.lastError,
    };
    if (state !== was) this.#log(`edge ${state}${detail ? `: ${detail}` : ""}`);
    if (state === "revoked") {
      for (const entry of this.#journal.pending()) {
        this.#settle(
          entry.call.callId,
          denied("Airlock denied this call: this device was revoked", "unavailable"),
        );
      }
    }
  }

  #onHubMessage(message: ServerMessage): void {
    switch (message.type) {
      case "welcome":
        this.#setEmergency(message.emergency);
        void this.#sync.flushAudit();
        void this.#sync.refreshGrants();
        void this.#sync.refreshAccountPolicy();
        void this.#pollPending();
        break;
      case "emergency_updated":
        this.#setEmergency(message.data);
        break;
      case "capability_decision":
        this.#finalize(message.data.call_id, fromDecisionResponse(message.data));
        break;
      case "decision_pending":
        this.#notePrompt(message.callId, message.promptId);
        break;
      case "companion_run":
        void this.#edgeRuns.handle(message);
        break;
      case "error": {
        // A tool_request the hub could not take: ask over REST instead.
        const callId = message.id ? this.#requestIds.get(message.id) : undefined;
        const entry = callId ? this.#journal.get(callId) : undefined;
        if (entry?.status === "pending") void this.#submitOverRest(entry.call.callId, entry.request);
        else this.#log(`edge error: ${message.code}: ${message.message}`);
        break;
      }
      default:
        break;
    }
  }

  /** Emergency controls apply to the very next decision; the cache lets the no-daemon path apply them too. */
  #setEmergency(controls: EmergencyControls): void {
    const changed = JSON.stringify(controls) !== JSON.stringify(this.#emergency);
    this.#emergency = controls;
    writeEmergencyCache(controls, this.#env);
    if (changed) this.#log(`emergency controls now ${JSON.stringify(controls)}`);
  }

  /** Safety net beside the hub's resume: asks GET /v1/decisions/{id} for every call still waiting. */
  async #pollPending(): Promise<void> {
    const edge = this.#edge;
    if (!edge || this.#polling) return;
    this.#polling = true;
    try {
      const now = Date.now();
      for (const entry of this.#journal.pending()) {
        // The hub pushes decisions; polling is the safety net, so each call is checked at most every 3 s.
        if (now - (this.#polledAt.get(entry.call.callId) ?? 0) < POLL_EVERY_MS) continue;
        this.#polledAt.set(entry.call.callId, now);
        const answer = await edge.decision(entry.call.callId).catch(() => undefined);
        if (answer === null && !this.#submitted.has(entry.call.callId))
          this.#submit(entry.call.callId, entry.request);
        else if (answer?.state === "decided")
          this.#finalize(entry.call.callId, fromDecisionResponse(answer.response));
        else if (answer?.state === "pending" && answer.promptId)
          this.#notePrompt(entry.call.callId, answer.promptId);
      }
    } finally {
      this.#polling = false;
    }
  }

  #sweep(): void {
    const now = Date.now();
    for (const entry of this.#journal.pending()) {
      if (now > entry.deadline) {
        this.#finalize(
          entry.call.callId,
          denied("Airlock denied this call: no one answered the approval prompt in time", "timeout"),
        );
      }
    }
    if (this.#journal.pending().length > 0) void this.#pollPending();
    if (this.#connection.state === "connected" && queuedAuditCount(this.#env) > 0)
      void this.#sync.flushAudit();
    this.#journal.prune();
  }

  status(): DaemonStatus {
    return {
      pid: process.pid,
      startedAt: this.#startedAt,
      server: this.#credentials?.server ?? null,
      deviceId: this.#credentials?.device_id ?? null,
      connection: { ...this.#connection, reconnects: this.#hub?.reconnects ?? 0 },
      emergency: this.#emergency,
      policy: this.#policies.view(),
      pending: this.#journal.pending().map((e) => ({
        callId: e.call.callId,
        tool: e.call.tool,
        agent: e.call.agent.name,
        scope: this.#waiters.get(e.call.callId)?.record?.scope.summary ?? e.call.tool,
        ...(e.promptId ? { promptId: e.promptId } : {}),
        since: e.submittedAt,
      })),
      grants: { persisted: this.#sync.grants.length, session: this.#sessionGrants.size },
      auditQueued: queuedAuditCount(this.#env),
      decisions: this.#decisions,
    };
  }
}
