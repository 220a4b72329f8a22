// `airlock hook codex --install`: Codex's hooks.json (user: $CODEX_HOME or ~/.codex; project: .codex/) entries.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../config.ts";
import { airlockCommand, type HookSpec, type InstallResult, mergeHooks } from "../../hook-install.ts";
import { installTimeoutSeconds } from "../../hook-runtime.ts";

export const CODEX_HOOKS: readonly HookSpec[] = [
  { event: "PreToolUse", matcher: "*" },
  { event: "PermissionRequest", matcher: "*" },
  { event: "UserPromptSubmit" },
];

export function codexHooksPath(scope: "user" | "project", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".codex", "hooks.json");
  const dir = env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
  return join(dir, "hooks.json");
}

export function installCodexHooks(
  scope: "user" | "project",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult {
  return mergeHooks(
    codexHooksPath(scope, cwd, env),
    CODEX_HOOKS,
    airlockCommand("codex", env),
    installTimeoutSeconds(env),
    "codex",
    options,
  );
}
