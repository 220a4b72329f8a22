// `airlock hook codex --install`: Codex's hooks.json (user: $CODEX_HOME or ~/.codex; project: .codex/) entries.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../cli/config.ts";
import { airlockCommand, type HookSpec, type InstallResult, mergeHooks } from "../../hooks/install.ts";
import { installTimeoutSeconds } from "../../hooks/runtime.ts";
import { type CodexHookTrust, codexConfigPath, trustCodexHooks } from "./trust.ts";

/** The directory Codex calls the project: where `--project` puts `.codex/` (Codex keys its trust by it). */
export function codexProjectDir(cwd: string): string {
  return resolve(cwd);
}

export const CODEX_HOOKS: readonly HookSpec[] = [
  { event: "PreToolUse", matcher: "*" },
  { event: "PermissionRequest", matcher: "*" },
  { event: "UserPromptSubmit" },
  { event: "SessionStart" },
];

export function codexHooksPath(scope: "user" | "project", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".codex", "hooks.json");
  const dir = env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
  return join(dir, "hooks.json");
}

/**
 * Merges Airlock's entries into hooks.json and, unless removing or dry-running, records their trust in config.toml
 * (with `[features] hooks = true`, and for `--project` the project's own trust) as Codex's own /hooks review
 * would: without it Codex skips them silently.
 */
export function installCodexHooks(
  scope: "user" | "project",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult & { trusted: CodexHookTrust[]; notes: string[]; configPath: string } {
  const path = codexHooksPath(scope, cwd, env);
  const result = mergeHooks(
    path,
    CODEX_HOOKS,
    airlockCommand("codex", env),
    installTimeoutSeconds(env),
    "codex",
    options,
  );
  const { trusted, notes } =
    options.remove || options.dryRun
      ? { trusted: [], notes: [] }
      : trustCodexHooks(path, env, scope === "project" ? { project: codexProjectDir(cwd) } : {});
  return { ...result, trusted, notes, configPath: codexConfigPath(env) };
}
