// `airlock hook opencode --install`: Airlock's plugin file in OpenCode's plugin folder (user:
// $XDG_CONFIG_HOME/opencode/plugin, default ~/.config/opencode/plugin; project: .opencode/plugin). The file is
// Airlock's own, so installing writes it whole and uninstalling deletes it.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Env } from "../../cli/config.ts";
import { airlockCommand, type InstallResult } from "../../hooks/install.ts";
import { placeOwnHookFile } from "../../hooks/own-file.ts";
import { installTimeoutSeconds } from "../../hooks/runtime.ts";
import { openCodePluginSource } from "./plugin-source.ts";

export function openCodePluginPath(scope: "user" | "project", cwd: string, env: Env): string {
  if (scope === "project") return join(resolve(cwd), ".opencode", "plugin", "airlock.js");
  const config = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".config");
  return join(config, "opencode", "plugin", "airlock.js");
}

export function installOpenCodePlugin(
  scope: "user" | "project",
  cwd: string,
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult {
  const path = openCodePluginPath(scope, cwd, env);
  const command = airlockCommand("opencode", env);
  const source = openCodePluginSource(command);
  placeOwnHookFile(path, source, options);
  return {
    path,
    command,
    // OpenCode waits for a plugin without a limit; the hook's own watchdog denies first.
    timeoutSeconds: installTimeoutSeconds(env),
    events: ["tool.execute.before", "chat.message"],
    written: source,
  };
}
