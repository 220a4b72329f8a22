// `airlock hook gemini --install`: Airlock's entries in Gemini CLI's settings.json (user: ~/.gemini, project:
// .gemini/). Gemini's hook timeout is in milliseconds; hooks run only in folders Gemini trusts.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../cli/config.ts";
import { airlockCommand, type HookSpec, type InstallResult, mergeHooks } from "../../hooks/install.ts";
import { installTimeoutSeconds } from "../../hooks/runtime.ts";

export const GEMINI_HOOKS: readonly HookSpec[] = [
  { event: "BeforeTool", matcher: "*" },
  { event: "BeforeAgent" },
  { event: "SessionStart" },
  { event: "SessionEnd" },
];

export function geminiSettingsPath(scope: "user" | "project", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".gemini", "settings.json");
  return join(env.HOME?.trim() || homedir(), ".gemini", "settings.json");
}

export function installGeminiHooks(
  scope: "user" | "project",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult {
  const seconds = installTimeoutSeconds(env);
  const result = mergeHooks(
    geminiSettingsPath(scope, cwd, env),
    GEMINI_HOOKS,
    airlockCommand("gemini", env),
    seconds * 1000,
    "gemini",
    options,
  );
  return { ...result, timeoutSeconds: seconds };
}
