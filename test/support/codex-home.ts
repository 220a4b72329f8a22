// A CODEX_HOME for the real Codex CLI against the scripted Responses API server, with hooks that Codex trusts:
// Codex runs a hook only when config.toml holds its trusted hash (sha256 of the hook's normalized identity,
// keys sorted, compact JSON), keyed by the hooks.json path, the event, and the group and handler index.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./airlock-env.ts";

export const CODEX = join(ROOT, "node_modules/@openai/codex/bin/codex.js");

const LABELS: Record<string, string> = {
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  UserPromptSubmit: "user_prompt_submit",
  SessionStart: "session_start",
  Stop: "stop",
};

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
}

/** Codex's trust hash of one command hook (timeout materialized, `async` always present, no matcher for prompts). */
export function codexHookHash(
  event: string,
  matcher: string | undefined,
  command: string,
  timeout: number,
): string {
  const label = LABELS[event] ?? event;
  const identity: Record<string, unknown> = {
    event_name: label,
    hooks: [{ type: "command", command, timeout, async: false }],
  };
  if (matcher !== undefined && label !== "user_prompt_submit" && label !== "stop") identity.matcher = matcher;
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(canonical(identity)))
    .digest("hex")}`;
}

/** Writes config.toml (scripted provider, hooks on, each hook trusted) and hooks.json into `home`. */
export function writeCodexHome(
  home: string,
  modelUrl: string,
  hooks: { event: string; matcher?: string; command: string; timeout?: number }[],
): void {
  mkdirSync(home, { recursive: true });
  const hooksPath = join(home, "hooks.json");
  const byEvent: Record<string, unknown[]> = {};
  const state: string[] = [];
  for (const h of hooks) {
    const timeout = h.timeout ?? 60;
    const group = {
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      hooks: [{ type: "command", command: h.command, timeout }],
    };
    const groups = byEvent[h.event] ?? [];
    state.push(
      `[hooks.state."${hooksPath}:${LABELS[h.event] ?? h.event}:${groups.length}:0"]\nenabled = true\ntrusted_hash = "${codexHookHash(h.event, h.matcher, h.command, timeout)}"\n`,
    );
    groups.push(group);
    byEvent[h.event] = groups;
  }
  writeFileSync(hooksPath, JSON.stringify({ hooks: byEvent }, null, 2));
  writeFileSync(
    join(home, "config.toml"),
    `model = "scripted-model"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.scripted]
name = "scripted"
base_url = "${modelUrl}/v1"
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"

[features]
hooks = true

${state.join("\n")}`,
  );
}
