// The one decision core shared by the daemon and the no-daemon path: local policy, then grants, then a person.
import type { DecisionRecord, EmergencyControls } from "../policy/index.ts";
import type { AuditEvent } from "./edge-client.ts";
import type { GrantHit } from "./grants.ts";
import { formatLoadErrors, judge, type PolicyState } from "./local-policy.ts";
import { type AgentToolCall, type CompanionDecision, type DecisionRecordView, denied } from "./tool-call.ts";

export type { AgentToolCall, CompanionDecision } from "./tool-call.ts";

/** Asks a person through the edge. Resolves with their answer, or a deny that says why there is none. */
export interface Approver {
  ask(call: AgentToolCall, record: DecisionRecord, timeoutMs: number): Promise<CompanionDecision>;
}

export interface DecideDeps {
  policy: (cwd: string) => PolicyState;
  emergency?: () => EmergencyControls | undefined;
  grants?: (call: AgentToolCall, record: DecisionRecord) => GrantHit | undefined;
  /** Absent when the companion is not paired: an `ask` then fails closed with `unpairedReason`. */
  approver?: Approver;
  unpairedReason?: string;
  audit?: (event: AuditEvent) => void;
  promptTimeoutMs: number;
  /** `return`: hand an `ask` back to the agent (Claude Code's own prompt) instead of asking the phone. */
  askMode?: "approver" | "return";
}

export function auditEventOf(
  call: AgentToolCall,
  record: DecisionRecord,
  action: AuditEvent["action"] = record.action,
  source: AuditEvent["source"] = record.layer === "emergency" ? "emergency" : "policy",
): AuditEvent {
  return {
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

function ruleText(record: DecisionRecord): string {
  if (record.rule) return `rule "${record.rule}" (${record.layer} layer)`;
  return record.layer === "default" ? "the built-in default" : `the ${record.layer} layer's default`;
}

function withRule(decision: CompanionDecision, record: DecisionRecord): CompanionDecision {
  const out: CompanionDecision = { ...decision, record: view(record) };
  if (record.rule) out.rule = record.rule;
  return out;
}

/** Local policy and grants only: the answer when it needs no person, or the record that needs one. */
export function decideLocally(
  call: AgentToolCall,
  deps: Omit<DecideDeps, "approver">,
): { decision: CompanionDecision } | { ask: DecisionRecord; timeoutMs: number } {
  const state = deps.policy(call.cwd);
  if (!state.ok) {
    return {
      decision: denied(
        `Airlock denied this call: the local policy does not load (${formatLoadErrors(state.errors)})`,
      ),
    };
  }
  const emergency = deps.emergency?.();
  const hasUI = call.hasUI || deps.unpairedReason === undefined;
  const record = judge(state.policy, call, { hasUI, emergency });
  const source = record.layer === "emergency" ? "emergency" : "policy";
  if (!hasUI && record.action === "deny") {
    // A deny only because no person can be reached (an agent without its own prompt, no pairing): the agent's model
    // must learn why, as it does when the phone is paired but unreachable.
    const asked = judge(state.policy, call, { hasUI: true, emergency });
    if (asked.action === "ask") {
      deps.audit?.(auditEventOf(call, record));
      const why = deps.unpairedReason || "no one can be asked";
      const who = asked.rule
        ? `rule "${asked.rule}" asks for a person's approval`
        : "it needs a person's approval";
      return {
        decision: withRule(denied(`Airlock denied this call: ${who}, but ${why}`, "unavailable"), record),
      };
    }
  }
  switch (record.action) {
    case "hidden":
      deps.audit?.(auditEventOf(call, record));
      return {
        decision: withRule(
          { decision: "deny", reason: `Tool ${call.tool} is not available in this session.`, source },
          record,
        ),
      };
    case "deny": {
      deps.audit?.(auditEventOf(call, record));
      const why = record.message ?? record.reasons[0] ?? "denied";
      return {
        decision: withRule(
          { decision: "deny", reason: `Airlock denied this call by ${ruleText(record)}: ${why}`, source },
          record,
        ),
      };
    }
    case "allow":
      deps.audit?.(auditEventOf(call, record));
      return {
        decision: withRule(
          { decision: "allow", reason: `Airlock allowed this call by ${ruleText(record)}`, source },
          record,
        ),
      };
    case "ask": {
      const hit = deps.grants?.(call, record);
      if (hit) {
        deps.audit?.(auditEventOf(call, record, hit.effect, hit.source));
        const verb = hit.effect === "allow" ? "allowed" : "denied";
        const what =
          hit.source === "session_grant" ? "an allow-for-session grant" : `a saved grant (${hit.id})`;
        return {
          decision: withRule(
            { decision: hit.effect, reason: `Airlock ${verb} this call by ${what}`, source: hit.source },
            record,
          ),
        };
      }
      // A policy file's `timeout` can shorten the wait, never lengthen it past the hook's own budget.
      const fromPolicy = state.policy.confirmTimeoutMs ?? Number.POSITIVE_INFINITY;
      return { ask: record, timeoutMs: Math.min(deps.promptTimeoutMs, fromPolicy) };
    }
  }
}

/** Decides one call. Never throws: any failure is a deny with a reason. */
export async function decideToolCall(call: AgentToolCall, deps: DecideDeps): Promise<CompanionDecision> {
  try {
    const local = decideLocally(call, deps);
    if ("decision" in local) return local.decision;
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
      return withRule(
        denied(
          `Airlock denied this call: it needs a person's approval, but ${deps.unpairedReason ?? "no approver is configured"}`,
          "unavailable",
        ),
        record,
      );
    }
    const answer = await deps.approver.ask(call, record, local.timeoutMs);
    return withRule(answer, record);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return denied(`Airlock denied this call because deciding it failed: ${message}`);
  }
}
