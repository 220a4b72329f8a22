// `airlock hook codex`: Codex's hook contract. PreToolUse has no `ask`, so a call that needs a person waits for
// the phone and is answered allow (empty output) or deny (a reason Codex shows the model).
import { z } from "zod";
import { agentHookRunner } from "../../hooks/agent-hook.ts";
import type { HookCompanion } from "../../hooks/companion.ts";
import {
  blockingError,
  denyOutput,
  type HookResult,
  NOTHING,
  permissionRequestOutput,
  preToolUseOutput,
  promptContextOutput,
} from "../../hooks/output.ts";
import { callIdOf } from "../../hooks/runtime.ts";
import { ClaudeHookInput } from "../claude-code/hook.ts";
import { codexCanServe } from "./sandbox.ts";
import { mapCodexTool } from "./tools.ts";

/** Codex sends the same core fields as Claude Code, plus its turn and model. */
export const CodexHookInput = ClaudeHookInput.extend({
  turn_id: z.string().optional(),
  model: z.string().optional(),
  /** The session's transcript; its turn context says which sandbox the command will run in. */
  transcript_path: z.string().nullable().optional(),
});
export type CodexHookInput = z.infer<typeof CodexHookInput>;

const AGENT = { id: "codex", name: "Codex" };

/**
 * Codex sends PermissionRequest when its own approval policy asks (a command outside its sandbox, a network
 * request): a person decides, whatever Airlock's policy allows, so an Airlock allow never widens Codex's sandbox.
 * The request's description is the model's own justification, untrusted, so the card carries this line instead.
 */
const CODEX_ASKS = "its approval policy asks before this runs (outside its sandbox, or a network request)";

function allow(event: string): HookResult {
  if (event === "PermissionRequest") return permissionRequestOutput("allow", "");
  // Codex treats `permissionDecision: "allow"` without updatedInput as unsupported; no output means "proceed".
  return NOTHING;
}

/**
 * Codex shows a deny as "Command blocked by PreToolUse hook: <reason>. Command: …", adding its own period: a
 * reason that ends in one (a policy message written as a sentence) would read "..".
 */
export function codexReason(reason: string): string {
  return reason.replace(/[.\s]+$/, "");
}

async function gate(input: CodexHookInput, companion: HookCompanion): Promise<HookResult> {
  const event = input.hook_event_name;
  if (!input.tool_name) return denyOutput(event, "Airlock denied this call: the hook input has no tool_name");
  const calls = mapCodexTool(input.tool_name, input.tool_input ?? {});
  const base = callIdOf("codex", input.tool_use_id);
  for (const [i, mapped] of calls.entries()) {
    const d = await companion.decide(
      {
        callId: calls.length > 1 ? `${base}#${i}` : base,
        sessionId: input.session_id,
        agent: AGENT,
        tool: mapped.tool,
        input: mapped.input,
        cwd: input.cwd,
        hasUI: false,
        ...(event === "PermissionRequest" ? { agentAsks: CODEX_ASKS } : {}),
      },
      "approver",
    );
    if (d.decision !== "allow") {
      const prefix = calls.length > 1 ? `${mapped.tool} ${String(mapped.input.path ?? "")}: ` : "";
      return denyOutput(event, codexReason(`${prefix}${d.reason}`));
    }
  }
  // Codex honours `updatedInput` with an explicit allow: a warmed shell command is served from its future, but only
  // outside Codex's sandbox, which would refuse the served command's connection to the daemon (it would run twice).
  if (
    event === "PreToolUse" &&
    calls.length === 1 &&
    calls[0]?.tool === "bash" &&
    codexCanServe(input.transcript_path)
  ) {
    const served = await companion.servingInput(input.tool_input ?? {}, input.cwd);
    if (served)
      return preToolUseOutput(
        "allow",
        "Airlock: served from a precognition future if it still validates",
        served,
      );
  }
  return allow(event);
}

function handler(companion: HookCompanion) {
  return async (input: CodexHookInput): Promise<HookResult> => {
    switch (input.hook_event_name) {
      case "PreToolUse":
      case "PermissionRequest":
        return gate(input, companion);
      // Warming runs commands in the daemon, outside Codex's sandbox; a sandboxed turn could never be served
      // (see sandbox.ts), so its commands would run twice: a turn not known to be unsandboxed warms nothing.
      case "UserPromptSubmit":
        if (!codexCanServe(input.transcript_path)) return NOTHING;
        return promptContextOutput(
          input.prompt ? await companion.promptText(input.prompt, input.session_id, input.cwd) : "",
        );
      case "SessionStart":
        if (codexCanServe(input.transcript_path)) await companion.sessionStarted(input.cwd);
        return NOTHING;
      default:
        return NOTHING;
    }
  };
}

export const runCodexHook = agentHookRunner({
  schema: CodexHookInput,
  handler,
  notAnObject: blockingError,
  deny: denyOutput,
});
