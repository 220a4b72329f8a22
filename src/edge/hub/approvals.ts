// The approval engine inside UserHub: decide a call, batch prompts, resolve them, time them out.
import type { CompiledPolicy } from "../../policy/index.ts";
import { redactText } from "../../policy/redact.ts";
import type { PromptDecision, Resolution } from "../../protocol/capability.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import type { ResolvedPrompt } from "../../protocol/prompts.ts";
import type { ServerMessage } from "../../protocol/socket.ts";
import { type AuditEntry, writeAuditBatch } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { Confirmations } from "./confirmations.ts";
import { confirmationRefused, immediateAudit, resolutionAudit } from "./decision-audit.ts";
import { compileAccountPolicy, edgeVerdict } from "./edge-policy.ts";
import { scopePatternFor, versionRangeFor } from "./grant-match.ts";
import { GrantStore } from "./grant-store.ts";
import { type CallRow, type PromptRow, PromptStore, parseAgent, responseOf } from "./prompt-store.ts";
import { promptView, resolvedView, scopesFingerprint } from "./prompt-view.ts";
import { proposalOfPrompt, proposalPromptView } from "./proposal-prompts.ts";
import { failure, type HubResult } from "./result.ts";
import { SessionGrants } from "./session-grants.ts";
import { DEFAULT_PROMPT_TIMEOUT_MS, HubSettings } from "./settings.ts";

export const BATCH_WINDOW_MS = 250;
/**
 * Deadlines this close are treated as due. workerd's clock only advances on I/O, so an alarm can run
 * with Date.now() a hair before the time it was set for; re-arming it for that same instant would
 * let the runtime drop it as already run, and the prompt would never be announced.
 */
const DUE_SLACK_MS = 25;
/** Decided calls are remembered this long, so a repeated call_id gets the first answer. */
const CALL_RETENTION_MS = 7 * 24 * 3600 * 1000;

const MAX_CWD = 1_000;
const MAX_DESCRIPTION = 300;

/** The agent's own words for a call (Claude Code's Bash `description`), redacted and bounded; untrusted text. */
function agentDescription(input: Record<string, unknown>): string | null {
  const text = input.description;
  if (typeof text !== "string" || !text.trim()) return null;
  return redactText(text.trim()).slice(0, MAX_DESCRIPTION);
}

export interface HubPorts {
  sql: SqlStorage;
  db: Db;
  userId: () => string;
  toDashboards: (message: ServerMessage) => void;
  toDevice: (deviceId: string, message: ServerMessage) => void;
  setAlarm: (at: number) => Promise<void>;
  defaultTimeoutMs: number;
  /** The conveyor: told when a proposal's prompt is resolved; its wakeups join the one alarm. */
  proposals?: {
    onResolved(proposalId: string, resolution: Resolution, by: Decider, promptId: string): Promise<void>;
    nextWake(): number | null;
  };
}

export type DecideOutcome =
  | { kind: "decided"; response: DecisionResponse }
  | { kind: "pending"; promptId: string };

export interface Decider {
  deviceId: string | null;
  actor: string;
}

export class ApprovalEngine {
  readonly store: PromptStore;
  readonly settings: HubSettings;
  readonly grants: GrantStore;
  readonly sessions: SessionGrants;
  readonly confirmations: Confirmations;
  private readonly ports: HubPorts;
  private readonly waiters = new Map<string, Set<(response: DecisionResponse) => void>>();
  private compiled: { text: string | undefined; policy: CompiledPolicy } | undefined;

  constructor(ports: HubPorts) {
    this.ports = ports;
    this.store = new PromptStore(ports.sql);
    this.settings = new HubSettings(ports.sql);
    this.grants = new GrantStore(ports.db, ports.userId);
    this.sessions = new SessionGrants(ports.sql);
    this.confirmations = new Confirmations(ports.sql);
  }

  private accountPolicy(): CompiledPolicy {
    const text = this.settings.accountPolicy()?.text;
    if (this.compiled && this.compiled.text === text) return this.compiled.policy;
    const result = compileAccountPolicy(text);
    // A stored policy always compiled when it was saved; if it somehow no longer does, ask for everything.
    const policy = result.ok
      ? result.policy
      : (compileAccountPolicy(undefined) as { ok: true; policy: CompiledPolicy }).policy;
    this.compiled = { text, policy };
    return policy;
  }

  // ---- deciding ----

  async decide(
    request: DecisionRequest,
    requesterDevice: string | null,
    now = Date.now(),
  ): Promise<DecideOutcome> {
    const existing = this.store.call(request.call_id);
    if (existing) {
      const response = responseOf(existing);
      if (response) return { kind: "decided", response };
      return { kind: "pending", promptId: existing.prompt_id ?? "" };
    }
    const verdict = edgeVerdict(this.accountPolicy(), request, this.settings.emergency());
    const { record } = verdict;
    const base: CallRow = {
      call_id: request.call_id,
      session_id: request.session_id,
      agent_id: request.agent.id,
      agent_version: request.agent.version ?? null,
      device_id: requesterDevice,
      prompt_id: null,
      tool: request.tool,
      capability: record.capability,
      risk: record.risk,
      scope_kind: record.scope.kind,
      scope_summary: record.scope.summary,
      scope_group: record.scope.group,
      scope_hash: record.scopeHash,
      status: "pending",
      decision: null,
      reason: null,
      source: null,
      rule: record.rule,
      created_at: now,
      decided_at: null,
      cwd: request.cwd ? redactText(request.cwd).slice(0, MAX_CWD) : null,
      description: agentDescription(request.input),
    };

    const immediate = await this.immediateAnswer(
      request,
      base,
      verdict.action,
      verdict.emergency,
      record.message,
      now,
    );
    if (immediate) {
      this.store.insertCall({ ...base, status: "decided", ...immediate, decided_at: now });
      await this.audit([immediateAudit(this.ports.userId(), base, immediate, now)]);
      return {
        kind: "decided",
        response: { call_id: base.call_id, ...immediate, ...(base.rule ? { rule: base.rule } : {}) },
      };
    }
    const prompt = this.joinOrCreatePrompt(request, base, record.justification, now);
    this.store.insertCall({ ...base, prompt_id: prompt.id });
    if (prompt.announced) this.ports.toDashboards({ type: "prompt_updated", data: this.view(prompt) });
    await this.schedule();
    return { kind: "pending", promptId: prompt.id };
  }

  private async immediateAnswer(
    request: DecisionRequest,
    call: CallRow,
    action: string,
    emergency: boolean,
    message: string | undefined,
    now: number,
  ): Promise<Pick<DecisionResponse, "decision" | "reason" | "source"> | undefined> {
    if (emergency)
      return { decision: "deny", reason: message ?? "Blocked by an emergency control.", source: "emergency" };
    if (action === "deny" || action === "hidden") {
      return {
        decision: "deny",
        reason: message ?? `Denied by policy${call.rule ? ` (${call.rule})` : ""}.`,
        source: "policy",
      };
    }
    if (action === "allow")
      return { decision: "allow", reason: message ?? "Allowed by policy.", source: "policy" };
    const scope = {
      agentId: call.agent_id,
      agentVersion: request.agent.version,
      capability: call.capability,
      group: call.scope_group,
    };
    const grant = await this.grants.match(scope);
    if (grant) {
      return {
        decision: grant.effect,
        reason: `${grant.effect === "allow" ? "Allowed" : "Denied"} by a saved grant (${grant.scopePattern ?? `any ${grant.capability}`}).`,
        source: "grant",
      };
    }
    if (this.sessions.match(call.session_id, call.agent_id, call.capability, call.scope_group, now)) {
      return { decision: "allow", reason: "Allowed for this session.", source: "session_grant" };
    }
    return undefined;
  }

  private joinOrCreatePrompt(
    request: DecisionRequest,
    call: CallRow,
    justification: string,
    now: number,
  ): PromptRow {
    const key = [request.agent.id, call.capability, call.risk, call.scope_group].join("\u0000");
    const open = this.store.openPromptByKey(key);
    if (open) return open;
    const timeoutMs = this.settings.promptTimeoutMs(this.ports.defaultTimeoutMs || DEFAULT_PROMPT_TIMEOUT_MS);
    const prompt: PromptRow = {
      id: newId("prm"),
      prompt_key: key,
      status: "open",
      agent: JSON.stringify(request.agent),
      capability: call.capability,
      risk: call.risk,
      method: request.tool,
      scope_group: call.scope_group,
      justification,
      created_at: now,
      opens_at: now + BATCH_WINDOW_MS,
      announced: 0,
      expires_at: now + timeoutMs,
      timeout_ms: timeoutMs,
      resolution: null,
      resolved_at: null,
      decided_by_actor: null,
      decided_by_device: null,
    };
    this.store.insertPrompt(prompt);
    return prompt;
  }

  /** Resolves when the call is decided; undefined if `deadline` passes first. */
  waitFor(callId: string, deadline: number): Promise<DecisionResponse | undefined> {
    const call = this.store.call(callId);
    const decided = call && responseOf(call);
    if (decided) return Promise.resolve(decided);
    return new Promise((resolve) => {
      const waiters = this.waiters.get(callId) ?? new Set();
      this.waiters.set(callId, waiters);
      const timer = setTimeout(
        async () => {
          waiters.delete(done);
          // The alarm may be late; settle anything overdue before giving up.
          await this.onAlarm(Date.now());
          const late = this.store.call(callId);
          resolve(late ? responseOf(late) : undefined);
        },
        Math.max(0, deadline - Date.now()),
      );
      const done = (response: DecisionResponse) => {
        clearTimeout(timer);
        resolve(response);
      };
      waiters.add(done);
    });
  }

  // ---- resolving ----

  async confirm(
    promptId: string,
    now = Date.now(),
  ): Promise<HubResult<{ token: string; expiresAt: number }>> {
    const prompt = this.store.prompt(promptId);
    if (!prompt) return failure(404, "not_found", `No prompt ${promptId}.`);
    if (prompt.status !== "open") return failure(409, "conflict", `Prompt ${promptId} is already resolved.`);
    const fingerprint = scopesFingerprint(this.store.callsOfPrompt(promptId));
    return { ok: true, value: await this.confirmations.issue(promptId, fingerprint, now) };
  }

  async resolve(
    promptId: string,
    decision: PromptDecision,
    by: Decider,
    confirmationToken?: string,
    now = Date.now(),
    message?: string,
  ): Promise<HubResult<ResolvedPrompt>> {
    const prompt = this.store.prompt(promptId);
    if (!prompt) return failure(404, "not_found", `No prompt ${promptId}.`);
    if (prompt.status !== "open")
      return failure(409, "conflict", `Prompt ${promptId} is already resolved (${prompt.resolution}).`);
    const calls = this.store.callsOfPrompt(promptId);
    if (decision === "allow_session" && proposalOfPrompt(this.ports.sql, promptId)) {
      return failure(400, "bad_request", "A proposal has no session: approve it once or always.");
    }
    if (decision.startsWith("allow") && prompt.risk === "high") {
      const check = await this.confirmations.consume(
        confirmationToken,
        promptId,
        scopesFingerprint(calls),
        now,
      );
      if (check !== "ok") {
        await this.audit([confirmationRefused(this.ports.userId(), prompt, decision, check, by, now)]);
        return failure(
          403,
          "confirmation_required",
          check === "scopes_changed"
            ? "The batch changed since you confirmed; review it and confirm again."
            : "High-risk approvals need a fresh confirmation token: confirm first, then approve.",
          { reason: check },
        );
      }
    }
    const note = !decision.startsWith("allow") && message?.trim() ? redactText(message.trim()) : undefined;
    return { ok: true, value: await this.settle(prompt, calls, decision, by, now, note) };
  }

  private async settle(
    prompt: PromptRow,
    calls: CallRow[],
    resolution: PromptDecision | "deny_timeout",
    by: Decider,
    now: number,
    note?: string,
  ): Promise<ResolvedPrompt> {
    if (!this.store.resolvePrompt(prompt.id, resolution, now, by.actor, by.deviceId)) {
      return this.resolvedView(this.store.prompt(prompt.id) ?? prompt);
    }
    const proposal = proposalOfPrompt(this.ports.sql, prompt.id);
    if (proposal) return this.settleProposal(prompt, proposal.id, resolution, by);
    const agent = parseAgent(prompt.agent);
    const allow = resolution.startsWith("allow");
    const source = resolution === "deny_timeout" ? "timeout" : "user";
    const reason =
      resolution === "deny_timeout"
        ? `Nobody answered within ${Math.round(prompt.timeout_ms / 1000)} s (deny_timeout).`
        : `${allow ? "Allowed" : "Denied"} by a person (${resolution}).${note ? ` Their message: ${note}` : ""}`;
    await this.recordGrants(prompt, calls, resolution, agent.version, by, now);
    const pending = calls.filter((c) => c.status === "pending");
    for (const call of pending) {
      const response: DecisionResponse = {
        call_id: call.call_id,
        decision: allow ? "allow" : "deny",
        reason,
        source,
        prompt_id: prompt.id,
        ...(call.rule ? { rule: call.rule } : {}),
      };
      this.store.decideCall(call.call_id, response, now);
      if (call.device_id)
        this.ports.toDevice(call.device_id, { type: "capability_decision", data: response });
      for (const wake of this.waiters.get(call.call_id) ?? []) wake(response);
      this.waiters.delete(call.call_id);
    }
    const resolved = this.resolvedView(this.store.prompt(prompt.id) ?? prompt);
    await this.audit([resolutionAudit(this.ports.userId(), prompt, calls, resolution, by, now)]);
    this.ports.toDashboards({ type: "prompt_resolved", data: resolved });
    await this.schedule();
    return resolved;
  }

  /** A proposal's prompt: no calls to answer, no agent grants; the conveyor takes the decision. */
  private async settleProposal(
    prompt: PromptRow,
    proposalId: string,
    resolution: PromptDecision | "deny_timeout",
    by: Decider,
  ): Promise<ResolvedPrompt> {
    await this.ports.proposals?.onResolved(proposalId, resolution, by, prompt.id);
    const resolved = this.resolvedView(this.store.prompt(prompt.id) ?? prompt);
    this.ports.toDashboards({ type: "prompt_resolved", data: resolved });
    await this.schedule();
    return resolved;
  }

  private async recordGrants(
    prompt: PromptRow,
    calls: CallRow[],
    resolution: PromptDecision | "deny_timeout",
    version: string | undefined,
    by: Decider,
    now: number,
  ): Promise<void> {
    const agentId = parseAgent(prompt.agent).id;
    const pattern = scopePatternFor(prompt.capability, prompt.scope_group);
    if (resolution === "allow_session") {
      for (const sessionId of new Set(calls.map((c) => c.session_id))) {
        this.sessions.add(sessionId, agentId, prompt.capability, pattern, now);
      }
    }
    if (resolution === "allow_always" || resolution === "deny_always") {
      await this.grants.add({
        agentId,
        capability: prompt.capability,
        scopePattern: pattern,
        versionRange: versionRangeFor(version),
        effect: resolution === "allow_always" ? "allow" : "deny",
        createdAt: now,
        createdByDevice: by.deviceId,
        promptId: prompt.id,
      });
    }
  }

  // ---- time ----

  async onAlarm(now = Date.now()): Promise<void> {
    const due = this.store.duePrompts(now + DUE_SLACK_MS);
    for (const prompt of due.announce) {
      if (prompt.expires_at <= now + DUE_SLACK_MS) continue;
      this.store.markAnnounced(prompt.id);
      this.ports.toDashboards({ type: "capability_prompt", data: this.view(prompt) });
    }
    for (const prompt of due.expire) {
      await this.settle(
        prompt,
        this.store.callsOfPrompt(prompt.id),
        "deny_timeout",
        { actor: "timeout", deviceId: null },
        now,
      );
    }
    this.sessions.pruneIdle(now);
    this.confirmations.prune(now);
    this.store.prune(now - CALL_RETENTION_MS);
    await this.schedule();
  }

  /** One alarm drives every deadline: batch windows, prompt timeouts, idle session grants. */
  async schedule(): Promise<void> {
    const candidates = [
      this.store.nextDeadline(),
      this.sessions.nextIdleExpiry(),
      this.ports.proposals?.nextWake() ?? null,
    ].filter((t): t is number => t !== null);
    // Never re-arm for an instant that has already come (see DUE_SLACK_MS).
    if (candidates.length)
      await this.ports.setAlarm(Math.max(Math.min(...candidates), Date.now() + DUE_SLACK_MS));
  }

  // ---- views ----

  view(prompt: PromptRow) {
    const base = promptView(prompt, this.store.callsOfPrompt(prompt.id));
    const proposal = proposalOfPrompt(this.ports.sql, prompt.id);
    return proposal ? proposalPromptView(base, proposal) : base;
  }

  private resolvedView(prompt: PromptRow): ResolvedPrompt {
    const base = resolvedView(prompt, this.store.callsOfPrompt(prompt.id));
    const proposal = proposalOfPrompt(this.ports.sql, prompt.id);
    return proposal ? { ...base, ...proposalPromptView(base, proposal) } : base;
  }

  pendingViews() {
    return this.store.openPrompts().map((p) => this.view(p));
  }

  resolvedViews(limit: number) {
    return this.store.resolvedPrompts(limit).map((p) => this.resolvedView(p));
  }

  decisionFor(callId: string): { response?: DecisionResponse; promptId?: string } | undefined {
    const call = this.store.call(callId);
    if (!call) return undefined;
    const response = responseOf(call);
    return response ? { response } : { promptId: call.prompt_id ?? undefined };
  }

  // ---- audit ----

  async audit(entries: AuditEntry[]): Promise<void> {
    await writeAuditBatch(this.ports.db, entries);
  }
}
