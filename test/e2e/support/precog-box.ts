// A workspace with a slow-ish failing `npm test`, a sealed home whose policy allows reads and `npm test`,
// and a real `airlock up` with precognition on: what the real-agent precognition tests and bench share.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Daemon, startDaemon } from "../../node/companion/support/sandbox.ts";

// mode: sole, because a served call must be pre-approved: in the default composed mode Airlock serves Claude Code
// only where the call runs without Claude Code's own check (a person's answer, or bypassPermissions).
export const PRECOG_POLICY = `version: 1
mode: sole
default_action: deny
rules:
  - name: Read the workspace
    condition: tool == "read" || tool == "grep" || tool == "ls" || tool == "find"
    action: allow
  - name: Run the tests
    condition: tool == "bash" && command == "npm test"
    action: allow
`;

/** Every run appends to runs.log, so a served answer (no new line) is told apart from a real run. */
export function testScript(delayMs: number): string {
  return `const fs = require("fs");
fs.appendFileSync("runs.log", "run\\n");
const until = Date.now() + ${delayMs};
while (Date.now() < until) {}
console.log("checked", fs.readFileSync("src/helper.ts", "utf8").trim());
console.log("1 passing, 1 failing");
process.exit(3);
`;
}

export interface PrecogBox {
  base: string;
  ws: string;
  home: string;
  /** Env for agents and hooks: the daemon's socket, precognition switches as given. */
  env: NodeJS.ProcessEnv;
  daemon: Daemon;
  runs(): number;
  close(): Promise<void>;
}

export async function precogBox(
  options: { testDelayMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<PrecogBox> {
  const base = mkdtempSync(join(tmpdir(), "airlock-precog-e2e-"));
  const ws = join(base, "ws");
  const home = join(base, "home");
  const airlockHome = join(home, ".airlock");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(ws, "test"), { recursive: true });
  mkdirSync(join(ws, ".git"), { recursive: true });
  mkdirSync(airlockHome, { recursive: true, mode: 0o700 });
  writeFileSync(join(airlockHome, "permissions.yaml"), PRECOG_POLICY);
  writeFileSync(
    join(ws, "package.json"),
    JSON.stringify({ name: "demo", scripts: { test: "node test/run.js" } }),
  );
  writeFileSync(join(ws, "test/run.js"), testScript(options.testDelayMs ?? 0));
  writeFileSync(
    join(ws, "src/helper.ts"),
    `export function helper(n: number): number {\n  return n + 1;\n}\n`,
  );
  writeFileSync(
    join(ws, "src/app.ts"),
    `import { helper } from "./helper";\nexport const app = helper(41);\n`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    AIRLOCK_HOME: airlockHome,
    AIRLOCK_SOCKET: join(base, "run", "daemon.sock"),
    // npm's occasional "new version available" notice would make otherwise identical outputs differ.
    npm_config_update_notifier: "false",
    ...options.env,
  };
  const daemon = await startDaemon(env);
  const log = join(ws, "runs.log");
  return {
    base,
    ws,
    home,
    env,
    daemon,
    runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").length - 1 : 0),
    async close() {
      await daemon.stop("SIGTERM");
      rmSync(base, { recursive: true, force: true });
    },
  };
}
