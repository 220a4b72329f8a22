// A real workspace on disk with a real policy and a real Precog engine (watcher included), for the futures tests.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { classFromConfig } from "../../../../src/companion/futures/command-classes.ts";
import { Precog } from "../../../../src/companion/futures/engine.ts";
import { policyGate } from "../../../../src/companion/futures/policy-gate.ts";
import type { PolicyState } from "../../../../src/companion/local-policy/load.ts";
import { compilePolicy, type EmergencyControls, NO_EMERGENCY } from "../../../../src/policy/index.ts";

/** Reads, grep, ls and the allowlisted read-only commands run without asking; `rm` is denied; the rest asks. */
export const PRECOG_POLICY = `version: 1
default_action: ask
rules:
  - name: reads
    condition: tool == "read" || tool == "grep" || tool == "ls"
    action: allow
  - name: checks
    condition: tool == "bash" && (command.startsWith("npm test") || command.startsWith("git ") || command.startsWith("ls") || command.startsWith("cat package.json") || command.startsWith("sleep") || command.startsWith("node "))
    action: allow
  - name: no rm
    condition: tool == "bash" && command.startsWith("rm")
    action: deny
`;

export function policyState(text: string): PolicyState {
  const compiled = compilePolicy([{ layer: "user", path: "/u/permissions.yaml", text }]);
  const base = { files: [], loadedAt: new Date().toISOString() };
  return compiled.ok
    ? { ok: true, policy: compiled.policy, ...base }
    : { ok: false, errors: compiled.errors, ...base };
}

export interface PrecogFixture {
  root: string;
  /** A directory outside the workspace holding a secret, for symlink escapes. */
  outside: string;
  precog: Precog;
  env: NodeJS.ProcessEnv;
  logs: string[];
  emergency: EmergencyControls;
  policy: PolicyState;
  write(relative: string, content: string | Buffer): string;
  close(): Promise<void>;
}

export const DEFAULT_FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "demo", scripts: { test: "node test/run.js" } }, null, 2),
  "src/app.ts": 'import { helper } from "./helper";\nexport const app = helper(1);\n',
  "src/helper.ts": "export function helper(n: number): number {\n  return n + 1;\n}\n",
  "src/big.ts": `${"// filler\n".repeat(4000)}`,
  "test/run.js":
    'const fs = require("fs");\nconsole.log("tests:", fs.readFileSync("src/helper.ts", "utf8").length);\n',
  ".env": "API_KEY=sk-live-secret\n",
  "config/prod.pem": "-----BEGIN PRIVATE KEY-----\n",
  "node_modules/dep/index.js": "module.exports = 1;\n",
  "docs/notes.md": "notes\n",
};

export async function precogFixture(
  env: NodeJS.ProcessEnv = {},
  files: Record<string, string> = DEFAULT_FILES,
  policyText = PRECOG_POLICY,
): Promise<PrecogFixture> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "airlock-precog-")));
  const root = join(dir, "ws");
  const outside = join(dir, "outside");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "id_rsa"), "PRIVATE\n");
  const write = (relative: string, content: string | Buffer): string => {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  const logs: string[] = [];
  const state = { emergency: { ...NO_EMERGENCY }, policy: policyState(policyText) };
  const precog = new Precog({
    env,
    log: (line) => logs.push(line),
    allowedNow: policyGate({ policy: () => fixture.policy, emergency: () => fixture.emergency }),
    // As the daemon does: command classes from permissions.yaml's `futures.commands`.
    classes: () => (fixture.policy.ok ? fixture.policy.policy.futureCommands.map(classFromConfig) : []),
  });
  const fixture: PrecogFixture = {
    root,
    outside,
    env,
    logs,
    ...state,
    write,
    precog,
    async close() {
      await fixture.precog.settled();
      await fixture.precog.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Waits until `check` holds, driven by the engine's own events (no fixed sleeps). */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}
