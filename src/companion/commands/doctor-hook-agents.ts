// `airlock doctor`'s checks for the agents gated by a command hook or plugin Airlock writes on its own: Gemini CLI
// (settings.json hooks, which run only in folders Gemini trusts), OpenCode (the plugin file) and Copilot CLI
// (hooks/airlock.json). Each: the hook is there, runs a command that exists, and nothing turns it off or doubles it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { COPILOT_EVENTS, copilotHooksPath } from "../adapters/copilot/install.ts";
import { geminiSettingsPath } from "../adapters/gemini/install.ts";
import { openCodePluginPath } from "../adapters/opencode/install.ts";
import type { Env } from "../cli/config.ts";
import { isAirlockHook } from "../hooks/install.ts";
import { airlockCommands, type Check, isObject, missingPaths, readJson } from "./doctor-hook-files.ts";

const homeOf = (env: Env) => env.HOME?.trim() || homedir();
const within = (path: string, dir: string) =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * Whether Gemini trusts `cwd` (it runs no hooks elsewhere): TRUST_FOLDER trusts a folder and what is under it,
 * TRUST_PARENT its parent's tree; the deepest matching entry wins, so a DO_NOT_TRUST below a trusted folder holds.
 */
export function geminiTrusts(cwd: string, env: Env): boolean | undefined {
  const file = readJson(join(homeOf(env), ".gemini", "trustedFolders.json"));
  if (!file?.ok || !isObject(file.value)) return undefined;
  const at = resolve(cwd);
  let best: { depth: number; trusted: boolean } | undefined;
  for (const [path, level] of Object.entries(file.value)) {
    const root = level === "TRUST_PARENT" ? dirname(resolve(path)) : resolve(path);
    if (!within(at, root)) continue;
    if (best && best.depth > root.length) continue;
    best = { depth: root.length, trusted: level === "TRUST_FOLDER" || level === "TRUST_PARENT" };
  }
  return best?.trusted ?? false;
}

function geminiChecks(cwd: string, env: Env, fix: string): Check[] {
  const out: Check[] = [];
  const files = (["user", "project"] as const).map((scope) => ({
    scope,
    path: geminiSettingsPath(scope, cwd, env),
  }));
  const read = files.map((f) => ({ ...f, file: readJson(f.path) }));
  // Gemini merges its settings: `hooksConfig.enabled: false` in either file turns every hook off.
  const off = read.find(
    (f) =>
      f.file?.ok &&
      isObject(f.file.value) &&
      isObject(f.file.value.hooksConfig) &&
      f.file.value.hooksConfig.enabled === false,
  );
  let installed = false;
  for (const { scope, path, file } of read) {
    if (!file) continue;
    const again = `${fix} hook gemini --install${scope === "project" ? " --project" : ""}`;
    if (!file.ok) {
      out.push({
        check: "gemini hooks",
        status: "fail",
        detail: `${path} is not valid JSON (${file.error}); Gemini ignores it: fix it by hand`,
      });
      continue;
    }
    const commands = airlockCommands(file.value, "gemini");
    if (commands.size === 0) continue;
    installed = true;
    const missing = [...new Set([...commands.values()].flat().flatMap(missingPaths))];
    const disabled = read.flatMap((f) =>
      f.file?.ok &&
      isObject(f.file.value) &&
      isObject(f.file.value.hooksConfig) &&
      Array.isArray(f.file.value.hooksConfig.disabled)
        ? f.file.value.hooksConfig.disabled.filter(
            (d): d is string => typeof d === "string" && isAirlockHook(d, "gemini"),
          )
        : [],
    );
    const trusted = geminiTrusts(cwd, env);
    if (!commands.has("BeforeTool"))
      out.push({
        check: "gemini hooks",
        status: "fail",
        detail: `${path} has no Airlock BeforeTool hook, so tool calls are not gated; run: ${again}`,
      });
    else if (missing.length > 0)
      out.push({
        check: "gemini hooks",
        status: "fail",
        detail: `${path} runs ${missing.join(", ")}, which does not exist; run: ${again}`,
      });
    else if (off)
      out.push({
        check: "gemini hooks",
        status: "fail",
        detail: `${off.path} sets hooksConfig.enabled to false, so Gemini runs no hook and calls are not gated; remove that line`,
      });
    else if (disabled.length > 0)
      out.push({
        check: "gemini hooks",
        status: "fail",
        detail: `hooksConfig.disabled lists Airlock's hook (${disabled[0]}), so Gemini skips it; remove it from that list`,
      });
    else if (trusted === false)
      out.push({
        check: "gemini hooks",
        status: "warn",
        detail: `installed in ${path}, but Gemini runs hooks only in folders it trusts and ${resolve(cwd)} is not one (~/.gemini/trustedFolders.json); trust it in Gemini (/permissions) to gate calls here`,
      });
    else
      out.push({
        check: "gemini hooks",
        status: "ok",
        detail: `installed in ${path} (${[...commands.keys()].join(", ")})`,
      });
  }
  if (!installed && existsSync(join(homeOf(env), ".gemini")))
    out.push({
      check: "gemini hooks",
      status: "warn",
      detail: `Gemini CLI is here (${join(homeOf(env), ".gemini")}) but not gated by Airlock; run: ${fix} hook gemini --install`,
    });
  return out;
}

/** The command Airlock's OpenCode plugin runs (`const COMMAND = "…";`), or undefined when the file is not ours. */
function pluginCommand(source: string): string | undefined {
  const match = /^const COMMAND = (".*");$/m.exec(source);
  if (!match?.[1] || !source.includes("Airlock for OpenCode")) return undefined;
  try {
    const command: unknown = JSON.parse(match[1]);
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

function openCodeChecks(cwd: string, env: Env, fix: string): Check[] {
  const out: Check[] = [];
  const found = (["user", "project"] as const)
    .map((scope) => ({ scope, path: openCodePluginPath(scope, cwd, env) }))
    .filter((f) => existsSync(f.path));
  for (const { scope, path } of found) {
    const again = `${fix} hook opencode --install${scope === "project" ? " --project" : ""}`;
    const command = pluginCommand(readFileSync(path, "utf8"));
    const missing = command ? missingPaths(command) : [];
    if (!command || !isAirlockHook(command, "opencode"))
      out.push({
        check: "opencode plugin",
        status: "fail",
        detail: `${path} is not Airlock's plugin (or was edited), so calls may not be gated; run: ${again}`,
      });
    else if (missing.length > 0)
      out.push({
        check: "opencode plugin",
        status: "fail",
        detail: `${path} runs ${missing.join(", ")}, which does not exist; run: ${again}`,
      });
    else out.push({ check: "opencode plugin", status: "ok", detail: `installed in ${path}` });
  }
  // OpenCode loads the user's and the project's plugin folders both: each call would be judged (and asked) twice.
  if (found.length === 2)
    out.push({
      check: "opencode plugin",
      status: "warn",
      detail: `Airlock's plugin is in both ${found[0]?.path} and ${found[1]?.path}; OpenCode loads both, so every call is decided twice; remove one with: ${fix} hook opencode --uninstall [--project]`,
    });
  const configDir = dirname(dirname(openCodePluginPath("user", cwd, env)));
  if (found.length === 0 && existsSync(configDir))
    out.push({
      check: "opencode plugin",
      status: "warn",
      detail: `OpenCode is here (${configDir}) but not gated by Airlock; run: ${fix} hook opencode --install`,
    });
  return out;
}

function copilotChecks(env: Env, fix: string): Check[] {
  const path = copilotHooksPath(env);
  const hooksDir = dirname(path);
  const again = `${fix} hook copilot --install`;
  const file = readJson(path);
  if (!file) {
    const home = dirname(hooksDir);
    return existsSync(home)
      ? [
          {
            check: "copilot hooks",
            status: "warn",
            detail: `Copilot CLI is here (${home}) but not gated by Airlock; run: ${again}`,
          },
        ]
      : [];
  }
  if (!file.ok)
    return [
      {
        check: "copilot hooks",
        status: "fail",
        detail: `${path} is not valid JSON (${file.error}); run: ${again}`,
      },
    ];
  const hooks = isObject(file.value) && isObject(file.value.hooks) ? file.value.hooks : {};
  const commandOf = (event: string): string | undefined => {
    const list = hooks[event];
    const first = Array.isArray(list)
      ? list.find((h) => isObject(h) && typeof h.bash === "string")
      : undefined;
    return isObject(first) && typeof first.bash === "string" ? first.bash : undefined;
  };
  const pre = commandOf("preToolUse");
  if (!pre || !isAirlockHook(pre, "copilot"))
    return [
      {
        check: "copilot hooks",
        status: "fail",
        detail: `${path} has no Airlock preToolUse hook, so tool calls are not gated; run: ${again}`,
      },
    ];
  const missing = [...new Set(COPILOT_EVENTS.flatMap((e) => missingPaths(commandOf(e) ?? "")))];
  if (missing.length > 0)
    return [
      {
        check: "copilot hooks",
        status: "fail",
        detail: `${path} runs ${missing.join(", ")}, which does not exist; run: ${again}`,
      },
    ];
  // Copilot runs every hooks/*.json: Airlock's hook in another file too means each call is decided twice.
  const doubles = readdirSync(hooksDir).filter((name) => {
    if (!name.endsWith(".json") || join(hooksDir, name) === path) return false;
    const other = readJson(join(hooksDir, name));
    return (
      other?.ok === true &&
      JSON.stringify(other.value).includes("hook copilot") &&
      /airlock/.test(JSON.stringify(other.value))
    );
  });
  if (doubles.length > 0)
    return [
      {
        check: "copilot hooks",
        status: "warn",
        detail: `${doubles.join(", ")} in ${hooksDir} also runs Airlock's hook; Copilot runs every file there, so each call is decided twice: remove it`,
      },
    ];
  return [{ check: "copilot hooks", status: "ok", detail: `installed in ${path}` }];
}

/** Gemini CLI, OpenCode and Copilot CLI, each where it is installed or its config folder exists. */
export function hookAgentChecks(cwd: string, env: Env, fix: string): Check[] {
  return [...geminiChecks(cwd, env, fix), ...openCodeChecks(cwd, env, fix), ...copilotChecks(env, fix)];
}
