// decide(): one tool call to one DecisionRecord. Bash calls are judged per simple command and
// per redirected file, combined hidden > deny > ask > allow; then headless and emergency rules.

import { capabilityOf, classify, resolvedPathOf } from "./capabilities.ts";
import { type CelContext, toCelValue } from "./cel.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { applyEmergency } from "./emergency.ts";
import { evaluateSubject, strictest, type Verdict } from "./evaluate.ts";
import { normalizePath, resolvePath } from "./paths.ts";
import { redactText } from "./redact.ts";
import { scopeHash } from "./scope.ts";
import { isSecretPath } from "./secret-paths.ts";
import { analyzeShell, type ShellUnit } from "./shell-analysis.ts";
import type { DecideOptions, DecisionRecord, ToolCall } from "./types.ts";

const MAX_REASONS = 24;

function baseContext(call: ToolCall, args: Record<string, unknown>): CelContext {
  const capability = capabilityOf(call.tool);
  return {
    tool: call.tool,
    args,
    cwd: normalizePath(call.cwd),
    path: resolvedPathOf(call),
    command: call.tool === "bash" && typeof call.input.command === "string" ? call.input.command : "",
    capability,
    risk: "",
    agent: call.agent ?? "",
    tool_source: "unknown",
    tool_scope: "unknown",
  };
}

function atLeastAsk(v: Verdict, why: string): Verdict {
  if (v.action === "allow")
    return {
      action: "ask",
      layer: v.layer,
      rule: v.rule,
      reason: `${why}, so it is never allowed without a person`,
    };
  return { ...v, reason: `${v.reason}; ${why}` };
}

function judgeUnit(policy: CompiledPolicy, base: CelContext, unit: ShellUnit): Verdict {
  if (unit.kind === "unparsable") {
    return {
      action: "ask",
      layer: "default",
      rule: null,
      reason: `cannot parse \`${redactedText(unit)}\`: ${unit.reason}`,
    };
  }
  if (unit.kind === "exec") {
    const ctx: CelContext = {
      ...base,
      command: unit.text,
      args: { ...base.args, command: unit.text },
      capability: "exec",
      risk: "high",
    };
    const v = evaluateSubject(policy, ctx, unit.argv[0] ?? "");
    return unit.dynamic === null ? v : atLeastAsk(v, unit.dynamic);
  }
  const tool = unit.kind === "write" ? "write" : "read";
  const path = unit.path === null ? "" : resolvePath(base.cwd, unit.path);
  const hiddenBy = policy.hiddenTools.get(tool);
  if (hiddenBy) {
    // The bash tool exists, so a redirect to a hidden file tool is refused rather than hidden.
    return {
      action: "deny",
      layer: hiddenBy.layer,
      rule: null,
      reason: `\`${unit.text}\` is a ${tool}, and ${tool} is hidden`,
    };
  }
  const risk = tool === "write" || unit.path === null || isSecretPath(path) ? "high" : "medium";
  const ctx: CelContext = {
    ...base,
    tool,
    path,
    command: "",
    args: { path: unit.path ?? "" },
    capability: tool,
    risk,
  };
  const v = evaluateSubject(policy, ctx, "");
  return unit.path === null ? atLeastAsk(v, `redirect target in \`${unit.text}\` is not static`) : v;
}

// Units come from the analysis cache, so a repeated command brings the same unit objects back;
// redacting their text for the reasons (14 regular expressions) was a quarter of a cached decision.
const redactedUnits = new WeakMap<ShellUnit, string>();
function redactedText(unit: ShellUnit): string {
  let text = redactedUnits.get(unit);
  if (text === undefined) {
    text = redactText(unit.text);
    redactedUnits.set(unit, text);
  }
  return text;
}

function judgeBash(
  policy: CompiledPolicy,
  base: CelContext,
  command: string,
): { verdict: Verdict; reasons: string[] } {
  const { units } = analyzeShell(command);
  if (units.length === 0) {
    const v = evaluateSubject(policy, base, "");
    return { verdict: v, reasons: [v.reason] };
  }
  let verdict: Verdict | null = null;
  const reasons: string[] = [];
  for (const unit of units) {
    const v = judgeUnit(policy, base, unit);
    verdict = verdict === null ? v : strictest(verdict, v);
    if (reasons.length < MAX_REASONS) reasons.push(`\`${redactedText(unit)}\`: ${v.action} — ${v.reason}`);
  }
  if (units.length > MAX_REASONS) reasons.push(`… ${units.length - MAX_REASONS} more parts`);
  return { verdict: verdict as Verdict, reasons };
}

export function decide(policy: CompiledPolicy, call: ToolCall, opts: DecideOptions): DecisionRecord {
  const cls = classify(call, opts.declaredHosts ? { declaredHosts: opts.declaredHosts } : {});
  const scope = cls.scopes[0] ?? { kind: "tool", summary: call.tool, group: call.tool };
  const record = (v: Verdict, reasons: string[]): DecisionRecord => {
    const r: DecisionRecord = {
      action: v.action,
      layer: v.layer,
      rule: v.rule,
      capability: cls.capability,
      risk: cls.risk,
      reasons,
      scope,
      scopeHash: scopeHash(scope),
      justification: cls.justification,
      tool: call.tool,
    };
    if (v.message !== undefined) r.message = v.message;
    return r;
  };

  const hiddenBy = policy.hiddenTools.get(call.tool);
  if (hiddenBy) {
    const v: Verdict = {
      action: "hidden",
      layer: hiddenBy.layer,
      rule: null,
      reason: `${call.tool} is in hidden_tools of ${hiddenBy.path}`,
    };
    const r = record(v, [v.reason]);
    return opts.emergency ? applyEmergency(r, opts.emergency) : r;
  }

  const base = baseContext(call, toCelValue(call.input) as Record<string, unknown>);
  base.risk = cls.risk;
  let verdict: Verdict;
  let reasons: string[];
  if (call.tool === "bash" && typeof call.input.command === "string") {
    ({ verdict, reasons } = judgeBash(policy, base, call.input.command));
  } else {
    verdict = evaluateSubject(policy, base, "");
    reasons = [verdict.reason];
  }

  if (verdict.action === "ask" && !opts.hasUI) {
    const allow = policy.headlessAsk === "allow";
    reasons.push(
      allow
        ? "no one can answer (headless), and headless_ask: allow"
        : "no one can answer (headless), so ask becomes deny",
    );
    verdict = { ...verdict, action: allow ? "allow" : "deny" };
  }
  const r = record(verdict, reasons);
  return opts.emergency ? applyEmergency(r, opts.emergency) : r;
}
