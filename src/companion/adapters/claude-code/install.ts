// `airlock hook claude-code --install`: where Claude Code's settings live and which hook entries Airlock needs.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../cli/config.ts";
import { ensureHttpEndpoint, type HttpEndpoint, hookUrl, SECRET_HEADER } from "../../daemon/http-endpoint.ts";
import { airlockCommand, type HookSpec, type InstallResult, mergeHooks } from "../../hooks/install.ts";
import { installTimeoutSeconds } from "../../hooks/runtime.ts";
import { claudeCodeVersion, httpHooksSupported } from "./version.ts";

export const CLAUDE_HOOKS: readonly HookSpec[] = [
  { event: "PreToolUse", matcher: "*" },
  { event: "PermissionRequest", matcher: "*" },
  { event: "UserPromptSubmit" },
  { event: "SessionEnd" },
  { event: "SessionStart" },
];

/** The per-call events, which go straight to the daemon when http hooks are installed. */
const PER_CALL = new Set(["PreToolUse", "PermissionRequest"]);

/** User scope: `$CLAUDE_CONFIG_DIR/settings.json` or `~/.claude/settings.json`; project: `.claude/settings.json`. */
export function claudeSettingsPath(scope: "user" | "project" | "local", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".claude", "settings.json");
  if (scope === "local") return join(resolve(cwd), ".claude", "settings.local.json");
  const dir = env.CLAUDE_CONFIG_DIR?.trim() || join(env.HOME?.trim() || homedir(), ".claude");
  return join(dir, "settings.json");
}

export type ClaudeHookType =
  | { type: "http"; endpoint: HttpEndpoint; why: string }
  | { type: "command"; why: string };

/**
 * http hooks where they are safe: a Claude Code that blocks when the endpoint does not answer (≥ 2.1.295), and a
 * settings file of the user's own (the header carries the user's secret, so never a project file the team shares).
 */
export async function chooseClaudeHookType(
  scope: "user" | "project" | "local",
  env: Env,
  options: { forceCommand?: boolean; dryRun?: boolean } = {},
): Promise<ClaudeHookType> {
  if (options.forceCommand) return { type: "command", why: "--command" };
  if (scope === "project")
    return {
      type: "command",
      why: "a project settings file is shared, and an http hook carries your secret",
    };
  const supported = httpHooksSupported(claudeCodeVersion(env));
  if (!supported.ok) return { type: "command", why: supported.why };
  return { type: "http", endpoint: await ensureHttpEndpoint(env, !options.dryRun), why: supported.why };
}

function httpSpecs(endpoint: HttpEndpoint, timeoutSeconds: number): HookSpec[] {
  return CLAUDE_HOOKS.map((spec) =>
    PER_CALL.has(spec.event)
      ? {
          ...spec,
          handler: {
            type: "http",
            url: hookUrl(endpoint, "claude-code"),
            headers: { [SECRET_HEADER]: endpoint.secret },
            timeout: timeoutSeconds,
            // A daemon that is down must block the call, never let it run ungated.
            onFailure: "block",
          },
        }
      : spec,
  );
}

/**
 * With `http`, PreToolUse and PermissionRequest post to the daemon; SessionStart, UserPromptSubmit and SessionEnd
 * stay command hooks, which start the daemon when none runs (once per session or prompt, never per call). The file
 * then holds the secret, so it is written 0600.
 */
export function installClaudeHooks(
  scope: "user" | "project" | "local",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean; http?: HttpEndpoint } = {},
): InstallResult {
  const timeout = installTimeoutSeconds(env);
  const { http, ...rest } = options;
  return mergeHooks(
    claudeSettingsPath(scope, cwd, env),
    http && !options.remove ? httpSpecs(http, timeout) : CLAUDE_HOOKS,
    airlockCommand("claude-code", env),
    timeout,
    "claude-code",
    http && !options.remove ? { ...rest, mode: 0o600 } : rest,
  );
}
