// `airlock hook copilot --install`: Copilot CLI reads every $COPILOT_HOME/hooks/*.json (default ~/.copilot), so Airlock
// keeps its entries in a file of its own, airlock.json, and never edits anyone else's.
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../cli/config.ts";
import { airlockCommand, type InstallResult } from "../../hooks/install.ts";
import { placeOwnHookFile } from "../../hooks/own-file.ts";
import { installTimeoutSeconds } from "../../hooks/runtime.ts";

export const COPILOT_EVENTS = ["preToolUse", "userPromptSubmitted", "sessionStart", "sessionEnd"] as const;

export function copilotHooksPath(env: Env): string {
  const home = env.COPILOT_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".copilot");
  return join(home, "hooks", "airlock.json");
}

export function installCopilotHooks(
  env: Env,
  options: { remove?: boolean; dryRun?: boolean } = {},
): InstallResult {
  const path = copilotHooksPath(env);
  const command = airlockCommand("copilot", env);
  const timeoutSeconds = installTimeoutSeconds(env);
  const written = {
    version: 1,
    hooks: Object.fromEntries(
      COPILOT_EVENTS.map((event) => [
        event,
        [{ type: "command", bash: command, timeoutSec: timeoutSeconds }],
      ]),
    ),
  };
  placeOwnHookFile(path, `${JSON.stringify(written, null, 2)}\n`, options);
  return { path, command, timeoutSeconds, events: [...COPILOT_EVENTS], written };
}
