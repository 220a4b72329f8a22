// `airlock hook codex`: Codex's hook contract. PreToolUse has no `ask`, so a call that needs a person waits for
// the phone and is answered allow (empty output) or deny (a reason Codex shows the model).
import { z } from "zod";
import { forwardPromptText, requestDecision } from "../../client.ts";
import type { Env } from "../../config.ts";
import { callIdOf, runGuardedHook } from "../../hook-runtime.ts";
import { ClaudeHookInput, type HookResult } from "../claude-code/hook.ts";
import { mapCodexTool } from "./tools.ts";

/** Codex sends the same core fields as Claude Code, plus its turn and model. */
export const CodexHookInput = ClaudeHookInput.extend({
  turn_id: z.string().optional(),
  model: z.string().optional(),
});
export type CodexHookInput = z.infer<typeof CodexHookInput>;

const AGENT = { id: "codex", name: "Codex" };
const NOTHING: HookResult = { stdout: "", stderr: "", exitCode: 0 };

function deny(event: string | undefined, reason: string): HookResult {
  if (event === "PermissionRequest") {
    const out = {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: reason },
      },
    };
    return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
  }
  if (event === "PreToolUse") {
    const out = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: reason,
      },
    };
    return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
  }
  // Exit 2 with a reason on stderr blocks in Codex too.
  return { stdout: "", stderr: `${reason}\n`, exitCode: 2 };
}

function allow(event: string): HookResult {
  if (event === "PermissionRequest") {
    const out = {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    };
    return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
  }
  // Codex treats `permissionDecision: "allow"` without updatedInput as unsupported; no output means "proceed".
  return NOTHING;
}

async function gate(input: CodexHookInput, env: Env): Promise<HookResult> {
  const event = input.hook_event_name;
  if (!input.tool_name) return deny(event, "Airlock denied this call: the hook input has no tool_name");
  const calls = mapCodexTool(input.tool_name, input.tool_input ?? {});
  const base = callIdOf("codex", input.tool_use_id);
  for (const [i, mapped] of calls.entries()) {
    const d = await requestDecision(
      {
        callId: calls.length > 1 ? `${base}#${i}` : base,
        sessionId: input.session_id,
        agent: AGENT,
        tool: mapped.tool,
        input: mapped.input,
        cwd: input.cwd,
        hasUI: false,
      },
      { env, askMode: "approver" },
    );
    if (d.decision !== "allow") {
      const prefix = calls.length > 1 ? `${mapped.tool} ${String(mapped.input.path ?? "")}: ` : "";
      return deny(event, `${prefix}${d.reason}`);
    }
  }
  return allow(event);
}

async function handle(input: CodexHookInput, env: Env): Promise<HookResult> {
  switch (input.hook_event_name) {
    case "PreToolUse":
    case "PermissionRequest":
      return gate(input, env);
    case "UserPromptSubmit":
      if (input.prompt) await forwardPromptText(input.prompt, input.session_id, input.cwd, { env });
      return NOTHING;
    default:
      return NOTHING;
  }
}

/** Never throws and never leaves a meant deny unsaid: every failure path denies with its reason. */
export function runCodexHook(stdin: string, env: Env): Promise<HookResult> {
  return runGuardedHook(
    { schema: CodexHookInput, handle, notAnObject: (reason: string) => deny(undefined, reason), deny: deny },
    stdin,
    env,
  );
}
