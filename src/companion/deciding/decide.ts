// The companion's side of the one decision core (src/policy: judgeCall + verdictOf + answerOf, the same functions
// the edge calls): local policy, emergency controls and grants decide at once; otherwise a person is asked.

import { withAgentAsk } from "../../policy/agent-check.ts";
import { answerOf } from "../../policy/answer.ts";
import { type DiskCheck, factLine } from "../../policy/call-facts.ts";
import { causalChangeNotes, withCausalChange } from "../../policy/causal-change.ts";
import { type GrantRule, matchGrants } from "../../policy/grants.ts";
import type { CompiledPolicy, DecisionRecord, EmergencyControls, ToolCall } from "../../policy/index.ts";
import { judgeCall } from "../../policy/judge-call.ts";
import type { CausalPin } from "../../policy/types.ts";
import { ungatedPolicy } from "../../policy/ungated.ts";
import { verdictOf } from "../../policy/verdict.ts";
import type { LocalDecisionEvent as AuditEvent } from "../../protocol/audit.ts";
import type { CausalPinWire } from "../../protocol/decisions.ts";
import type { Env } from "../cli/config.ts";
import {
  type AgentToolCall,
  type CompanionDecision,
  type DecisionRecordView,
  denied,
} from "../control/tool-call.ts";
import { diskCheck } from "../guards/disk-view.ts";
import { formatLoadErrors, type PolicyState } from "../local-policy/state.ts";
import { CausalHistory, type PinnedRunner, pinCall } from "./causal-pins.ts";

export type { AgentToolCall, CompanionDecision } from "../control/tool-call.ts";

/** Asks a person through the edge. Resolves with their answer, or a deny that says why there is none. */
export interface Approver {
  /** `facts`: what the companion found on disk (one line each), sent so the edge and the card see them. */
  ask(
    call: AgentToolCall,
    record: DecisionRecord,
    timeoutMs: number,
    facts?: readonly string[],
  ): Promise<CompanionDecision>;
}

export interface DecideDeps {
  policy: (cwd: string) => PolicyState;
  emergency?: () => EmergencyControls | undefined;
  /** Saved grants (allow_always / deny_always) as last fetched from the edge. */
  grants?: () => readonly GrantRule[];
  /** The allow_session grants of one session and agent. */
  sessionGrants?: (sessionId: string, agentId: string) => readonly GrantRule[];
  /** Absent when the companion is not paired: an `ask` then fails closed with `unpairedReason`. */
  approver?: Approver;
  unpairedReason?: string;
  audit?: (event: AuditEvent) => void;
  promptTimeoutMs: number;
  /** `return`: hand an `ask` back to the agent (Claude Code's own prompt) instead of asking the phone. */
  askMode?: "approver" | "return";
  /** How paths are resolved at decision time: the real filesystem unless a test supplies its own view. */
  disk?: DiskCheck;
  /** Causal grants: how commands that run project code are pinned, and the contents pinned before. */
  causal?: CausalPinning;
}

export interface CausalPinning {
  pin(call: AgentToolCall): PinnedRunner[];
  /** Null: no contents are kept, so a card cannot say what changed. */
  history: CausalHistory | null;
}

/** The real pinning, remembering contents under the state directory of `env`. */
export function diskPinning(env: Env): CausalPinning {
  return { pin: (call) => pinCall(call), history: new CausalHistory(env) };
}

/** Pins from the real disk; remembers nothing (the daemon and the hook pass their state directory's history). */
const readOnlyPinning: CausalPinning = { pin: (call) => pinCall(call), history: null };

const realDisk = diskCheck();

export function auditEventOf(
  call: AgentToolCall,
  record: DecisionRecord,
  action: AuditEvent["action"] = record.action,
  source: AuditEvent["source"] = record.layer === "emergency" ? "emergency" : "policy",
  grantId?: string,
): AuditEvent {
  const ungated = call.ungated === true ? { ungated: true } : {};
  return {
    ...(source === "grant" && grantId ? { grant_id: grantId } : {}),
    ...ungated,
    call_id: call.callId,
    session_id: call.sessionId,
    agent_id: call.agent.id,
    tool: call.tool,
    capability: record.capability,
    risk: record.risk,
    action,
    layer: record.layer,
    rule: record.rule === null ? null : record.rule.slice(0, 500),
    scope_hash: record.scopeHash,
    source,
    at: new Date().toISOString(),
  };
}

function view(record: DecisionRecord): DecisionRecordView {
  return { ...record, scope: { ...record.scope } };
}

function withRule(decision: CompanionDecision, record: DecisionRecord): CompanionDecision {
  const out: CompanionDecision = { ...decision, record: view(record) };
  if (record.rule) out.rule = record.rule;
  return out;
}

type LocalOutcome =
  | { decision: CompanionDecision }
  | { ask: DecisionRecord; timeoutMs: number; facts: string[]; causal: CausalPinWire[] };

/**
 * Local policy and grants only: the answer when it needs no person, or the record that needs one. Under
 * `mode: sole` the decision names the file that chose it, and the agent's own ask is left to Airlock's verdict.
 */
export function decideLocally(
  call: AgentToolCall,
  deps: Omit<DecideDeps, "approver">,
): LocalOutcome & { call: AgentToolCall; sole: string | null } {
  const state = deps.policy(call.cwd);
  if (!state.ok) {
    return {
      call,
      sole: null,
      decision: denied(
        `Airlock denied this call: the local policy does not load (${formatLoadErrors(state.errors)})`,
      ),
    };
  }
  const sole = state.policy.soleFrom;
  if (sole === null) {
    // Only the policy's own mode marks a card "sole", never a flag on the incoming call.
    const { sole: _flag, ...plain } = call;
    return withPins(plain, sole, judgeLocally(plain, deps, state.policy));
  }
  const { agentAsks: _ignored, ...rest } = call;
  const judged: AgentToolCall = { ...rest, sole: true };
  const out = judgeLocally(judged, deps, state.policy);
  return "decision" in out
    ? { call: judged, sole, decision: { ...out.decision, sole } }
    : withPins(judged, sole, out);
}

/** An ask carries its pins to the edge, which builds the grant a person's "always" saves from them. */
function withPins(
  call: AgentToolCall,
  sole: string | null,
  out: LocalOutcome,
): LocalOutcome & { call: AgentToolCall; sole: string | null } {
  // Only the companion's own reading pins a call: whatever an adapter handed in is dropped.
  const { causal: _given, ...plain } = call;
  if ("decision" in out || out.causal.length === 0) return { call: plain, sole, ...out };
  return { call: { ...plain, causal: out.causal }, sole, ...out };
}

/** Pins the call's commands that run project code; a failure pins nothing (no pinned grant then covers them). */
function pinnedOf(call: AgentToolCall, pinning: CausalPinning): PinnedRunner[] {
  try {
    const pinned = pinning.pin(call);
    for (const p of pinned) pinning.history?.remember(p);
    return pinned;
  } catch {
    return [];
  }
}

/** The pins sent with an ask, each with the earlier contents this machine pinned and what changed since. */
function pinsWithEarlier(pinned: readonly PinnedRunner[], pinning: CausalPinning): CausalPinWire[] {
  return pinned.map((p) => {
    const earlier = pinning.history?.earlier(p) ?? [];
    const pin = { dir: p.dir, key: p.key, pin: p.pin };
    return earlier.length === 0 ? pin : { ...pin, earlier };
  });
}

/** Whether the call with these pins would be covered by a saved allow grant this companion knows. */
function coveredLocally(
  call: AgentToolCall,
  toolCall: ToolCall,
  policy: CompiledPolicy,
  grants: readonly GrantRule[],
): (causal: CausalPin[]) => boolean {
  return (causal) => {
    const units = judgeCall(policy, { ...toolCall, causal }, { hasUI: true }).units;
    return (
      matchGrants(grants, { agentId: call.agent.id, agentVersion: call.agent.version, units })?.effect ===
      "allow"
    );
  };
}

function judgeLocally(
  call: AgentToolCall,
  deps: Omit<DecideDeps, "approver">,
  base: CompiledPolicy,
): LocalOutcome {
  const hasUI = call.hasUI || deps.unpairedReason === undefined;
  // An ungated session is judged without the local layers, unless a layer forbids that (then as any call).
  const ungated = call.ungated === true ? ungatedPolicy(base) : null;
  const policy = ungated ?? base;
  // Audit says "ungated" only for a call that really skipped the local layers.
  const audited = call.ungated === true && ungated === null ? { ...call, ungated: false } : call;
  const disk = deps.disk ?? realDisk;
  // Every local decision's audit says the mode it was decided in (seed 004's policy_mode).
  const audit = (e: AuditEvent) => deps.audit?.({ ...e, policy_mode: policy.mode });
  const pinning = deps.causal ?? readOnlyPinning;
  const pinned = pinnedOf(call, pinning);
  const toolCall: ToolCall = {
    tool: call.tool,
    input: call.input,
    cwd: call.cwd,
    agent: call.agent.id,
    ...(call.workspace ? { workspace: call.workspace } : {}),
    causal: pinned.map(({ dir, key, pin }) => ({ dir, key, pin })),
  };
  const judged = judgeCall(policy, toolCall, { hasUI }, disk);
  const facts = judged.facts.map(factLine);
  const verdict = withAgentAsk(
    verdictOf({
      record: judged.record,
      emergency: deps.emergency?.(),
      agent: call.agent,
      units: judged.units,
      grants: deps.grants?.() ?? [],
      sessionGrants: deps.sessionGrants?.(call.sessionId, call.agent.id) ?? [],
      mode: policy.mode,
    }),
    call.agent.name,
    call.agentAsks,
  );
  const { record } = verdict;
  if (verdict.action === "deny" && verdict.source === "policy" && record.headless) {
    // A deny only because no person can be reached (an agent without its own prompt, no pairing): the agent's model
    // must learn why, as it does when the phone is paired but unreachable.
    audit(auditEventOf(audited, record));
    const why = deps.unpairedReason || "no one can be asked";
    const who = record.rule
      ? `rule "${record.rule}" asks for a person's approval`
      : "it needs a person's approval";
    return {
      decision: withRule(denied(`Airlock denied this call: ${who}, but ${why}`, "unavailable"), record),
    };
  }
  if (verdict.action === "ask") {
    // A policy file's `timeout` can shorten the wait, never lengthen it past the hook's own budget.
    const fromPolicy = policy.confirmTimeoutMs ?? Number.POSITIVE_INFINITY;
    const causal = pinsWithEarlier(pinned, pinning);
    // The edge, which holds every saved grant, names the change on the card; this side does for an ask it hands
    // back to the agent (and for the grants it has cached).
    const grants = deps.grants?.() ?? [];
    const notes =
      grants.length === 0 ? [] : causalChangeNotes(causal, coveredLocally(call, toolCall, policy, grants));
    const asked = withCausalChange({ record, units: judged.units, facts: [] }, notes).record;
    return { ask: asked, timeoutMs: Math.min(deps.promptTimeoutMs, fromPolicy), facts, causal };
  }
  if (verdict.source === "grant" || verdict.source === "session_grant")
    audit(auditEventOf(audited, record, verdict.action, verdict.source, verdict.grant?.id));
  else audit(auditEventOf(audited, record));
  return { decision: withRule(answerOf(verdict, { ungated: ungated !== null }), record) };
}

/** Decides one call. Never throws: any failure is a deny with a reason. */
export async function decideToolCall(agentCall: AgentToolCall, deps: DecideDeps): Promise<CompanionDecision> {
  try {
    const local = decideLocally(agentCall, deps);
    if ("decision" in local) return local.decision;
    const call = local.call;
    const record = local.ask;
    if (deps.askMode === "return") {
      return withRule(
        {
          decision: "ask",
          reason: record.message ?? `Airlock: ${record.justification} — ${record.scope.summary}`,
          source: "policy",
        },
        record,
      );
    }
    if (!deps.approver) {
      // An agent's own ask keeps its reason: the model learns what the agent's check objected to.
      const asked = call.agentAsks ? ` (${record.justification})` : "";
      return withRule(
        denied(
          `Airlock denied this call: it needs a person's approval${asked}, but ${deps.unpairedReason ?? "no approver is configured"}`,
          "unavailable",
        ),
        record,
      );
    }
    const answer = await deps.approver.ask(call, record, local.timeoutMs, local.facts);
    return withRule(local.sole === null ? answer : { ...answer, sole: local.sole }, record);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return denied(`Airlock denied this call because deciding it failed: ${message}`);
  }
}
