// What each starter profile would ask on this repository: the everyday calls judged as the companion judges
// them (the policy, then the disk), with the answers a card would offer. `airlock init` prints it before the
// person picks a profile; the everyday test prints the table for `balanced`.

import type { DiskCheck } from "../../policy/call-facts.ts";
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  type GrantOffer,
  grantOffer,
  judgeCall,
} from "../../policy/index.ts";
import { PROFILES, type Profile, starterPolicy } from "../local-policy/starter.ts";
import { EVERYDAY_CALLS, type EverydayCall } from "./everyday-calls.ts";

export interface JudgedEveryday {
  call: EverydayCall;
  record: DecisionRecord;
  offer: GrantOffer;
  /** One line: the rule that allowed it, or what the card would say. */
  reason: string;
}

export function profilePolicy(profile: Profile, home: string): CompiledPolicy {
  const compiled = compilePolicy([
    { layer: "user", path: `${home}/.airlock/permissions.yaml`, text: starterPolicy(profile) },
  ]);
  // The starter policies are fixed text: one that does not compile is a bug, never a user's mistake.
  if (!compiled.ok)
    throw new Error(`starter profile ${profile} does not compile: ${compiled.errors[0]?.message}`);
  return compiled.policy;
}

/** A call as one line of a table. */
export function shownEveryday(call: EverydayCall): string {
  const i = call.input;
  if (typeof i.command === "string") return i.command;
  const target = i.file_path ?? i.path ?? i.pattern ?? "";
  return `${call.tool} ${String(target)}`;
}

export function judgeEveryday(
  policy: CompiledPolicy,
  cwd: string,
  home: string,
  disk: DiskCheck | undefined,
  calls: readonly EverydayCall[] = EVERYDAY_CALLS,
): JudgedEveryday[] {
  return calls.map((call) => {
    const judged = judgeCall(
      policy,
      { tool: call.tool, input: call.input, cwd, home, agent: "claude-code" },
      { hasUI: true },
      disk,
    );
    const { record } = judged;
    const offer = grantOffer(record.risk, judged.units);
    const first = judged.facts[0]?.reason;
    let reason: string;
    if (record.action === "allow") reason = `rule "${record.rule ?? "default"}"`;
    else if (record.action !== "ask") reason = record.message ?? record.rule ?? record.reasons[0] ?? "";
    else if (offer.why !== null) reason = first !== undefined ? `${first}; ${offer.why}` : offer.why;
    else reason = `${record.justification}; offers "always" for exactly this`;
    return { call, record, offer, reason };
  });
}

export interface ProfilePreview {
  profile: Profile;
  total: number;
  asks: number;
  readOnly: number;
  readOnlyAsks: number;
  /** Asks that need the second tap. */
  high: number;
  /** A few calls it would ask about, as shown. */
  examples: string[];
}

export function previewProfiles(
  cwd: string,
  home: string,
  disk: DiskCheck | undefined,
  calls: readonly EverydayCall[] = EVERYDAY_CALLS,
): ProfilePreview[] {
  return PROFILES.map((profile) => {
    const judged = judgeEveryday(profilePolicy(profile, home), cwd, home, disk, calls);
    const asks = judged.filter((j) => j.record.action === "ask");
    return {
      profile,
      total: judged.length,
      asks: asks.length,
      readOnly: judged.filter((j) => j.call.kind === "read").length,
      readOnlyAsks: asks.filter((j) => j.call.kind === "read").length,
      high: asks.filter((j) => j.record.risk === "high").length,
      examples: asks.slice(0, 4).map((j) => shownEveryday(j.call)),
    };
  });
}
