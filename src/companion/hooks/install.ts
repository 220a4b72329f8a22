// Merging Airlock's hook entries into an agent's hooks JSON (Claude Code settings.json, Codex hooks.json) without
// touching anyone else's hooks; re-running replaces Airlock's own entries instead of duplicating them.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { BIN_PATH } from "../cli/invocation.ts";

export interface HookSpec {
  event: string;
  /** Omitted for events that take no matcher (UserPromptSubmit). */
  matcher?: string;
  /** Another handler than the command hook (Claude Code's `"type": "http"`); default: `airlock hook <agent>`. */
  handler?: Record<string, unknown>;
}

const Handler = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  url: z.string().optional(),
});
const Group = z.looseObject({ matcher: z.string().optional(), hooks: z.array(Handler).optional() });
const HooksFile = z.looseObject({ hooks: z.record(z.string(), z.array(Group)).optional() });

export interface InstallResult {
  path: string;
  command: string;
  timeoutSeconds: number;
  events: string[];
  /** The full file as written. */
  written: unknown;
}

/** How a hook command names Airlock: `airlock hook <agent>` in any spelling (bin name or node + bin path). */
export function isAirlockHook(command: string | undefined, agentArg: string): boolean {
  return typeof command === "string" && command.includes(`hook ${agentArg}`) && /airlock/.test(command);
}

/** Airlock's http hook: the daemon's endpoint for `agentArg` on the loopback address. */
export function isAirlockHttpHook(url: string | undefined, agentArg: string): boolean {
  return typeof url === "string" && new RegExp(`^http://127\\.0\\.0\\.1:\\d+/hooks/${agentArg}$`).test(url);
}

function readHooksFile(path: string): z.infer<typeof HooksFile> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, "utf8");
  if (!text.trim()) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; fix it by hand, then re-run (Airlock will not overwrite it)`);
  }
  const parsed = HooksFile.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${path} does not look like a hooks file (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** Drops Airlock's entries for `agentArg`, and any group left empty by that. */
function withoutAirlock(groups: z.infer<typeof Group>[], agentArg: string): z.infer<typeof Group>[] {
  const out: z.infer<typeof Group>[] = [];
  for (const group of groups) {
    const hooks = (group.hooks ?? []).filter(
      (h) => !isAirlockHook(h.command, agentArg) && !isAirlockHttpHook(h.url, agentArg),
    );
    if (hooks.length > 0 || (group.hooks ?? []).length === 0) out.push({ ...group, hooks });
  }
  return out;
}

export function mergeHooks(
  path: string,
  specs: readonly HookSpec[],
  command: string,
  timeoutSeconds: number,
  agentArg: string,
  options: { remove?: boolean; dryRun?: boolean; mode?: number } = {},
): InstallResult {
  const file = readHooksFile(path);
  const hooks: Record<string, z.infer<typeof Group>[]> = { ...(file.hooks ?? {}) };
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = withoutAirlock(groups, agentArg);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!options.remove) {
    for (const spec of specs) {
      const group: z.infer<typeof Group> = {
        ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}),
        hooks: [spec.handler ?? { type: "command", command, timeout: timeoutSeconds }],
      };
      hooks[spec.event] = [...(hooks[spec.event] ?? []), group];
    }
  }
  const written = { ...file, hooks };
  if (!options.dryRun) {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(written, null, 2)}\n`, { mode: options.mode ?? 0o666 });
    // A file that now holds a secret is narrowed even when it existed with a wider mode.
    if (options.mode !== undefined) chmodSync(tmp, options.mode);
    renameSync(tmp, path);
  }
  return { path, command, timeoutSeconds, events: specs.map((s) => s.event), written };
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * How an agent should start `airlock`: `AIRLOCK_HOOK_COMMAND` when set, else the absolute paths of this Node and
 * this package's bin, so the command works whatever PATH the agent gives it.
 */
export function airlockCommandLine(env: NodeJS.ProcessEnv): string {
  const explicit = env.AIRLOCK_HOOK_COMMAND?.trim();
  if (explicit) return explicit;
  return `${quote(process.execPath)} ${quote(BIN_PATH)}`;
}

export function airlockCommand(agentArg: string, env: NodeJS.ProcessEnv): string {
  return `${airlockCommandLine(env)} hook ${agentArg}`;
}
