// Test support: one shell command judged as the companion judges it (a starter profile's policy, then the
// disk) in a workspace, with HOME at /home/dev unless the disk's environment says otherwise.
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday, profilePolicy } from "../../../../src/companion/profiles/preview.ts";

export const HOME = "/home/dev";
export const BALANCED = profilePolicy("balanced", HOME);
export const AUTONOMOUS = profilePolicy("autonomous", HOME);

export interface Judged {
  action: string;
  reason: string;
}

/** The decision on `command` run in `ws`; `env` is the environment the disk checks see (none by default). */
export function judgeCommand(
  ws: string,
  command: string,
  { policy = BALANCED, env = {} }: { policy?: typeof BALANCED; env?: NodeJS.ProcessEnv } = {},
): Judged {
  const [j] = judgeEveryday(policy, ws, HOME, diskCheck({ env }), [
    { kind: "read", tool: "Bash", input: { command } },
  ]);
  return { action: j?.record.action ?? "none", reason: j?.reason ?? "" };
}
