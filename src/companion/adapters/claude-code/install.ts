// `airlock hook claude-code --install`: where Claude Code's settings live and which hook entries Airlock needs.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../config.ts";
import { airlockCommand, type HookSpec, type InstallResult, mergeHooks } from "../../hook-install.ts";
import { installTimeoutSeconds } from "../../hook-runtime.ts";

export const CLAUDE_HOOKS: readonly HookSpec[] = [
  { event: "PreToolUse", matcher: "*" },
  { event: "PermissionRequest", matcher: "*" },
  { event: "UserPromptSubmit" },
  { event: "SessionEnd" },
  { event: "SessionStart" },
];

/** User scope: `$CLAUDE_CONFIG_DIR/settings.json` or `~/.claude/settings.json`; project: `.claude/settings.json`. */
export function claudeSettingsPath(scope: "user" | "project" | "local", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".claude", "settings.json");
  if (scope === "local") return join(resolve(cwd), ".claude", "settings.local.json");
  const dir = env.CLAUDE_CONFIG_DIR?.trim() || join(env.HOME?.trim() || homedir(), ".claude");
  return join(dir, "settings.json");
}

export function installClaudeHooks(
  scope: "user" | "project" | "local",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult {
  return mergeHooks(
    claudeSettingsPath(scope, cwd, env),
    CLAUDE_HOOKS,
    airlockCommand("claude-code", env),
    installTimeoutSeconds(env),
    "claude-code",
    options,
  );
}
