// A sealed environment for running the companion in tests: temp HOME and AIRLOCK_HOME holding a
// permissions.yaml, no daemon, no pairing, so only the local policy decides.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/** Node 24 from the `node` devDependency (the machine's bare `node` may be older). */
export const NODE = join(ROOT, "node_modules/.bin/node");
export const AIRLOCK_BIN = join(ROOT, "bin/airlock.cjs");

/** Allows read/grep/ls, writes inside the workspace (redirects) and `echo`, denies `rm` with a message, denies everything else. */
export const ECHO_YES_RM_NO = `version: 1
default_action: deny
rules:
  - name: Read the workspace
    condition: tool == "read" || tool == "grep" || tool == "ls"
    action: allow
  - name: Write inside the workspace
    condition: tool == "write" && path.startsWith(cwd)
    action: allow
  - name: Echo
    condition: tool == "bash" && command.startsWith("echo")
    action: allow
  - name: No rm
    condition: tool == "bash" && command.startsWith("rm")
    action: deny
    message: rm is not allowed here
`;

export interface SealedHome {
  dir: string;
  home: string;
  airlockHome: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function sealedHome(policy: string): SealedHome {
  const dir = mkdtempSync(join(tmpdir(), "airlock-home-"));
  const home = join(dir, "home");
  const airlockHome = join(home, ".airlock");
  mkdirSync(airlockHome, { recursive: true });
  writeFileSync(join(airlockHome, "permissions.yaml"), policy);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    AIRLOCK_HOME: airlockHome,
    AIRLOCK_NO_DAEMON: "1",
    AIRLOCK_SOCKET: join(dir, "no-daemon.sock"),
    LANG: "C.UTF-8",
  };
  return { dir, home, airlockHome, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
