// Codex runs a hooks.json entry only when config.toml records it as trusted: `[hooks.state."<file>:<event>:<group>:
// <handler>"] trusted_hash = "sha256:…"`, the hash Codex's own /hooks review writes. This computes that hash the way
// Codex does (a normalized identity of the one handler, keys sorted, compact JSON, sha256), checks the trust Airlock's
// entries have, and records it, together with `[features] hooks = true`, editing config.toml in place.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import type { Env } from "../../cli/config.ts";
import { isAirlockHook } from "../../hooks/install.ts";

/** Codex's snake_case label of each event Airlock installs. */
const EVENT_LABELS: Record<string, string> = {
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  PostToolUse: "post_tool_use",
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  Stop: "stop",
};
/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER = new Set(["UserPromptSubmit", "Stop"]);

const Handler = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  timeout: z.number().optional(),
  async: z.boolean().optional(),
  statusMessage: z.string().optional(),
});
const HooksJson = z.looseObject({
  hooks: z
    .record(
      z.string(),
      z.array(z.looseObject({ matcher: z.string().optional(), hooks: z.array(Handler).optional() })),
    )
    .optional(),
});

export interface CodexHookTrust {
  key: string;
  event: string;
  command: string;
  hash: string;
  /** trusted: recorded hash matches; modified: a different hash is recorded; untrusted: none. */
  status: "trusted" | "modified" | "untrusted";
}

/** Objects with their keys sorted at every level, as Codex canonicalizes before hashing. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** The trusted_hash Codex computes for one command handler of `event` under `matcher`. */
export function codexHookHash(
  event: string,
  matcher: string | undefined,
  handler: { command: string; timeout?: number; async?: boolean; statusMessage?: string },
): string {
  const label = EVENT_LABELS[event] ?? event;
  const normalized: Record<string, unknown> = {
    type: "command",
    command: handler.command,
    // Codex fills the default (600 s, at least 1) before hashing; options left unset are not part of the identity.
    timeout: Math.max(1, handler.timeout ?? 600),
    async: handler.async ?? false,
    ...(handler.statusMessage !== undefined ? { statusMessage: handler.statusMessage } : {}),
  };
  const identity: Record<string, unknown> = { event_name: label, hooks: [normalized] };
  const m = NO_MATCHER.has(event) ? undefined : matcher?.trim() ? matcher : undefined;
  if (m !== undefined) identity.matcher = m;
  const json = JSON.stringify(canonical(identity));
  return `sha256:${createHash("sha256").update(json).digest("hex")}`;
}

export function codexConfigPath(env: Env): string {
  const dir = env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
  return join(dir, "config.toml");
}

function readConfig(path: string): { text: string; doc: Record<string, unknown> } {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  try {
    return { text, doc: parseToml(text) as Record<string, unknown> };
  } catch (error) {
    throw new Error(
      `${path} is not valid TOML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); fix it, then re-run`,
    );
  }
}

function recordedHashes(doc: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const state = (doc.hooks as { state?: unknown } | undefined)?.state;
  if (state && typeof state === "object") {
    for (const [key, value] of Object.entries(state as Record<string, unknown>)) {
      const hash = (value as { trusted_hash?: unknown } | null)?.trusted_hash;
      if (typeof hash === "string") out.set(key, hash);
    }
  }
  return out;
}

export function hooksFeatureOn(doc: Record<string, unknown>): boolean {
  const features = doc.features as Record<string, unknown> | undefined;
  return features?.hooks === true || features?.codex_hooks === true;
}

/** Airlock's handlers in a hooks.json, each with the key and hash Codex trusts it by, and its trust now. */
export function airlockCodexHooks(hooksPath: string, env: Env): CodexHookTrust[] {
  if (!existsSync(hooksPath)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(hooksPath, "utf8"));
  } catch {
    return [];
  }
  const parsed = HooksJson.safeParse(raw);
  if (!parsed.success) return [];
  let recorded = new Map<string, string>();
  try {
    recorded = recordedHashes(readConfig(codexConfigPath(env)).doc);
  } catch {
    // an unreadable config.toml trusts nothing
  }
  const out: CodexHookTrust[] = [];
  for (const [event, groups] of Object.entries(parsed.data.hooks ?? {})) {
    const label = EVENT_LABELS[event];
    if (!label) continue;
    groups.forEach((group, g) => {
      (group.hooks ?? []).forEach((handler, h) => {
        if (!handler.command || !isAirlockHook(handler.command, "codex")) return;
        const key = `${hooksPath}:${label}:${g}:${h}`;
        const hash = codexHookHash(event, group.matcher, { ...handler, command: handler.command });
        const have = recorded.get(key);
        out.push({
          key,
          event,
          command: handler.command,
          hash,
          status: have === hash ? "trusted" : have ? "modified" : "untrusted",
        });
      });
    });
  }
  return out;
}

const tomlString = (s: string) => JSON.stringify(s);

/** The `# comment` ending a TOML line, outside any string (kept when Airlock rewrites the line's value). */
export function trailingComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") return ` ${line.slice(i).trimEnd()}`;
  }
  return "";
}

/**
 * Sets `name = value` inside the table whose header line is `header`, adding the table or the line as needed. A
 * line it rewrites keeps its comment; `keep` says to leave an existing value alone (the user's own switch).
 */
function setInTable(text: string, header: string, name: string, value: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => {
    const bare = l.trim();
    return bare === header || (bare.startsWith(header) && /^\s*#/.test(bare.slice(header.length)));
  });
  if (start < 0) {
    const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
    return `${text}${sep}${header}\n${name} = ${value}\n`;
  }
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end] ?? "")) end++;
  const keyLine = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*=`);
  for (let i = start + 1; i < end; i++) {
    const line = lines[i] ?? "";
    if (keyLine.test(line)) {
      lines[i] = `${name} = ${value}${trailingComment(line.slice(line.indexOf("=") + 1))}`;
      return lines.join("\n");
    }
  }
  lines.splice(start + 1, 0, `${name} = ${value}`);
  return lines.join("\n");
}

/** The lines a person would add by hand, for the message when config.toml cannot be edited safely. */
export function manualTrustStep(path: string, hooks: CodexHookTrust[], project?: string): string {
  return [
    `add to ${path}:`,
    "[features]",
    "hooks = true",
    ...hooks.flatMap((h) => [`[hooks.state.${tomlString(h.key)}]`, `trusted_hash = ${tomlString(h.hash)}`]),
    ...(project !== undefined ? [`[projects.${tomlString(project)}]`, 'trust_level = "trusted"'] : []),
  ].join("\n");
}

/** The trust level config.toml records for a project directory (`[projects."<path>"] trust_level`), if any. */
export function projectTrustLevel(doc: Record<string, unknown>, project: string): string | undefined {
  const projects = doc.projects as Record<string, unknown> | undefined;
  const entry = projects?.[project] as { trust_level?: unknown } | undefined;
  return typeof entry?.trust_level === "string" ? entry.trust_level : undefined;
}

export interface CodexTrustResult {
  trusted: CodexHookTrust[];
  /** The user's own switches Airlock left as they were, each with what it means for the hooks. */
  notes: string[];
}

/**
 * Records trust for every Airlock handler in `hooksPath` in the user's config.toml, turns hooks on unless the user
 * turned them off (`hooks = false` is theirs to change: it is reported, never flipped), and for a project install
 * trusts the project (Codex skips a project's hooks until the project is trusted), again unless the user marked it
 * untrusted. Throws with the exact manual step when the file cannot be edited to the intended result.
 */
export function trustCodexHooks(
  hooksPath: string,
  env: Env,
  options: { dryRun?: boolean; project?: string } = {},
): CodexTrustResult {
  const path = codexConfigPath(env);
  const { text, doc } = readConfig(path);
  const hooks = airlockCodexHooks(hooksPath, env);
  const notes: string[] = [];
  let next = text;
  const features = doc.features as Record<string, unknown> | undefined;
  if (features?.hooks === false)
    notes.push(
      `${path} turns hooks off ([features] hooks = false), so Codex runs no hook and Airlock gates nothing; left as you set it: change it to true to turn Airlock on`,
    );
  else if (!hooksFeatureOn(doc)) next = setInTable(next, "[features]", "hooks", "true");
  for (const h of hooks)
    next = setInTable(next, `[hooks.state.${tomlString(h.key)}]`, "trusted_hash", tomlString(h.hash));
  if (options.project !== undefined) {
    const level = projectTrustLevel(doc, options.project);
    if (level === undefined)
      next = setInTable(
        next,
        `[projects.${tomlString(options.project)}]`,
        "trust_level",
        tomlString("trusted"),
      );
    else if (level !== "trusted")
      notes.push(
        `${path} marks ${options.project} as ${level} ([projects] trust_level = "${level}"), so Codex skips this project's hooks; left as you set it: trust the project to turn Airlock on`,
      );
  }
  let check: Record<string, unknown>;
  try {
    check = parseToml(next) as Record<string, unknown>;
  } catch {
    throw new Error(`could not record the hooks' trust in ${path} safely; ${manualTrustStep(path, hooks)}`);
  }
  const recorded = recordedHashes(check);
  const featureOk = features?.hooks === false || hooksFeatureOn(check);
  const projectOk = options.project === undefined || projectTrustLevel(check, options.project) !== undefined;
  if (!featureOk || !projectOk || hooks.some((h) => recorded.get(h.key) !== h.hash))
    throw new Error(
      `could not record the hooks' trust in ${path} safely; ${manualTrustStep(path, hooks, options.project)}`,
    );
  if (!options.dryRun && next !== text) {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, next.endsWith("\n") ? next : `${next}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  }
  return { trusted: hooks.map((h) => ({ ...h, status: "trusted" as const })), notes };
}
