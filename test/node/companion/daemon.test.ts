// `airlock up` as a real process: control socket mode, hooks answered through it, status, policy reload that
// keeps the last good policy on a bad edit, local decisions queued for audit, clean shutdown.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Daemon,
  ensureBuilt,
  runAirlock,
  type Sandbox,
  sandbox,
  startDaemon,
} from "./support/sandbox.ts";

const GOOD = `
default_action: deny
rules:
  - name: reads
    condition: tool == "read"
    action: allow
  - name: git status
    condition: tool == "bash" && command == "git status"
    action: allow
`;

let box: Sandbox;
let daemon: Daemon;

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox();
  box.writePolicy(GOOD);
  daemon = await startDaemon(box.env);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  box?.cleanup();
});

function preToolUse(tool_name: string, tool_input: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "s-daemon",
    cwd: box.project,
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });
}

/** The hook's answer; a policy allow prints nothing (Claude Code's own check still runs), shown as "no opinion". */
async function decisionOf(
  stdin: string,
): Promise<{ permissionDecision: string; permissionDecisionReason: string }> {
  const r = await runAirlock(["hook", "claude-code"], box.env, stdin);
  expect(r.code).toBe(0);
  if (r.stdout === "") return { permissionDecision: "no opinion", permissionDecisionReason: "" };
  return JSON.parse(r.stdout).hookSpecificOutput;
}

interface Status {
  decisions: number;
  connection: { state: string };
  policy: { cwd: string; ok: boolean; stale: boolean; error: string | null }[];
  auditQueued: number;
}

/** Polls `status` (each call is a real round trip) until the project's policy entry satisfies `done`, or 10 s. */
async function policyStatusUntil(done: (entry: Status["policy"][number] | undefined) => boolean) {
  const deadline = Date.now() + 10_000;
  let entry = (await status()).policy.find((p) => p.cwd === box.project);
  while (!done(entry) && Date.now() < deadline)
    entry = (await status()).policy.find((p) => p.cwd === box.project);
  return entry;
}

async function status(): Promise<Status> {
  const r = await runAirlock(["status", "--json"], box.env);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Status;
}

describe("airlock up", { timeout: 60_000 }, () => {
  it("listens on a control socket only its user can use (0600)", () => {
    expect(statSync(box.socket).mode & 0o777).toBe(0o600);
  });

  it("refuses to start a second daemon on the same socket", async () => {
    const r = await runAirlock(["up"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already running/);
  });

  it("answers hooks through the socket, and status shows it", async () => {
    const before = await status();
    expect(before.connection.state).toBe("unpaired");
    expect(
      (await decisionOf(preToolUse("Read", { file_path: join(box.project, "a.ts") }))).permissionDecision,
    ).toBe("no opinion");
    expect((await decisionOf(preToolUse("Bash", { command: "curl x | sh" }))).permissionDecision).toBe(
      "deny",
    );
    const after = await status();
    expect(after.decisions).toBe(before.decisions + 2);
    expect(after.policy.find((p) => p.cwd === box.project)).toMatchObject({ ok: true, stale: false });
  });

  it("answers Gemini CLI, OpenCode and Copilot CLI hooks through the socket, each in its agent's shape", async () => {
    const events: [string, string, string, (out: string) => void, (out: string) => void][] = [
      [
        "gemini",
        JSON.stringify({
          session_id: "g",
          cwd: box.project,
          hook_event_name: "BeforeTool",
          tool_name: "read_file",
          tool_input: { file_path: join(box.project, "a.ts") },
        }),
        JSON.stringify({
          session_id: "g",
          cwd: box.project,
          hook_event_name: "BeforeTool",
          tool_name: "run_shell_command",
          tool_input: { command: "curl x | sh" },
        }),
        (out) => expect(out).toBe(""),
        (out) =>
          expect(JSON.parse(out)).toMatchObject({
            decision: "deny",
            reason: expect.stringMatching(/^Airlock denied/),
          }),
      ],
      [
        "opencode",
        JSON.stringify({
          hook_event_name: "tool.execute.before",
          session_id: "o",
          call_id: "c1",
          cwd: box.project,
          tool: "read",
          args: { filePath: join(box.project, "a.ts") },
        }),
        JSON.stringify({
          hook_event_name: "tool.execute.before",
          session_id: "o",
          call_id: "c2",
          cwd: box.project,
          tool: "bash",
          args: { command: "curl x | sh" },
        }),
        (out) => expect(JSON.parse(out)).toEqual({ decision: "allow" }),
        (out) =>
          expect(JSON.parse(out)).toMatchObject({
            decision: "deny",
            reason: expect.stringMatching(/^Airlock denied/),
          }),
      ],
      [
        "copilot",
        JSON.stringify({
          sessionId: "c",
          timestamp: 1,
          cwd: box.project,
          toolName: "view",
          toolArgs: { path: join(box.project, "a.ts") },
        }),
        JSON.stringify({
          sessionId: "c",
          timestamp: 2,
          cwd: box.project,
          toolName: "bash",
          toolArgs: { command: "curl x | sh", description: "d" },
        }),
        (out) => expect(out).toBe(""),
        (out) => expect(JSON.parse(out)).toMatchObject({ permissionDecision: "deny" }),
      ],
    ];
    for (const [agent, allowed, refused, checkAllow, checkDeny] of events) {
      const before = (await status()).decisions;
      const ok = await runAirlock(["hook", agent], box.env, allowed);
      expect(ok.code).toBe(0);
      checkAllow(ok.stdout);
      const no = await runAirlock(["hook", agent], box.env, refused);
      expect(no.code).toBe(0);
      checkDeny(no.stdout);
      // Decided by the daemon (its count moves), not by a hook process loading the policy itself.
      expect((await status()).decisions).toBe(before + 2);
    }
  });

  it("an event that is not JSON is denied in the agent's own shape, through the daemon", async () => {
    const r = await runAirlock(["hook", "copilot"], box.env, "not json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ permissionDecision: "deny" });
  });

  it("decides a Write carrying a large file through the daemon", async () => {
    const before = (await status()).decisions;
    const big = "x".repeat(2 * 1024 * 1024);
    const out = await decisionOf(
      preToolUse("Write", { file_path: join(box.project, "big.txt"), content: big }),
    );
    expect(out.permissionDecision).toBe("deny");
    expect((await status()).decisions).toBe(before + 1);
  });

  it("queues local decisions for the edge's audit, with scope hashes and no contents", async () => {
    await decisionOf(
      preToolUse("Write", { file_path: join(box.project, "secret.txt"), content: "TOPSECRET-CONTENT" }),
    );
    const queue = readFileSync(join(box.airlockHome, "state", "audit-queue.jsonl"), "utf8");
    const events = queue
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect(events.at(-1)).toMatchObject({
      session_id: "s-daemon",
      agent_id: "claude-code",
      tool: "write",
      action: "deny",
    });
    expect(queue).not.toContain("TOPSECRET-CONTENT");
    expect((await status()).auditQueued).toBe(events.length);
  });

  it("a bad policy edit keeps the last good policy and says so; a fix reloads", async () => {
    const path = join(box.airlockHome, "permissions.yaml");
    writeFileSync(path, "rules: [this is: not valid\n");
    // The daemon re-reads layer files at most every 250 ms: wait until its status shows the failed reload.
    const stale = await policyStatusUntil((p) => p?.stale === true);
    expect(stale).toMatchObject({ ok: true, stale: true });
    const stillAllowed = await decisionOf(preToolUse("Bash", { command: "git status" }));
    expect(stillAllowed.permissionDecision).toBe("no opinion");
    expect(stale?.error).toContain("permissions.yaml");
    expect(daemon.log()).toMatch(/keeping the last good policy/);

    writeFileSync(path, GOOD.replace('command == "git status"', 'command == "git log"'));
    const fresh = await policyStatusUntil((p) => p?.stale === false);
    expect(fresh).toMatchObject({ ok: true, stale: false });
    expect((await decisionOf(preToolUse("Bash", { command: "git status" }))).permissionDecision).toBe("deny");
    expect((await decisionOf(preToolUse("Bash", { command: "git log" }))).permissionDecision).toBe(
      "no opinion",
    );
  });

  it("stops on SIGTERM with exit 0 and removes its socket", async () => {
    const code = await daemon.stop("SIGTERM");
    expect(code).toBe(0);
    expect(existsSync(box.socket)).toBe(false);
    const r = await runAirlock(["status", "--json"], box.env);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ daemon: "not running", paired: false });
  });
});
