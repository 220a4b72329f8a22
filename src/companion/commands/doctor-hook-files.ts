// What `airlock doctor` reads from an agent's hook files, shared by its integration checks: a check's shape, a JSON file
// read without throwing, Airlock's hook commands in a hooks object, and the paths in a command that no longer exist.
import { existsSync, readFileSync } from "node:fs";
import { isAirlockHook } from "../hooks/install.ts";

export interface Check {
  check: string;
  status: "ok" | "warn" | "fail";
  detail: string;
}

export type JsonObject = Record<string, unknown>;
export const isObject = (x: unknown): x is JsonObject =>
  typeof x === "object" && x !== null && !Array.isArray(x);

export function readJson(
  path: string,
): { ok: true; value: unknown } | { ok: false; error: string } | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return { ok: true, value: JSON.parse(readFileSync(path, "utf8")) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Every handler in a hooks object ({Event: [{matcher, hooks: [handler]}]}), with its event. */
export function* hookHandlers(file: unknown): Generator<[event: string, handler: JsonObject]> {
  const hooks = isObject(file) && isObject(file.hooks) ? file.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = isObject(group) && Array.isArray(group.hooks) ? group.hooks : [];
      for (const h of handlers) if (isObject(h)) yield [event, h];
    }
  }
}

/** The Airlock hook commands in a hooks object, by event. */
export function airlockCommands(file: unknown, agentArg: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [event, h] of hookHandlers(file)) {
    const command = typeof h.command === "string" ? h.command : undefined;
    if (command && isAirlockHook(command, agentArg)) out.set(event, [...(out.get(event) ?? []), command]);
  }
  return out;
}

/** Absolute paths in a hook command that no longer exist (a moved checkout, a removed Node). */
export function missingPaths(command: string): string[] {
  const words = command.match(/'[^']*'|\S+/g) ?? [];
  return words.map((w) => w.replace(/^'|'$/g, "")).filter((w) => w.startsWith("/") && !existsSync(w));
}
