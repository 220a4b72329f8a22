// `airlock up`: the long-running companion. Owns the hub connection (the one transport to the edge), the journal of
// waiting calls, the policy store, grant caches, emergency controls and the audit queue; answers hooks and adapters
// over the control socket, including whole hook events from the fast hook entry.
import { companionWaitDeadline } from "../../policy/deadlines.ts";
import type { EmergencyControls } from "../../policy/index.ts";
import type { DecisionRequest, DecisionResponse, ServerMessage } from "../../protocol/index.ts";
import { runClaudeCodeHook } from "../adapters/claude-code/hook.ts";
import {
  type Env,
  edgeGraceMs,
  edgeTimeoutMs,
  promptTimeoutMs,
  socketPath,
  stateDir,
} from "../cli/config.ts";
import { BIN_PATH } from "../cli/invocation.ts";
import type { ControlRequest, ControlResponse, DaemonStatus } from "../control/protocol.ts";
import { type AgentToolCall, type CompanionDecision, denied } from "../control/tool-call.ts";
import { enqueueAudit, queuedAuditCount } from "../deciding/audit-queue.ts";
import { type Approver, type CausalPinning, decideToolCall, diskPinning } from "../deciding/decide.ts";
import {
  fromDecisionResponse,
  localFingerprint,
  toDecisionRequest,
  unreachableDecision,
} from "../deciding/edge-approver.ts";
import { readEmergencyCache, writeEmergencyCache } from "../deciding/emergency-cache.ts";
import { SessionGrants } from "../deciding/grants.ts";
import { EdgeClient, EdgeError } from "../edge/client.ts";
import { type Credentials, loadCredentials, NOT_PAIRED } from "../edge/credentials.ts";
import type { Precog } from "../futures/engine.ts";
import { precogHooks } from "../futures/hook-serving.ts";
import type { AirlockEntry } from "../futures/rewrite.ts";
import type { HookCompanion } from "../hooks/companion.ts";
import { runHook } from "../hooks/runners.ts";
import { PolicyStore } from "../local-policy/store.ts";
import { type ControlServer, listenControl } from "./control-server.ts";
import { EdgeRuns } from "./edge-runs.ts";
import { EdgeSync } from "./edge-sync.ts";
import { FuturesService, isFuturesRequest } from "./futures-service.ts";
import { readHttpEndpoint } from "./http-endpoint.ts";
import { type HttpHookServer, listenHttpHooks } from "./http-hook-server.ts";
import { HubConnection, type HubState } from "./hub-connection.ts";
import { Journal } from "./journal.ts";
import { WaitingCalls } from "./waiting-calls.ts";

const NO_EMERGENCY: EmergencyControls = { readOnly: false, disableHighImpact: false, blockedTools: [] };
const GRANT_REFRESH_MS = 5 * 60_000;
const AUDIT_FLUSH_DELAY_MS = 500;
/** How often changed precognition stats are sent to the edge for the dashboard. */
const FUTURES_STATS_MS = 60_000;

export interface DaemonOptions {
  env: Env;
  log: (line: string) => void;
  version?: string;
  /** Bind the control socket (false for in-process use, e.g. the benchmark). */
  listen?: boolean;
  /** Called on every control request (an on-demand daemon counts them to know when it is idle). */
  onRequest?: () => void;
}

export class Daemon {
  readonly #env: Env;
  #pinningState: CausalPinning | undefined;
  get #pinning(): CausalPinning {
    this.#pinningState ??= diskPinning(this.#env);
    return this.#pinningState;
  }
  readonly #log: (line: string) => void;
  readonly #options: DaemonOptions;
  readonly #journal: Journal;
  readonly #policies: PolicyStore;
  readonly #sessionGrants = new SessionGrants();
  readonly #sync: EdgeSync;
  readonly #waiting = new WaitingCalls((callId) => {
    this.#finalize(
      callId,
      denied("Airlock denied this call: no one answered the approval prompt in time", "timeout"),
    );
    // This side told the agent deny: withdraw the call so no later answer is recorded as an allow.
    this.#hub?.send({ type: "withdraw", callIds: [callId] });
  });
  readonly #startedAt = new Date().toISOString();
  #credentials: Credentials | null = null;
  #edge: EdgeClient | null = null;
  #hub: HubConnection | null = null;
  #server: ControlServer | null = null;
  #http: HttpHookServer | null = null;
  #emergency: EmergencyControls;
  #connection: { state: HubState | "unpaired"; since: string; lastError: string | null } = {
    state: "unpaired",
    since: new Date().toISOString(),
    lastError: null,
  };
  #timers: NodeJS.Timeout[] = [];
  /** Set when the edge went away and did not come back within the grace period: asks fail at once. */
  #edgeDown: string | null = null;
  #graceTimer: NodeJS.Timeout | null = null;
  #auditTimer: NodeJS.Timeout | null = null;
  #decisions = 0;
  /** Socket message id → call id, for a hub error about one tool_request; dropped when the call settles. */
  readonly #requestIds = new Map<string, string>();
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
  readonly #futures: FuturesService;

  constructor(options: DaemonOptions) {
    this.#options = options;
    this.#env = options.env;
    this.#log = options.log;
    this.#journal = new Journal(stateDir(this.#env));
    this.#policies = new PolicyStore(this.#env, options.log);
    this.#sync = new EdgeSync(this.#env, this.#log, this.#sessionGrants);
    this.#emergency = readEmergencyCache(this.#env) ?? NO_EMERGENCY;
    this.#futures = new FuturesService({
      env: this.#env,
      log: this.#log,
      policy: (cwd) => this.#policies.get(cwd),
      emergency: () => this.#emergency,
    });
  }

  /** The precognition engine (in-process users: the bench). */
  get precog(): Precog {
    return this.#futures.precog;
  }

  async start(): Promise<void> {
    const resumed = this.#journal.load().filter((e) => e.status === "pending");
    if (resumed.length > 0) this.#log(`resuming ${resumed.length} call(s) that were waiting for a person`);
    for (const entry of resumed) {
      this.#waiting.arm(entry.call.callId, entry.deadline);
    }
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
      // http first: a hook that waits for the control socket then finds the http endpoint up as well.
      await this.#listenHttp();
      this.#server = await listenControl(socketPath(this.#env), (r) => this.handle(r), this.#log);
    }
    this.#timers.push(
      setInterval(() => {
        void this.#sync.refreshGrants();
        this.#journal.prune();
      }, GRANT_REFRESH_MS),
    );
    this.#timers.push(setInterval(() => this.#policies.refresh(), 2_000));
    this.#timers.push(setInterval(() => void this.#futures.report(this.#edge), FUTURES_STATS_MS));
    for (const t of this.#timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#waiting.clear();
    if (this.#graceTimer) clearTimeout(this.#graceTimer);
    if (this.#auditTimer) clearTimeout(this.#auditTimer);
    this.#hub?.stop();
    await this.#futures.close();
    await this.#http?.close();
    await this.#server?.close();
  }

  /**
   * The http hook endpoint, when `airlock hook claude-code --install` set one up. Its events run under the daemon's
   * own switches, and served commands name the daemon's own `airlock`. Not serving it never stops the daemon: an
   * http hook installed with `onFailure: "block"` then blocks, it never runs ungated.
   */
  async #listenHttp(): Promise<void> {
    const found = readHttpEndpoint(this.#env);
    if (!found.ok) return;
    // The daemon's env and entry do not change: one companion (precognition switches read once) for every event.
    // The daemon answers these hooks itself, so a served command is a shell-only replay (futures/replay.ts).
    const companion = this.#hookCompanion(this.#env, { node: process.execPath, bin: BIN_PATH }, true);
    try {
      this.#http = await listenHttpHooks(
        found.endpoint,
        {
          "claude-code": (body) => {
            this.#options.onRequest?.();
            return runClaudeCodeHook(body, this.#env, companion);
          },
        },
        this.#log,
      );
    } catch (error) {
      this.#log(
        `http hooks not served on 127.0.0.1:${found.endpoint.port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async handle(request: ControlRequest): Promise<ControlResponse> {
    this.#options.onRequest?.();
    if (isFuturesRequest(request)) return this.#futures.handle(request);
    switch (request.type) {
      case "hook": {
        const env = { ...this.#env, ...request.env };
        const companion = this.#hookCompanion(env, request.entry);
        const result = await runHook(request.agent, request.stdin, env, companion);
        return { id: request.id, type: "hook_result", ...result };
      }
      case "decide": {
        const decision = await this.decide(request.call, request.askMode);
        const future =
          request.serve && (await this.#futures.servedWith(request.call, decision, request.serve));
        return { id: request.id, type: "decision", decision, ...(future ? { future } : {}) };
      }
      case "prompt_text":
        // Warms read-only futures; never logged (it is the user's words).
        if (request.cwd) void this.#futures.warm(request.cwd, "prompt", request.text);
        return { id: request.id, type: "ok" };
      case "status":
        if (request.cwd) this.#policies.get(request.cwd);
        return { id: request.id, type: "status", status: this.status() };
      case "session_end":
        this.#endSession(request.session_id);
        return { id: request.id, type: "ok" };
      case "warm_up":
        this.#futures.warmUp(request.cwd);
        return { id: request.id, type: "ok" };
    }
  }

  /**
   * What a hook event run inside the daemon asks of the companion: the daemon itself, under the hook process's
   * switches (`env`), rewriting served commands to the `airlock` the agent ran (`entry`).
   */
  #hookCompanion(env: Env, entry: AirlockEntry | undefined, replay = false): HookCompanion {
    return {
      decide: (call, askMode) => this.decide(call, askMode),
      endSession: async (sessionId) => this.#endSession(sessionId),
      ...precogHooks(env, this.#futures.hookBackend(env, entry, { replay })),
    };
  }

  #endSession(sessionId: string): void {
    const removed = this.#sessionGrants.endSession(sessionId);
    this.#log(`session ${sessionId} ended; ${removed} session grant(s) dropped`);
    void this.#edge?.endSession(sessionId).catch(() => {});
  }

  /** The daemon's decision for one call (what the control socket answers; also used in-process by the bench). */
  async decide(
    agentCall: AgentToolCall,
    askMode: "approver" | "return" = "approver",
  ): Promise<CompanionDecision> {
    this.#decisions++;
    // A mutating call kills the running warm in its workspace before anything else happens.
    this.#futures.precog.noteCall(agentCall.cwd, agentCall.tool, agentCall.input);
    const bound = this.#journal.bind(agentCall, () => localFingerprint(agentCall), this.#log);
    if ("conflict" in bound)
      return denied("Airlock denied this call: its call id was already used for a different call");
    const { call, known } = bound;
    if (known?.status === "decided" && known.decision) return known.decision;
    if (known?.status === "pending") return this.#waiting.wait(call.callId);
    return decideToolCall(call, {
      policy: (cwd) => this.#policies.get(cwd),
      emergency: () => this.#emergency,
      grants: () => this.#sync.rules,
      sessionGrants: (sessionId, agentId) => this.#sessionGrants.rules(sessionId, agentId),
      ...(this.#edge ? { approver: this.#approver() } : { unpairedReason: NOT_PAIRED }),
      audit: (event) => {
        enqueueAudit([event], this.#env);
        this.#scheduleAuditFlush();
      },
      promptTimeoutMs: promptTimeoutMs(this.#env),
      askMode,
      causal: this.#pinning,
    });
  }

  #approver(): Approver {
    return {
      ask: async (call, record, timeoutMs, facts) => {
        if (this.#connection.state === "revoked") {
          return denied(
            'Airlock denied this call: it needs approval, but this device was revoked; pair again with "airlock pair <code>"',
            "unavailable",
          );
        }
        // The edge has been gone past the grace period: say so now rather than make the agent wait for nothing.
        if (this.#edgeDown !== null) return this.#unreachable(this.#edgeDown);
        const request = toDecisionRequest(call, record, facts);
        const deadline = companionWaitDeadline(Date.now(), timeoutMs);
        // The journal is on disk: it keeps the redacted input the edge sees, never file contents.
        this.#journal.put({
          call: { ...call, input: request.input },
          request,
          status: "pending",
          submittedAt: new Date().toISOString(),
          deadline,
          fingerprint: localFingerprint(call),
        });
        const waiting = this.#waiting.wait(call.callId, record);
        this.#waiting.arm(call.callId, deadline);
        // Sent now when the socket is up; otherwise on the next welcome, with every other waiting call.
        this.#submit(call.callId, request);
        return waiting;
      },
    };
  }

  #submit(callId: string, request: DecisionRequest): void {
    // Socket message ids are short (≤ 100); call ids may be longer, so each request gets its own id.
    const id = `req-${++this.#requestCounter}`;
    if (this.#hub?.send({ type: "tool_request", id, request })) this.#requestIds.set(id, callId);
  }

  #unreachable(detail: string): CompanionDecision {
    const server = this.#credentials?.server ?? "";
    return unreachableDecision(
      new EdgeError("unreachable", `the Airlock edge at ${server} could not be reached (${detail})`),
      server,
    );
  }

  #scheduleAuditFlush(): void {
    if (this.#auditTimer || this.#connection.state !== "connected") return;
    this.#auditTimer = setTimeout(() => {
      this.#auditTimer = null;
      void this.#sync.flushAudit();
    }, AUDIT_FLUSH_DELAY_MS);
    this.#auditTimer.unref();
  }

  /** Records a person's (or the edge's) answer durably, then wakes everyone waiting for it. */
  #finalize(callId: string, decision: CompanionDecision, response?: DecisionResponse): void {
    for (const [id, c] of this.#requestIds) if (c === callId) this.#requestIds.delete(id);
    const entry = this.#journal.get(callId);
    if (!entry || entry.status === "decided") return;
    this.#journal.put({ ...entry, status: "decided", decision, decidedAt: new Date().toISOString() });
    this.#waiting.settle(callId, decision);
    this.#log(`call ${callId}: ${decision.decision} (${decision.source})`);
    // A person's answer carries the grant rules it created (a session grant is learned at once).
    if (response) void this.#sync.learn(entry.call, response);
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
    if (state === "connected") {
      this.#edgeDown = null;
      if (this.#graceTimer) clearTimeout(this.#graceTimer);
      this.#graceTimer = null;
    } else if (state === "disconnected" && !this.#graceTimer && this.#edgeDown === null) {
      // An edge restart comes back within the grace period and every waiting call is resubmitted on welcome; an
      // edge that stays away is reported at once to every waiting call, with the real reason.
      this.#graceTimer = setTimeout(() => {
        this.#graceTimer = null;
        this.#edgeDown = this.#connection.lastError ?? "connection lost";
        const decision = this.#unreachable(this.#edgeDown);
        for (const entry of this.#journal.pending()) {
          this.#waiting.settle(entry.call.callId, decision);
          this.#journal.remove(entry.call.callId);
        }
      }, edgeGraceMs(this.#env));
      this.#graceTimer.unref();
    }
    if (state === "revoked") {
      for (const entry of this.#journal.pending()) {
        this.#waiting.settle(
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
        // Every call still waiting goes (again) to the hub: the edge answers a call id it knows with its prompt or
        // decision, and takes one it never saw (the daemon stopped between journaling and sending) as new.
        for (const entry of this.#journal.pending()) this.#submit(entry.call.callId, entry.request);
        void this.#sync.flushAudit();
        void this.#sync.refreshGrants();
        void this.#sync.refreshAccountPolicy();
        break;
      case "emergency_updated":
        this.#setEmergency(message.data);
        break;
      case "grants_revoked":
        this.#sync.revoked(message.data.ids, message.data.session);
        break;
      case "capability_decision":
        this.#finalize(message.data.call_id, fromDecisionResponse(message.data), message.data);
        break;
      case "decision_pending":
        if (message.id) this.#requestIds.delete(message.id);
        this.#notePrompt(message.callId, message.promptId);
        break;
      case "companion_run":
        void this.#edgeRuns.handle(message);
        break;
      case "error": {
        // A tool_request the hub refused (it would refuse it over REST too): the call is denied with its reason.
        const callId = message.id ? this.#requestIds.get(message.id) : undefined;
        if (callId && this.#journal.get(callId)?.status === "pending") {
          this.#finalize(
            callId,
            denied(`Airlock denied this call: the edge refused it (${message.code}: ${message.message})`),
          );
        } else this.#log(`edge error: ${message.code}: ${message.message}`);
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
        scope: this.#waiting.record(e.call.callId)?.scope.summary ?? e.call.tool,
        ...(e.promptId ? { promptId: e.promptId } : {}),
        since: e.submittedAt,
      })),
      grants: { persisted: this.#sync.grants.length, session: this.#sessionGrants.size },
      auditQueued: queuedAuditCount(this.#env),
      decisions: this.#decisions,
    };
  }
}
