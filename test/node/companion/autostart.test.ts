// The first hook that finds no daemon decides its call itself (correctly, failing closed) and starts a daemon for the
// calls after it; that on-demand daemon goes when its socket file is removed or it has been idle.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock, type Sandbox, sandbox, until } from "./support/sandbox.ts";

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

let box: Sandbox | undefined;
afterEach(() => {
  // Removing the socket is what makes an on-demand daemon exit (asserted below); then the files go.
  if (box) rmSync(box.socket, { force: true });
  box?.cleanup();
  box = undefined;
});

const POLICY =
  'default_action: ask\nrules:\n  - name: reads\n    condition: tool == "read"\n    action: allow\n';

function hookInput(b: Sandbox, tool_name: string, tool_input: Record<string, unknown>, id: string): string {
  return JSON.stringify({
    session_id: "s",
    cwd: b.project,
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
    tool_use_id: id,
  });
}

async function daemonPid(b: Sandbox): Promise<number | undefined> {
  const r = await runAirlock(["status", "--json"], b.env);
  return r.code === 0 ? (JSON.parse(r.stdout) as { pid: number }).pid : undefined;
}

/** Polls an async check: the daemon is another process, with no event of its own to await. */
async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a daemon started on demand", { timeout: 60_000 }, () => {
  it("the first hook decides without one and starts it; the next hook is answered by it", async () => {
    box = sandbox({ AIRLOCK_AUTOSTART: "1", AIRLOCK_DAEMON_IDLE_MS: "60000" });
    const b = box;
    b.writePolicy(POLICY);
    expect(existsSync(b.socket)).toBe(false);
    const first = await runAirlock(
      ["hook", "claude-code"],
      b.env,
      hookInput(b, "Read", { file_path: join(b.project, "a") }, "t1"),
    );
    expect(first).toMatchObject({ code: 0, stdout: "" }); // a policy allow: no opinion, Claude Code checks
    // Fail closed on the first call too: an ask with no pairing is a deny.
    const ask = await runAirlock(
      ["hook", "claude-code"],
      b.env,
      hookInput(b, "Bash", { command: "make x" }, "t2"),
    );
    expect(JSON.parse(ask.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(
        /needs a person's approval, but this machine is not paired/,
      ),
    });
    await until(() => existsSync(b.socket), 15_000, "the on-demand daemon's socket");
    const pid = await eventually(() => daemonPid(b), "the daemon to answer status");
    const before = JSON.parse((await runAirlock(["status", "--json"], b.env)).stdout).decisions as number;
    const next = await runAirlock(
      ["hook", "claude-code"],
      b.env,
      hookInput(b, "Read", { file_path: join(b.project, "b") }, "t3"),
    );
    expect(next).toMatchObject({ code: 0, stdout: "" }); // a policy allow: no opinion, Claude Code checks
    const after = JSON.parse((await runAirlock(["status", "--json"], b.env)).stdout) as {
      decisions: number;
      pid: number;
    };
    expect(after.pid).toBe(pid);
    expect(after.decisions).toBe(before + 1);
    expect(existsSync(join(b.airlockHome, "daemon.log"))).toBe(true);
    // Its socket removed (the test's cleanup, or the OS clearing XDG_RUNTIME_DIR at logout): it exits.
    rmSync(b.socket, { force: true });
    await until(() => !alive(after.pid), 20_000, "the on-demand daemon to exit");
  });

  it("exits by itself once idle", async () => {
    // Idle long enough that the first `airlock status` (a node start, seconds on a loaded machine) sees the daemon
    // before it goes: at 1.5 s a run at load 12 found it already gone and never saw it start.
    box = sandbox({ AIRLOCK_AUTOSTART: "1", AIRLOCK_DAEMON_IDLE_MS: "6000" });
    const b = box;
    b.writePolicy(POLICY);
    await runAirlock(
      ["hook", "claude-code"],
      b.env,
      hookInput(b, "Read", { file_path: join(b.project, "a") }, "t1"),
    );
    const pid = await eventually(() => daemonPid(b), "the daemon to start");
    await until(() => !alive(pid), 30_000, "the idle daemon to exit");
  });

  it("AIRLOCK_AUTOSTART=0 keeps hooks from starting one", async () => {
    box = sandbox({ AIRLOCK_AUTOSTART: "0" });
    const b = box;
    b.writePolicy(POLICY);
    const r = await runAirlock(
      ["hook", "claude-code"],
      b.env,
      hookInput(b, "Read", { file_path: join(b.project, "a") }, "t1"),
    );
    expect(r).toMatchObject({ code: 0, stdout: "" }); // a policy allow: no opinion, Claude Code checks
    expect(existsSync(b.socket)).toBe(false);
    expect(existsSync(join(b.airlockHome, "daemon.log"))).toBe(false);
  });
});
