// What a hook prints for Claude Code and Codex: their decision JSON, built from plain values. No imports, so the fast
// hook entry (src/companion/hook-fast.ts) can deny in the agent's own shape without loading anything.

export interface HookResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export type HookAgent = "claude-code" | "codex";

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
