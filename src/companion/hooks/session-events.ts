// The session events Claude Code and Gemini CLI both send, by the same names and fields.
import type { HookCompanion } from "./companion.ts";
import { type HookResult, NOTHING } from "./output.ts";

/**
 * `SessionStart`: the idle time while the person types the first prompt warms precognition (git status, the
 * manifest). `SessionEnd`: the session's allow-for-session grants end with it (daemon cache and the edge).
 * Any other event is one Airlock does not gate (PostToolUse, …): no opinion.
 */
export async function sessionEventOutput(
  companion: HookCompanion,
  input: { hook_event_name: string; cwd: string; session_id: string },
): Promise<HookResult> {
  if (input.hook_event_name === "SessionStart") await companion.sessionStarted(input.cwd);
  else if (input.hook_event_name === "SessionEnd") await companion.endSession(input.session_id);
  return NOTHING;
}
