// What a hook prints for each agent: its decision JSON, built from plain values. No imports, so the fast hook entry
// (src/companion/hooks/fast.ts) can deny in the agent's own shape without loading anything.

export interface HookResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The agents whose command hooks go through the fast entry (and whose events the daemon answers whole). */
export const HOOK_AGENTS = ["claude-code", "codex", "gemini", "opencode", "copilot"] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

export const NOTHING: HookResult = { stdout: "", stderr: "", exitCode: 0 };

const json = (value: unknown): HookResult => ({
  stdout: `${JSON.stringify(value)}\n`,
  stderr: "",
  exitCode: 0,
});

export function preToolUseOutput(
  decision: "allow" | "deny" | "ask",
  reason: string,
  updatedInput?: Record<string, unknown>,
): HookResult {
  return json({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision,
      permissionDecisionReason: reason,
      ...(updatedInput ? { updatedInput } : {}),
    },
  });
}

export function permissionRequestOutput(decision: "allow" | "deny", reason: string): HookResult {
  return json({
    hookSpecificOutput: {
      hookEventName: "PermissionRequest",
      decision: decision === "allow" ? { behavior: "allow" } : { behavior: "deny", message: reason },
    },
  });
}

/** UserPromptSubmit: text added to the model's context (precognition's injection modes), or nothing. */
export function promptContextOutput(context: string): HookResult {
  if (context === "") return NOTHING;
  return json({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } });
}

/** Exit 2 is both agents' blocking error: stderr goes to the model, the call does not run. */
export function blockingError(reason: string): HookResult {
  return { stdout: "", stderr: `${reason}\n`, exitCode: 2 };
}

/** A deny in the shape the agent expects for this event; an unknown event gets the blocking exit code. */
export function denyOutput(event: string | undefined, reason: string): HookResult {
  if (event === "PreToolUse") return preToolUseOutput("deny", reason);
  if (event === "PermissionRequest") return permissionRequestOutput("deny", reason);
  return blockingError(reason);
}

export function jsonOutput(value: unknown): HookResult {
  return { stdout: `${JSON.stringify(value)}\n`, stderr: "", exitCode: 0 };
}

/** Gemini CLI: a BeforeTool deny is JSON the model sees; other events block with exit 2 (stderr is the reason). */
export function geminiDeny(event: string | undefined, reason: string): HookResult {
  return event === "BeforeTool" ? jsonOutput({ decision: "deny", reason }) : blockingError(reason);
}

/** Airlock's OpenCode plugin reads `{decision, reason}` and throws the reason at OpenCode. */
export function openCodeDeny(_event: string | undefined, reason: string): HookResult {
  return jsonOutput({ decision: "deny", reason });
}

/** Copilot CLI's deny for every event: exit 2 would block too, but the model would see only the exit code. */
export function copilotDeny(_event: string | undefined, reason: string): HookResult {
  return jsonOutput({ permissionDecision: "deny", permissionDecisionReason: reason });
}

/** A deny in `agent`'s own shape for `event`. */
export function agentDeny(agent: HookAgent, event: string | undefined, reason: string): HookResult {
  switch (agent) {
    case "gemini":
      return geminiDeny(event, reason);
    case "opencode":
      return openCodeDeny(event, reason);
    case "copilot":
      return copilotDeny(event, reason);
    default:
      return denyOutput(event, reason);
  }
}
