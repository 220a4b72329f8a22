// The companion's view of the layered policy: which files make it up for a cwd, compiled once per change.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  decide,
  type EmergencyControls,
  type PolicySource,
  type SourceLayer,
} from "../../policy/index.ts";
import { airlockHome, type Env, stateDir } from "../cli/config.ts";
import type { AgentToolCall } from "../control/tool-call.ts";
import { homeDir, loadPolicySources, POLICY_FILE_NAMES, projectPolicyPaths } from "./files.ts";
import type { PolicyFile, PolicyState } from "./state.ts";
import { trustStorePath } from "./trust.ts";

export { formatLoadErrors, type PolicyFile, type PolicyState } from "./state.ts";

/** Every file that can make up the policy for cwd (present or not), so a new file is noticed too. */
export function policyFiles(cwd: string, env: Env = process.env): PolicyFile[] {
  const home = homeDir(env);
  const candidates: { layer: SourceLayer | "trust"; path: string }[] = [
    ...POLICY_FILE_NAMES.map((n) => ({ layer: "agent" as const, path: join(home, ".agents", n) })),
    ...POLICY_FILE_NAMES.map((n) => ({ layer: "user" as const, path: join(home, ".pi", "agent", n) })),
    ...POLICY_FILE_NAMES.map((n) => ({ layer: "user" as const, path: join(airlockHome(env), n) })),
    ...projectPolicyPaths(cwd).map((path) => ({ layer: "project" as const, path })),
    { layer: "account", path: accountPolicyPath(env) },
    // `airlock trust` changes whether a project file's allow rules count.
    { layer: "trust", path: trustStorePath(env) },
  ];
  return candidates.map((f) => ({ ...f, present: existsSync(f.path) }));
}

/** The account policy the daemon mirrors from the edge (GET /v1/settings/policy). */
export function accountPolicyPath(env: Env = process.env): string {
  return join(stateDir(env), "account-policy.yaml");
}

/**
 * Reads and compiles every layer (agent, user, project via policy-files, plus the mirrored account policy);
 * any error fails the whole load (never a partial policy).
 */
export function loadLocalPolicy(cwd: string, env: Env = process.env): PolicyState {
  const files = policyFiles(cwd, env);
  const loadedAt = new Date().toISOString();
  let sources: PolicySource[];
  try {
    sources = loadPolicySources(cwd, env);
    const account = accountPolicyPath(env);
    if (existsSync(account))
      sources.push({ layer: "account", path: account, text: readFileSync(account, "utf8") });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      files,
      loadedAt,
      errors: [{ path: cwd, message: `cannot read a policy file: ${message}` }],
    };
  }
  const compiled = compilePolicy(sources);
  return compiled.ok
    ? { ok: true, policy: compiled.policy, files, loadedAt }
    : { ok: false, errors: compiled.errors, files, loadedAt };
}

export function judge(
  policy: CompiledPolicy,
  call: AgentToolCall,
  opts: { hasUI: boolean; emergency: EmergencyControls | undefined },
): DecisionRecord {
  return decide(
    policy,
    { tool: call.tool, input: call.input, cwd: call.cwd, agent: call.agent.id },
    opts.emergency ? { hasUI: opts.hasUI, emergency: opts.emergency } : { hasUI: opts.hasUI },
  );
}
