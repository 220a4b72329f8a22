// Never weaker than Codex alone: an Airlock allow leaves Codex's sandbox in force. The real `codex exec` in a
// workspace-write sandbox with Airlock's hooks under a policy that allows every shell call: writes inside the
// workspace run, while writes to .git (read-only under workspace-write) and outside the workspace are still
// blocked by Codex's own sandbox. A deny shows the hook was in the path.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AIRLOCK_BIN, NODE, type SealedHome, sealedHome } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { CODEX, writeCodexHome } from "../support/codex-home.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";

const HOOK = `${NODE} ${AIRLOCK_BIN} hook codex`;
const ALLOW_ALL_BUT_RM = `version: 1
default_action: deny
rules:
  - name: No rm
    condition: tool == "bash" && command.startsWith("rm")
    action: deny
    message: rm is not allowed here
  - name: Any other shell call, any write
    condition: tool == "bash" || tool == "write"
    action: allow
`;

// Airlock allows the write outside; the git writes it now asks about itself (git tag/update-ref are not
// read-only subcommands its grammar understands), which with no phone paired is a deny: either way the sandbox
// and Airlock together never let them through.
const CALLS = [
  "echo inside > inside.txt",
  "git tag v1",
  "git update-ref refs/heads/evil HEAD",
  "echo out > ../outside.txt",
  "rm -rf keep",
];

let base: string;
let ws: string;
let sealed: SealedHome;
let model: ModelServer;
let run: ProcessRun;
let alone: { tag: boolean; ref: boolean; outside: boolean; inside: boolean };

/** The effects of the scripted calls in one workspace: what the sandbox let through. */
const effects = (dir: string) => ({
  inside: existsSync(join(dir, "ws/inside.txt")),
  tag: existsSync(join(dir, "ws/.git/refs/tags/v1")),
  ref: existsSync(join(dir, "ws/.git/refs/heads/evil")),
  outside: existsSync(join(dir, "outside.txt")),
});

function workspace(dir: string): string {
  const w = join(dir, "ws");
  mkdirSync(join(w, "keep"), { recursive: true });
  execFileSync("git", ["init", "-q", w]);
  execFileSync(
    "git",
    ["-c", "user.name=d", "-c", "user.email=d@example.com", "commit", "-q", "--allow-empty", "-m", "first"],
    { cwd: w, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } },
  );
  return w;
}

const SANDBOX_ARGS = [
  "exec",
  "--skip-git-repo-check",
  "--sandbox",
  "workspace-write",
  // The temp folders are writable under workspace-write by default; without them, the parent is outside.
  "-c",
  "sandbox_workspace_write.exclude_slash_tmp=true",
  "-c",
  "sandbox_workspace_write.exclude_tmpdir_env_var=true",
  "Write the files.",
];

beforeAll(async () => {
  await ensureBuilt();
  base = mkdtempSync(join(tmpdir(), "airlock-codex-sandbox-"));
  // Codex alone first: the same calls, the same sandbox, no hooks.
  const aloneDir = join(base, "alone");
  const aloneWs = workspace(aloneDir);
  const aloneModel = await startModelServer(
    CALLS.map((cmd) => ({ toolCalls: [{ name: "exec_command", input: { cmd } }] })),
  );
  const aloneHome = join(aloneDir, "codex-home");
  writeCodexHome(aloneHome, aloneModel.url, []);
  await runToEnd(NODE, [CODEX, ...SANDBOX_ARGS], aloneWs, {
    ...process.env,
    CODEX_HOME: aloneHome,
    SCRIPTED_API_KEY: "dummy",
  });
  await aloneModel.close();
  alone = effects(aloneDir);

  ws = workspace(base);
  sealed = sealedHome(ALLOW_ALL_BUT_RM);
  model = await startModelServer(
    CALLS.map((cmd) => ({ toolCalls: [{ name: "exec_command", input: { cmd } }] })),
  );
  const home = join(base, "codex-home");
  writeCodexHome(home, model.url, [
    { event: "PreToolUse", matcher: "*", command: HOOK },
    { event: "PermissionRequest", matcher: "*", command: HOOK },
  ]);
  run = await runToEnd(NODE, [CODEX, ...SANDBOX_ARGS], ws, {
    ...sealed.env,
    CODEX_HOME: home,
    SCRIPTED_API_KEY: "dummy",
  });
}, 180_000);

afterAll(async () => {
  await model?.close();
  sealed?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("Codex's workspace-write sandbox with Airlock allowing every shell call", () => {
  it("runs every scripted call through the hook", () => {
    expect(model.toolResults().length, `${run.stdout}\n${run.stderr}`).toBe(CALLS.length);
    const rm = model.toolResults()[4];
    expect(rm?.text).toContain("rm is not allowed here");
    expect(existsSync(join(ws, "keep"))).toBe(true);
  });

  it("the allowed write inside the workspace ran", () => {
    expect(existsSync(join(ws, "inside.txt"))).toBe(true);
  });

  it("Airlock allowed the write outside (no hook deny reached the model); it refused the git writes itself", () => {
    const results = model.toolResults();
    expect(results[3]?.text).not.toMatch(/blocked by PreToolUse hook/);
    for (const r of results.slice(1, 3)) expect(r.text).toMatch(/not understood|needs a person|approval/);
  });

  it("Codex alone: the sandbox blocks the .git writes and the write outside, and lets the inside write run", () => {
    expect(alone).toEqual({ inside: true, tag: false, ref: false, outside: false });
  });

  it("Airlock's allow did not widen the sandbox: .git and the parent folder stay unwritable", () => {
    expect(effects(base)).toEqual(alone);
    expect(existsSync(join(ws, ".git/refs/tags/v1"))).toBe(false);
    expect(existsSync(join(ws, ".git/refs/heads/evil"))).toBe(false);
    expect(existsSync(join(base, "outside.txt"))).toBe(false);
  });
});
