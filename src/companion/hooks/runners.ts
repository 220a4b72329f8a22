// Each agent's whole hook as the daemon runs it for the fast hook entry (src/companion/hooks/fast.ts): the same code a
// hook process would run, against the daemon itself (one decision core, one audit).
import { runClaudeCodeHook } from "../adapters/claude-code/hook.ts";
import { runCodexHook } from "../adapters/codex/hook.ts";
import { runCopilotHook } from "../adapters/copilot/hook.ts";
import { runGeminiHook } from "../adapters/gemini/hook.ts";
import { runOpenCodeHook } from "../adapters/opencode/hook.ts";
import type { Env } from "../cli/config.ts";
import type { HookCompanion } from "./companion.ts";
import type { HookAgent, HookResult } from "./output.ts";

export const HOOK_RUNNERS: Record<
  HookAgent,
  (stdin: string, env: Env, companion: HookCompanion) => Promise<HookResult>
> = {
  "claude-code": runClaudeCodeHook,
  codex: runCodexHook,
  gemini: runGeminiHook,
  opencode: runOpenCodeHook,
  copilot: runCopilotHook,
};
