// The companion's side of the one decision core (src/policy: judgeCall + verdictOf, the same functions the
// edge calls): local policy, emergency controls and grants decide at once; otherwise a person is asked.

import { withAgentAsk } from "../policy/agent-check.ts";
import { type DiskCheck, factLine } from "../policy/call-facts.ts";
import type { GrantRule } from "../policy/grants.ts";
import type { CompiledPolicy, DecisionRecord, EmergencyControls } from "../policy/index.ts";
import { judgeCall } from "../policy/judge-call.ts";
import { ungatedPolicy } from "../policy/ungated.ts";
import { hiddenToolReason, verdictOf } from "../policy/verdict.ts";
import type { LocalDecisionEvent as AuditEvent } from "../protocol/audit.ts";
import { diskCheck } from "./guards/disk-view.ts";
import { formatLoadErrors, type PolicyState } from "./policy-state.ts";
import { type AgentToolCall, type CompanionDecision, type DecisionRecordView, denied } from "./tool-call.ts";

export type { AgentToolCall, CompanionDecision } from "./tool-call.ts";

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
}

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

function ruleText(record: DecisionRecord, ungated: boolean): string {
  if (record.rule) return `rule "${record.rule}" (${record.layer} layer)`;
  if (ungated && record.layer === "default") return "its session's setting (permissions are off)";
  return record.layer === "default" ? "the built-in default" : `the ${record.layer} layer's default`;
}

function withRule(decision: CompanionDecision, record: DecisionRecord): CompanionDecision {
  const out: CompanionDecision = { ...decision, record: view(record) };
  if (record.rule) out.rule = record.rule;
  return out;
}

type LocalOutcome =
  | { decision: CompanionDecision }
  | { ask: DecisionRecord; timeoutMs: number; facts: string[] };

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
    return { call: plain, sole, ...judgeLocally(plain, deps, state.policy) };
  }
  const { agentAsks: _ignored, ...rest } = call;
  const judged: AgentToolCall = { ...rest, sole: true };
  const out = judgeLocally(judged, deps, state.policy);
  return "decision" in out
    ? { call: judged, sole, decision: { ...out.decision, sole } }
    : { call: judged, sole, ...out };
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
  const judged = judgeCall(
    policy,
    {
      tool: call.tool,
      input: call.input,
      cwd: call.cwd,
      agent: call.agent.id,
      ...(call.workspace ? { workspace: call.workspace } : {}),
    },
    { hasUI },
    disk,
  );
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
  if (!hasUI && verdict.action === "deny" && verdict.source === "policy") {
    // A deny only because no person can be reached (an agent without its own prompt, no pairing): the agent's model
    // must learn why, as it does when the phone is paired but unreachable.
    const asked = judgeCall(
      policy,
      {
        tool: call.tool,
        input: call.input,
        cwd: call.cwd,
        agent: call.agent.id,
        ...(call.workspace ? { workspace: call.workspace } : {}),
      },
      {
        hasUI: true,
      },
      disk,
    ).record;
    if (asked.action === "ask") {
      audit(auditEventOf(audited, record));
      const why = deps.unpairedReason || "no one can be asked";
      const who = asked.rule
        ? `rule "${asked.rule}" asks for a person's approval`
        : "it needs a person's approval";
      return {
        decision: withRule(denied(`Airlock denied this call: ${who}, but ${why}`, "unavailable"), record),
      };
    }
  }
  if (verdict.action === "ask") {
    // A policy file's `timeout` can shorten the wait, never lengthen it past the hook's own budget.
    const fromPolicy = policy.confirmTimeoutMs ?? Number.POSITIVE_INFINITY;
    return { ask: record, timeoutMs: Math.min(deps.promptTimeoutMs, fromPolicy), facts };
  }
  if (verdict.source === "grant" || verdict.source === "session_grant") {
    audit(auditEventOf(audited, record, verdict.action, verdict.source, verdict.grant?.id));
    const verb = verdict.action === "allow" ? "allowed" : "denied";
    const what =
      verdict.source === "session_grant"
        ? "an allow-for-session grant"
        : `a saved grant (${verdict.grant?.id})`;
    return {
      decision: withRule(
        { decision: verdict.action, reason: `Airlock ${verb} this call by ${what}`, source: verdict.source },
        record,
      ),
    };
  }
  audit(auditEventOf(audited, record));
  const source = verdict.source;
  if (record.action === "hidden") {
    return {
      decision: withRule({ decision: "deny", reason: hiddenToolReason(call.tool), source }, record),
    };
  }
  if (verdict.action === "deny") {
    const why = record.message ?? record.reasons[0] ?? "denied";
    return {
      decision: withRule(
        {
          decision: "deny",
          reason: `Airlock denied this call by ${ruleText(record, ungated !== null)}: ${why}`,
          source,
        },
        record,
      ),
    };
  }
  return {
    decision: withRule(
      {
        decision: "allow",
        reason: `Airlock allowed this call by ${ruleText(record, ungated !== null)}`,
        source,
      },
      record,
    ),
  };
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
