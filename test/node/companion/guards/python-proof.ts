// Test support for the python over-asks (rounds 13, 19): fresh workspaces under one temp directory, and real
// python run in one with nothing of this process's python environment, to prove what it imports from there.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS, BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

/** What a project module a proof plants prints when python runs it. */
export const RUN = "print('PROJECT CODE RAN')\n";

/**
 * A maker of fresh workspaces under `base`, each holding `seed` and then its own `files` (a path ending in `/`
 * is a directory).
 */
export function workspacesUnder(
  base: string,
  seed: Record<string, string> = {},
): (files?: Record<string, string>) => string {
  let n = 0;
  return (files = {}) => {
    const ws = join(base, `ws${n++}`);
    mkdirSync(ws);
    for (const [path, text] of Object.entries({ ...seed, ...files })) {
      mkdirSync(join(ws, path.endsWith("/") ? path : join(path, "..")), { recursive: true });
      if (!path.endsWith("/")) writeFileSync(join(ws, path), text);
    }
    return ws;
  };
}

/** python3 run in `ws` with `args`, HOME at `home`, and no PYTHONPATH, venv or other python variable of ours. */
export function runPython(home: string, ws: string, ...args: string[]) {
  return spawnSync("python3", args, {
    cwd: ws,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home },
  });
}

/** `command` run in `ws` judged under cautious, balanced and autonomous, HOME under `base`, the disk with `env`. */
export function profileActions(base: string) {
  return (command: string, ws: string, env: NodeJS.ProcessEnv = {}) =>
    [CAUTIOUS, BALANCED, AUTONOMOUS].map(
      (p) =>
        judgeOnDisk(
          p,
          { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") },
          { disk: diskCheck({ env }) },
        ).action,
    );
}
