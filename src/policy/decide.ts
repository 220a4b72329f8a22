// decide(): one tool call to one DecisionRecord. Bash calls are judged per simple command and
// per redirected file, combined hidden > deny > ask > allow; then headless and emergency rules.

import { capabilityOf, classify, resolvedPathOf } from "./capabilities.ts";
import { type CelContext, toCelValue } from "./cel.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { applyEmergency } from "./emergency.ts";
import { evaluateSubject, type Verdict } from "./evaluate.ts";
import { isProtectedWriteAt, protectedWriteWhat, toolHomeStateConcerns } from "./home-config.ts";
import { applyConcerns, judgeBash } from "./judge-bash.ts";
import { homeFor, normalizePath } from "./paths.ts";
import { scopeHash } from "./scope.ts";
import { toolListingConcerns } from "./secret-listings.ts";
import { isDenylistedPath } from "./secret-paths.ts";
import type { DecideOptions, DecisionRecord, ToolCall } from "./types.ts";

const NO_WORDS: readonly never[] = Object.freeze([]);
const NO_PREFIXES: Readonly<Record<string, string>> = Object.freeze({});

function baseContext(
  call: ToolCall,
  args: Record<string, unknown>,
  home: string | null,
  walked: boolean,
): CelContext {
  const capability = capabilityOf(call.tool);
  const cwd = normalizePath(call.cwd);
  const path = resolvedPathOf(call, home);
  return {
    tool: call.tool,
    args,
    cwd,
    path,
    command: call.tool === "bash" && typeof call.input.command === "string" ? call.input.command : "",
    capability,
    risk: "",
    agent: call.agent ?? "",
    tool_source: "unknown",
    tool_scope: "unknown",
    argv: NO_WORDS,
    words: NO_WORDS,
    prefixes: NO_PREFIXES,
    program: "",
    dir: cwd,
    dynamic: false,
    interactive: false,
    effect: capability === "read" || capability === "write" ? capability : "",
    sensitive:
      path !== "" &&
      (capability === "write"
        ? isProtectedWriteAt(path, home)
        : capability === "read" && isDenylistedPath(path)),
    recursive: false,
    glob: false,
    walked,
    destructive: false,
  };
}

export function decide(policy: CompiledPolicy, call: ToolCall, opts: DecideOptions): DecisionRecord {
  const diskChecked = opts.diskChecked === true;
  const disk = { diskChecked, globsOnDisk: diskChecked && opts.globsOnDisk === true };
  const cls = classify(call, opts.declaredHosts ? { declaredHosts: opts.declaredHosts, disk } : { disk });
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

  const home = homeFor(call.cwd, call.home);
  const base = baseContext(call, toCelValue(call.input) as Record<string, unknown>, home, diskChecked);
  base.risk = cls.risk;
  let verdict: Verdict;
  let reasons: string[];
  if (call.tool === "bash" && typeof call.input.command === "string") {
    ({ verdict, reasons } = judgeBash(policy, base, call.input.command, home, disk.globsOnDisk));
  } else {
    verdict = evaluateSubject(policy, base, "");
    if (base.sensitive) {
      const what = base.capability === "write" ? protectedWriteWhat(base.path, home) : "a secret";
      verdict = applyConcerns(verdict, [{ mention: "sensitive", reason: `${base.path} is ${what}` }]);
    } else
      verdict = applyConcerns(verdict, [
        ...toolHomeStateConcerns(call, base.path, home),
        ...toolListingConcerns(call, base.path),
      ]);
    reasons = [verdict.reason];
  }

  let headless = false;
  if (verdict.action === "ask" && !opts.hasUI) {
    const allow = policy.headlessAsk === "allow";
    headless = !allow;
    reasons.push(
      allow
        ? "no one can answer (headless), and headless_ask: allow"
        : "no one can answer (headless), so ask becomes deny",
    );
    verdict = { ...verdict, action: allow ? "allow" : "deny" };
  }
  const r: DecisionRecord = headless
    ? { ...record(verdict, reasons), headless: true }
    : record(verdict, reasons);
  return opts.emergency ? applyEmergency(r, opts.emergency) : r;
}
