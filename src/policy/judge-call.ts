// One agent tool call → the policy's record and its grant units. The tool name goes through the one
// name table first (Claude Code's `Bash` is the shell, Codex's `apply_patch` one edit per file); a call
// that stands for several canonical calls is judged by its strictest part, and its units are all parts'.
// Input fields the table does not know, and — where the caller can look at the disk (the companion) —
// what the call's paths really are, are facts that raise an allow to a question for a person.

import { type CallFact, type DiskCheck, raiseForFacts } from "./call-facts.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { decide } from "./decide.ts";
import { diskTargetsOf } from "./disk-targets.ts";
import { bound, type GrantUnit, grantUnitsOf, uncoverable } from "./grant-units.ts";
import { normalizePath, resolvePath } from "./paths.ts";
import { canonicalCalls } from "./tool-names.ts";
import { actionRank, type DecideOptions, type DecisionRecord, RISK_RANK, type ToolCall } from "./types.ts";

export interface JudgedCall {
  record: DecisionRecord;
  units: GrantUnit[];
  /** What raised the record above what its text alone gets: unknown fields, paths as the disk has them. */
  facts: CallFact[];
}

function stricterRecord(a: DecisionRecord, b: DecisionRecord): DecisionRecord {
  const byAction = actionRank(b.action) - actionRank(a.action);
  if (byAction !== 0) return byAction > 0 ? b : a;
  // Of two denies, a rule's is stricter than one only for want of a person (a person could not lift it).
  if (a.headless !== b.headless) return a.headless ? b : a;
  return RISK_RANK[b.risk] > RISK_RANK[a.risk] ? b : a;
}

/** A fact about where a link really leads is lifted when the rules allow reading that place by itself. */
function readAllowed(
  policy: CompiledPolicy,
  call: ToolCall,
  opts: DecideOptions,
  path: string | undefined,
): boolean {
  if (path === undefined) return false;
  const read: ToolCall = { ...call, tool: "read", input: { path } };
  return decide(policy, read, { ...opts, diskChecked: true }).action === "allow";
}

/**
 * Judges a call. `disk` (the companion's look at the real filesystem) adds what the text cannot show;
 * the edge, which cannot see the disk, passes none and takes the companion's facts from its request.
 */
/** The edge's side: the companion's facts (it looked at the disk) raise the record and the units alike. */
export function withReportedFacts(judged: JudgedCall, lines: readonly string[], hasUI: boolean): JudgedCall {
  if (lines.length === 0) return judged;
  const facts = lines.map((reason) => ({ subject: null, reason }));
  const record = raiseForFacts(judged.record, facts, hasUI);
  return {
    record: { ...record, justification: `${lines[0]} — ${record.justification}` },
    units: judged.units.map((u) => uncoverable(u, lines[0] as string)),
    facts: [...judged.facts, ...facts],
  };
}

export function judgeCall(
  policy: CompiledPolicy,
  call: ToolCall,
  opts: DecideOptions,
  disk?: DiskCheck,
): JudgedCall {
  const parts = canonicalCalls(call.tool, call.input);
  let record: DecisionRecord | undefined;
  const units: GrantUnit[] = [];
  const facts: CallFact[] = [];
  for (const part of parts) {
    // A tool's own working directory (Codex's `workdir`) is where the call runs: judged there, not in the
    // session's. Rules take `cwd` for the project, so a workdir outside the session's is not understood.
    const session = normalizePath(call.workspace ?? call.cwd);
    const callCwd = normalizePath(call.cwd);
    const cwd = part.cwd === undefined ? callCwd : resolvePath(callCwd, part.cwd);
    const canonical: ToolCall = { ...call, tool: part.tool, input: part.input, cwd };
    // With the disk, a glob a read reads is judged by its matches there (globsOnDisk); any fact the disk
    // reports brings back the judgment by every name it could match (a secret matched stays the rules'
    // deny, not a question): the relaxed answer stands only when the disk showed nothing.
    let r = decide(
      policy,
      canonical,
      disk === undefined ? opts : { ...opts, diskChecked: true, globsOnDisk: true },
    );
    const partFacts: CallFact[] = part.notUnderstood.map((reason) => ({ subject: null, reason }));
    if (cwd !== session && !cwd.startsWith(session === "/" ? "/" : `${session}/`))
      partFacts.push({
        subject: part.cwd ?? call.cwd,
        reason: `the working directory is outside the session's workspace \`${session}\`, which rules take for the project`,
      });
    if (disk !== undefined && r.action !== "hidden" && r.action !== "deny")
      partFacts.push(
        ...(cwd === session
          ? disk(diskTargetsOf(canonical), canonical.cwd)
          : disk(diskTargetsOf(canonical), canonical.cwd, session)
        ).filter((f) => !readAllowed(policy, canonical, opts, f.unlessReadable)),
      );
    if (disk !== undefined && partFacts.length > 0)
      r = stricterRecord(r, decide(policy, canonical, { ...opts, diskChecked: true }));
    r = raiseForFacts(r, partFacts, opts.hasUI);
    facts.push(...partFacts);
    record = record === undefined ? r : stricterRecord(record, r);
    // What a fact raised, no allow grant covers: a grant may do what a plain allow rule could, no more.
    const partUnits = grantUnitsOf(canonical);
    units.push(
      ...(partFacts.length === 0
        ? partUnits
        : partUnits.map((u) => uncoverable(u, (partFacts[0] as CallFact).reason))),
    );
  }
  // canonicalCalls always yields at least one part.
  return { record: record as DecisionRecord, units: bound(units), facts };
}
