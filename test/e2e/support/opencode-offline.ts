// OpenCode offline against a scripted model: its config names the scripted provider, every XDG folder is the
// test's own, and nothing reaches for the network (the settings AGENTS-OFFLINE.md lists).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../support/airlock-env.ts";

export const OPENCODE = join(ROOT, "node_modules/opencode-linux-x64/bin/opencode");
export const OPENCODE_MODEL = "scripted/scripted-model";

/** Writes an OpenCode config that sends every turn to the model at `url`, with `extra` settings merged in. */
export function writeOpenCodeConfig(file: string, url: string, extra: Record<string, unknown> = {}): void {
  const provider = {
    scripted: {
      npm: "@ai-sdk/openai-compatible",
      name: "Scripted",
      options: { baseURL: `${url}/v1`, apiKey: "dummy" },
      models: { "scripted-model": { name: "Scripted" } },
    },
  };
  writeFileSync(file, JSON.stringify({ provider, autoupdate: false, share: "disabled", ...extra }));
}

/**
 * The environment of an OpenCode run in `ws`, over `base` (a sandbox's own environment, or this process's):
 * OpenCode takes its directory from PWD, not the process's cwd.
 */
export function openCodeEnv(
  ws: string,
  home: string,
  config: string,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    PWD: ws,
    HOME: home,
    OPENCODE_CONFIG: config,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_SHARE: "1",
    // OpenCode installs @opencode-ai/plugin into a config folder that has plugins, in the background; offline, npm
    // gives up at once instead of reaching for the registry.
    npm_config_offline: "true",
  };
}
