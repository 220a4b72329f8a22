// One agent tool call → the policy's record and its grant units. The tool name goes through the one
// name table first (Claude Code's `Bash` is the shell, Codex's `apply_patch` one edit per file); a call
// that stands for several canonical calls is judged by its strictest part, and its units are all parts'.

import type { CompiledPolicy } from "./compiled.ts";
import { decide } from "./decide.ts";
import { bound, type GrantUnit, grantUnitsOf } from "./grant-units.ts";
import { canonicalCalls } from "./tool-names.ts";
import { actionRank, type DecideOptions, type DecisionRecord, type Risk, type ToolCall } from "./types.ts";

export interface JudgedCall {
  record: DecisionRecord;
  units: GrantUnit[];
}

const RISK_RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

function stricterRecord(a: DecisionRecord, b: DecisionRecord): DecisionRecord {
  const byAction = actionRank(b.action) - actionRank(a.action);
  if (byAction !== 0) return byAction > 0 ? b : a;
  return RISK_RANK[b.risk] > RISK_RANK[a.risk] ? b : a;
}

export function judgeCall(policy: CompiledPolicy, call: ToolCall, opts: DecideOptions): JudgedCall {
  const parts = canonicalCalls(call.tool, call.input);
  let record: DecisionRecord | undefined;
  const units: GrantUnit[] = [];
  for (const part of parts) {
    const canonical: ToolCall = { ...call, tool: part.tool, input: part.input };
    const r = decide(policy, canonical, opts);
    record = record === undefined ? r : stricterRecord(record, r);
    units.push(...grantUnitsOf(canonical));
  }
  // canonicalCalls always yields at least one part.
  return { record: record as DecisionRecord, units: bound(units) };
}
