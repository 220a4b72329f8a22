// `airlock hook opencode`: what Airlock's OpenCode plugin (plugin-source.ts) asks for each `tool.execute.before` and
// `chat.message`. The plugin and this hook speak Airlock's own JSON: {"decision":"allow"} (optionally with `args` to
// merge into the call's arguments), or {"decision":"deny","reason"}, which the plugin throws so OpenCode hands the
// reason to the model. OpenCode's own `permission` check runs after the plugin, inside the tool, so an allow keeps it.
import { z } from "zod";
import { agentHookRunner } from "../../hooks/agent-hook.ts";
import type { HookCompanion } from "../../hooks/companion.ts";
import { type HookResult, openCodeDeny } from "../../hooks/output.ts";
import { callIdOf } from "../../hooks/runtime.ts";
import { decideMapped, jsonOutput, personApproved, servedCommand } from "../mapped-calls.ts";
import { mapOpenCodeTool } from "./tools.ts";

export const OpenCodeHookInput = z.object({
  hook_event_name: z.enum(["tool.execute.before", "chat.message", "session.created"]),
  session_id: z.string().min(1),
  cwd: z.string().min(1),
  call_id: z.string().optional(),
  tool: z.string().min(1).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
export type OpenCodeHookInput = z.infer<typeof OpenCodeHookInput>;

const AGENT = { id: "opencode", name: "OpenCode" };

const answer = (value: Record<string, unknown>): HookResult => jsonOutput(value);
const ALLOW = answer({ decision: "allow" });

export { openCodeDeny };

async function beforeTool(input: OpenCodeHookInput, companion: HookCompanion): Promise<HookResult> {
  if (!input.tool) return openCodeDeny(undefined, "Airlock denied this call: the plugin sent no tool name");
  const calls = mapOpenCodeTool(input.tool, input.args ?? {});
  const verdict = await decideMapped(companion, calls, {
    agent: AGENT,
    callId: callIdOf("opencode", input.call_id ? `${input.session_id}-${input.call_id}` : undefined),
    sessionId: input.session_id,
    cwd: input.cwd,
  });
  if (!verdict.allowed) {
    const prefix = verdict.several ? `${verdict.call.tool} ${String(verdict.call.input.path ?? "")}: ` : "";
    return openCodeDeny(undefined, `${prefix}${verdict.reason}`);
  }
  // A rewrite changes what OpenCode's own permission check sees (it runs inside the tool, after the plugin), so
  // only what a person answered (or mode: sole) is served.
  const served = personApproved(verdict.decisions)
    ? await servedCommand(companion, calls, input.cwd)
    : undefined;
  if (served !== undefined) return answer({ decision: "allow", args: { command: served } });
  return ALLOW;
}

function handler(companion: HookCompanion) {
  return async (input: OpenCodeHookInput): Promise<HookResult> => {
    switch (input.hook_event_name) {
      case "tool.execute.before":
        return beforeTool(input, companion);
      case "chat.message":
        if (input.prompt) await companion.promptText(input.prompt, input.session_id, input.cwd);
        return ALLOW;
      case "session.created":
        await companion.sessionStarted(input.cwd);
        return ALLOW;
    }
  };
}

export const runOpenCodeHook = agentHookRunner({
  schema: OpenCodeHookInput,
  handler,
  notAnObject: (reason) => openCodeDeny(undefined, reason),
  deny: openCodeDeny,
});
