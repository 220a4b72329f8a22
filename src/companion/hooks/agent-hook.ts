// One agent's hook entry point: its contract run by runGuardedHook against a companion. The hook process uses the
// client companion (daemon, else a direct decision); the daemon and the in-process fallback pass their own.
import type { Env } from "../cli/config.ts";
import { clientCompanion, type HookCompanion } from "./companion.ts";
import type { HookResult } from "./output.ts";
import { type HookContract, runGuardedHook } from "./runtime.ts";

export type AgentHookRunner = (stdin: string, env: Env, companion?: HookCompanion) => Promise<HookResult>;

/** An agent's contract, its handler built per companion so every event of one run asks the same one. */
export interface AgentHook<Input> extends Omit<HookContract<Input, HookResult>, "handle"> {
  handler: (companion: HookCompanion) => HookContract<Input, HookResult>["handle"];
}

/** Never throws and never leaves a meant deny unsaid: every failure path denies with its reason. */
export function agentHookRunner<Input>(hook: AgentHook<Input>): AgentHookRunner {
  const { handler, ...contract } = hook;
  return (stdin, env, companion = clientCompanion(env)) =>
    runGuardedHook({ ...contract, handle: handler(companion) }, stdin, env);
}
