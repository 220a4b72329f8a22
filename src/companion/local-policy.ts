// The companion's view of the layered policy: which files make it up for a cwd, compiled once per change.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  type CompiledPolicy,
  compilePolicy,
  type DecisionRecord,
  decide,
  type EmergencyControls,
  type PolicyLoadError,
  type PolicySource,
  type SourceLayer,
} from "../policy/index.ts";
import { airlockHome, type Env, stateDir } from "./config.ts";
import type { AgentToolCall } from "./tool-call.ts";

export interface PolicyFile {
  layer: SourceLayer;
  path: string;
  present: boolean;
}

export type PolicyState =
  | { ok: true; policy: CompiledPolicy; files: PolicyFile[]; loadedAt: string }
  | { ok: false; errors: PolicyLoadError[]; files: PolicyFile[]; loadedAt: string };

/** Nearest ancestor of cwd (inclusive) holding a project policy, else the cwd itself. */
function projectCandidates(cwd: string): string[] {
  let dir = resolve(cwd);
  for (;;) {
    for (const rel of [".airlock/permissions.yaml", ".pi/permissions.yaml"]) {
      const p = join(dir, rel);
      if (existsSync(p)) return [p];
    }
    if (existsSync(join(dir, ".git"))) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return [join(resolve(cwd), ".airlock/permissions.yaml")];
}

/**
 * The layer files, lowest precedence first (pi.hitl order): agent defaults, the user's file, the project's,
 * and the account policy the daemon mirrored from the edge.
 */
export function policyFiles(cwd: string, env: Env = process.env): PolicyFile[] {
  const home = env.HOME?.trim() || homedir();
  const files: { layer: SourceLayer; path: string }[] = [
    { layer: "agent", path: join(home, ".agents/permissions.yaml") },
    { layer: "user", path: join(airlockHome(env), "permissions.yaml") },
    { layer: "user", path: join(home, ".pi/agent/permissions.yaml") },
    ...projectCandidates(cwd).map((path) => ({ layer: "project" as const, path })),
    { layer: "account", path: join(stateDir(env), "account-policy.yaml") },
  ];
  return files.map((f) => ({ ...f, present: existsSync(f.path) }));
}

/** Reads and compiles every present layer file; any error fails the whole load (never a partial policy). */
export function loadLocalPolicy(cwd: string, env: Env = process.env): PolicyState {
  const files = policyFiles(cwd, env);
  const sources: PolicySource[] = [];
  const loadedAt = new Date().toISOString();
  for (const f of files) {
    if (!f.present) continue;
    try {
      sources.push({ layer: f.layer, path: f.path, text: readFileSync(f.path, "utf8") });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, files, loadedAt, errors: [{ path: f.path, message: `cannot read: ${message}` }] };
    }
  }
  const compiled = compilePolicy(sources);
  return compiled.ok
    ? { ok: true, policy: compiled.policy, files, loadedAt }
    : { ok: false, errors: compiled.errors, files, loadedAt };
}

export function formatLoadErrors(errors: readonly PolicyLoadError[]): string {
  return errors
    .slice(0, 3)
    .map((e) => `${e.path}${e.line ? `:${e.line}` : ""}${e.rule ? ` (rule ${e.rule})` : ""}: ${e.message}`)
    .join("; ");
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
