// A hook file that is Airlock's alone (Copilot CLI's hooks/airlock.json, OpenCode's plugin): installing writes it
// whole, through a temp file and a rename so an agent starting at that moment reads the old file or the new one and
// never half of one; uninstalling deletes it. Files shared with other tools are merged instead (install.ts).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function placeOwnHookFile(
  path: string,
  text: string,
  options: { remove?: boolean; dryRun?: boolean },
): void {
  if (options.dryRun) return;
  if (options.remove) {
    if (existsSync(path)) rmSync(path);
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
