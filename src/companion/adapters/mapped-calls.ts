// The pre-tool step the Gemini CLI, OpenCode and Copilot CLI hooks share: one agent tool call may stand for several
// Airlock calls (a multi-file edit), each judged on its own with the same decision core, and a lone shell command
// may then be served from its precognition future. Each agent's hook keeps only its own wire shape.

import type { CompanionDecision } from "../control/tool-call.ts";
import type { HookCompanion } from "../hooks/companion.ts";
import { jsonOutput } from "../hooks/output.ts";
import type { MappedTool } from "./agent-tools.ts";

export { jsonOutput };

export type MappedVerdict =
  | { allowed: true; decisions: CompanionDecision[] }
  | { allowed: false; call: MappedTool; reason: string; several: boolean };

/** Judges every mapped call in order and stops at the first that is not allowed. */
export async function decideMapped(
  companion: HookCompanion,
  calls: readonly MappedTool[],
  at: { agent: { id: string; name: string }; callId: string; sessionId: string; cwd: string },
): Promise<MappedVerdict> {
  const decisions: CompanionDecision[] = [];
  for (const [i, mapped] of calls.entries()) {
    const d = await companion.decide(
      {
        callId: calls.length > 1 ? `${at.callId}#${i}` : at.callId,
        sessionId: at.sessionId,
        agent: at.agent,
        tool: mapped.tool,
        input: mapped.input,
        cwd: at.cwd,
        hasUI: false,
      },
      "approver",
    );
    if (d.decision !== "allow")
      return { allowed: false, call: mapped, reason: d.reason, several: calls.length > 1 };
    decisions.push(d);
  }
  return { allowed: true, decisions };
}

/** The command to run in place of a lone shell call, when its precognition future still validates. */
export async function servedCommand(
  companion: HookCompanion,
  calls: readonly MappedTool[],
  cwd: string,
): Promise<string | undefined> {
  const only = calls[0];
  if (calls.length !== 1 || only?.tool !== "bash") return undefined;
  const served = await companion.servingInput(only.input, cwd);
  return typeof served?.command === "string" ? served.command : undefined;
}

/**
 * A rewrite skips or changes the agent's own check when that check runs after the hook (OpenCode, Copilot CLI), so
 * those agents are served only calls a person answered on the phone, or under mode: sole.
 */
export const personApproved = (decisions: readonly CompanionDecision[]): boolean =>
  decisions.every((d) => d.sole !== undefined || d.source === "user");
