// Each agent's whole hook, run against a companion: inside the daemon for the fast hook entry
// (src/companion/hooks/fast.ts), against the daemon itself; in the hook's own process when the daemon cannot
// answer, deciding without it. The same code either way (one decision core, one audit).
import type { Env } from "../cli/config.ts";
import { type HookCompanion, inProcessCompanion } from "./companion.ts";
import type { HookAgent, HookResult } from "./output.ts";

type HookRunner = (stdin: string, env: Env, companion: HookCompanion) => Promise<HookResult>;

/** Loaded on first use: a hook process runs one agent's hook, and needs only that agent's module. */
const HOOK_RUNNERS: Record<HookAgent, () => Promise<HookRunner>> = {
  "claude-code": async () => (await import("../adapters/claude-code/hook.ts")).runClaudeCodeHook,
  codex: async () => (await import("../adapters/codex/hook.ts")).runCodexHook,
  gemini: async () => (await import("../adapters/gemini/hook.ts")).runGeminiHook,
  opencode: async () => (await import("../adapters/opencode/hook.ts")).runOpenCodeHook,
  copilot: async () => (await import("../adapters/copilot/hook.ts")).runCopilotHook,
};

export async function runHook(
  agent: HookAgent,
  stdin: string,
  env: Env,
  companion: HookCompanion,
): Promise<HookResult> {
  return (await HOOK_RUNNERS[agent]())(stdin, env, companion);
}

/** The in-process decision: the agent's whole hook in this process, never asking the daemon. */
export function runHookInProcess(agent: HookAgent, stdin: string, env: Env): Promise<HookResult> {
  return runHook(agent, stdin, env, inProcessCompanion(env));
}
