// `airlock doctor`'s agent checks: every integration it finds on this machine (Claude Code settings, Codex hooks and
// their trust, the Pi package, Gemini CLI, OpenCode and Copilot CLI in doctor-hook-agents.ts, MCP registrations), each with what is wrong and the command that fixes it.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { claudeSettingsPath } from "../adapters/claude-code/install.ts";
import { codexHooksPath } from "../adapters/codex/install.ts";
import {
  airlockCodexHooks,
  codexConfigPath,
  hooksFeatureOn,
  projectTrustLevel,
} from "../adapters/codex/trust.ts";
import type { Env } from "../cli/config.ts";
import { PACKAGE_NAME, PACKAGE_ROOT } from "../cli/invocation.ts";
import { readHttpEndpoint } from "../daemon/http-endpoint.ts";
import { isAirlockHttpHook } from "../hooks/install.ts";
import { hookAgentChecks } from "./doctor-hook-agents.ts";
import {
  airlockCommands,
  type Check,
  hookHandlers,
  isObject,
  type JsonObject,
  missingPaths,
  readJson,
} from "./doctor-hook-files.ts";

/** Airlock's http hooks in a hooks object, by event: each url, and whether it blocks when nothing answers. */
function airlockHttpHooks(file: unknown, agentArg: string): Map<string, { url: string; blocks: boolean }[]> {
  const out = new Map<string, { url: string; blocks: boolean }[]>();
  for (const [event, h] of hookHandlers(file)) {
    const url = typeof h.url === "string" ? h.url : undefined;
    if (url && isAirlockHttpHook(url, agentArg))
      out.set(event, [...(out.get(event) ?? []), { url, blocks: h.onFailure === "block" }]);
  }
  return out;
}

/** What is wrong with Airlock's http hooks in one settings file, or undefined when they can answer. */
function httpHookProblem(
  http: Map<string, { url: string; blocks: boolean }[]>,
  env: Env,
): string | undefined {
  const all = [...http.values()].flat();
  if (all.length === 0) return undefined;
  if (all.some((h) => !h.blocks))
    return 'an http hook without "onFailure": "block" lets every call run ungated while the daemon is down';
  const endpoint = readHttpEndpoint(env);
  if (!endpoint.ok) return `the http hooks have no endpoint: ${endpoint.reason}`;
  if (all.some((h) => !h.url.startsWith(`http://127.0.0.1:${endpoint.endpoint.port}/`)))
    return `the http hooks post to another port than the daemon's (${endpoint.endpoint.port})`;
  return undefined;
}

function claudeChecks(cwd: string, env: Env, fix: string): Check[] {
  const out: Check[] = [];
  const found = (["user", "project", "local"] as const).map((scope) => ({
    scope,
    path: claudeSettingsPath(scope, cwd, env),
  }));
  const userDir = env.CLAUDE_CONFIG_DIR?.trim() || join(env.HOME?.trim() || homedir(), ".claude");
  let installed = false;
  for (const { scope, path } of found) {
    const file = readJson(path);
    if (!file) continue;
    if (!file.ok) {
      out.push({
        check: "claude-code hooks",
        status: "fail",
        detail: `${path} is not valid JSON (${file.error}); Claude Code ignores it: fix it by hand`,
      });
      continue;
    }
    const commands = airlockCommands(file.value, "claude-code");
    const http = airlockHttpHooks(file.value, "claude-code");
    if (commands.size === 0 && http.size === 0) continue;
    installed = true;
    const missing = [...new Set([...commands.values()].flat().flatMap(missingPaths))];
    const lacking = ["PreToolUse", "PermissionRequest"].filter((e) => !commands.has(e) && !http.has(e));
    const httpProblem = httpHookProblem(http, env);
    if (httpProblem)
      out.push({
        check: "claude-code hooks",
        status: "fail",
        detail: `${path}: ${httpProblem}; run: ${fix} hook claude-code --install${scope === "user" ? "" : ` --${scope}`}`,
      });
    else if (missing.length > 0)
      out.push({
        check: "claude-code hooks",
        status: "fail",
        detail: `${path} runs ${missing.join(", ")}, which does not exist; run: ${fix} hook claude-code --install${scope === "user" ? "" : ` --${scope}`}`,
      });
    else if (lacking.length > 0)
      out.push({
        check: "claude-code hooks",
        status: "fail",
        detail: `${path} has no Airlock hook for ${lacking.join(" and ")}, so those calls are not gated; run: ${fix} hook claude-code --install${scope === "user" ? "" : ` --${scope}`}`,
      });
    else
      out.push({
        check: "claude-code hooks",
        status: "ok",
        detail: `installed in ${path} (${[...new Set([...http.keys(), ...commands.keys()])]
          .map((e) => (http.has(e) ? `${e} over http` : e))
          .join(", ")})`,
      });
  }
  if (!installed && existsSync(userDir))
    out.push({
      check: "claude-code hooks",
      status: "warn",
      detail: `Claude Code is here (${userDir}) but not gated by Airlock; run: ${fix} hook claude-code --install`,
    });
  return out;
}

function codexChecks(cwd: string, env: Env, fix: string): Check[] {
  const out: Check[] = [];
  const codexDir = env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
  let installed = false;
  for (const scope of ["user", "project"] as const) {
    const path = codexHooksPath(scope, cwd, env);
    const hooks = airlockCodexHooks(path, env);
    if (hooks.length === 0) continue;
    installed = true;
    const again = `${fix} hook codex --install${scope === "project" ? " --project" : ""}`;
    const untrusted = hooks.filter((h) => h.status !== "trusted");
    let featureOn = false;
    let projectTrust: string | undefined;
    try {
      const config = parseConfig(codexConfigPath(env));
      featureOn = hooksFeatureOn(config);
      projectTrust = projectTrustLevel(config, resolve(cwd));
    } catch (error) {
      out.push({
        check: "codex hooks",
        status: "fail",
        detail: `${codexConfigPath(env)}: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    const missing = [...new Set(hooks.flatMap((h) => missingPaths(h.command)))];
    if (untrusted.length > 0) {
      const which = untrusted.map((h) => `${h.key.slice(path.length + 1)} (${h.status})`).join(", ");
      out.push({
        check: "codex hooks",
        status: "fail",
        detail: `${untrusted.length} Airlock hook(s) in ${path} not trusted by Codex, which skips them without a word: ${which}; run: ${again}`,
      });
    } else if (!featureOn) {
      out.push({
        check: "codex hooks",
        status: "fail",
        detail: `${codexConfigPath(env)} does not turn hooks on ([features] hooks = true); run: ${again}`,
      });
    } else if (scope === "project" && projectTrust !== "trusted") {
      out.push({
        check: "codex hooks",
        status: "fail",
        detail: `Codex skips the hooks in ${path} because ${codexConfigPath(env)} does not trust this project ([projects."${resolve(cwd)}"] trust_level is ${projectTrust ? `"${projectTrust}"` : "not set"}); run: ${again}`,
      });
    } else if (missing.length > 0) {
      out.push({
        check: "codex hooks",
        status: "fail",
        detail: `${path} runs ${missing.join(", ")}, which does not exist; run: ${again}`,
      });
    } else
      out.push({
        check: "codex hooks",
        status: "ok",
        detail: `installed and trusted in ${path} (${hooks.length} hooks)`,
      });
  }
  if (!installed && existsSync(codexDir))
    out.push({
      check: "codex hooks",
      status: "warn",
      detail: `Codex is here (${codexDir}) but not gated by Airlock; run: ${fix} hook codex --install`,
    });
  return out;
}

function parseConfig(path: string): JsonObject {
  return parseToml(existsSync(path) ? readFileSync(path, "utf8") : "") as JsonObject;
}

/** Pi's agent dir: `PI_CODING_AGENT_DIR`, else `~/.pi/agent` (its settings and its user-scope packages). */
function piAgentDir(env: Env): string {
  const set = env.PI_CODING_AGENT_DIR?.trim();
  const home = env.HOME?.trim() || homedir();
  if (set) return set === "~" ? home : set.startsWith("~/") ? join(home, set.slice(2)) : resolve(set);
  return join(home, ".pi", "agent");
}

/**
 * Whether a package source in Pi's user settings is this package. Pi stores a local path relative to its agent dir
 * (`pi install /abs/path` is written as `../../…`), so it is resolved there, never against the cwd.
 */
export function isThisPiPackage(source: string, agentDir: string, home: string): boolean {
  if (source === `npm:${PACKAGE_NAME}` || source.startsWith(`npm:${PACKAGE_NAME}@`)) return true;
  if (source.startsWith("npm:") || source.startsWith("git:") || /^[a-z]+:\/\//.test(source)) return false;
  const path = source.startsWith("local:") ? source.slice("local:".length) : source;
  const expanded = path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
  return resolve(agentDir, expanded) === PACKAGE_ROOT;
}

function piChecks(env: Env): Check[] {
  const agentDir = piAgentDir(env);
  if (!existsSync(agentDir)) return [];
  const settings = readJson(join(agentDir, "settings.json"));
  const packages =
    settings?.ok && isObject(settings.value) && Array.isArray(settings.value.packages)
      ? settings.value.packages
      : [];
  const sources = packages.map((p) =>
    typeof p === "string" ? p : isObject(p) && typeof p.source === "string" ? p.source : "",
  );
  const ours = sources.find((s) => isThisPiPackage(s, agentDir, env.HOME?.trim() || homedir()));
  const linked = existsSync(join(agentDir, "extensions", "airlock.js"));
  if (ours) return [{ check: "pi package", status: "ok", detail: `installed (${ours})` }];
  if (linked)
    return [
      {
        check: "pi package",
        status: "ok",
        detail: `extension linked in ${join(agentDir, "extensions")}`,
      },
    ];
  return [
    {
      check: "pi package",
      status: "warn",
      detail: `Pi is here (${agentDir}) but not gated by Airlock; run: pi install ${PACKAGE_ROOT}`,
    },
  ];
}

/** MCP servers registered for Claude Code (~/.claude.json, .mcp.json) and Cursor that run Airlock. */
function mcpChecks(cwd: string, env: Env): Check[] {
  const home = env.HOME?.trim() || homedir();
  const files = [
    join(home, ".claude.json"),
    join(resolve(cwd), ".mcp.json"),
    join(home, ".cursor", "mcp.json"),
    join(resolve(cwd), ".cursor", "mcp.json"),
  ];
  const out: Check[] = [];
  for (const path of files) {
    const file = readJson(path);
    if (!file?.ok || !isObject(file.value)) continue;
    const servers = isObject(file.value.mcpServers) ? file.value.mcpServers : {};
    for (const [name, server] of Object.entries(servers)) {
      if (!isObject(server)) continue;
      const words = [server.command, ...(Array.isArray(server.args) ? server.args : [])].filter(
        (w): w is string => typeof w === "string",
      );
      const mcpAt = words.indexOf("mcp");
      const isAirlock = mcpAt > 0 && words.slice(0, mcpAt).some((w) => /airlock/.test(w));
      if (!isAirlock) continue;
      const label = `mcp "${name}"`;
      if (words[0] === "npx" && words.slice(1, mcpAt).includes("airlock"))
        out.push({
          check: label,
          status: "fail",
          detail: `${path} runs the bare npm name "airlock" with npx, an unrelated package; register the absolute command from "airlock mcp --help" or npx ${PACKAGE_NAME}`,
        });
      else if (words.slice(0, mcpAt).some((w) => w.startsWith("/") && !existsSync(w)))
        out.push({
          check: label,
          status: "fail",
          detail: `${path} runs a path that does not exist (${words.slice(0, mcpAt).join(" ")}); register the command "airlock mcp --help" prints`,
        });
      else out.push({ check: label, status: "ok", detail: `registered in ${path}` });
    }
  }
  return out;
}

/** Every agent integration found here, checked; "how to fix" uses `fix` as the way to type `airlock`. */
export function integrationChecks(cwd: string, env: Env, fix: string): Check[] {
  const checks = [
    ...claudeChecks(cwd, env, fix),
    ...codexChecks(cwd, env, fix),
    ...piChecks(env),
    ...hookAgentChecks(cwd, env, fix),
    ...mcpChecks(cwd, env),
  ];
  if (checks.length === 0)
    checks.push({
      check: "agents",
      status: "warn",
      detail: `no Claude Code, Codex, Pi, Gemini CLI, OpenCode, Copilot CLI or MCP client found to gate; "${fix} init" sets one up when you have one`,
    });
  return checks;
}
