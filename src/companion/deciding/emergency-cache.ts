// The last emergency controls the daemon heard from the edge, on disk so the no-daemon path applies them too.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EmergencyControls } from "../../protocol/index.ts";
import { type Env, stateDir } from "../cli/config.ts";

export function emergencyCachePath(env: Env = process.env): string {
  return join(stateDir(env), "emergency.json");
}

export function readEmergencyCache(env: Env = process.env): EmergencyControls | undefined {
  try {
    const parsed = EmergencyControls.safeParse(JSON.parse(readFileSync(emergencyCachePath(env), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeEmergencyCache(controls: EmergencyControls, env: Env = process.env): void {
  const path = emergencyCachePath(env);
  mkdirSync(stateDir(env), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(controls), { mode: 0o600 });
  renameSync(tmp, path);
}
