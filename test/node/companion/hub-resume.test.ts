// The daemon's hub link against a loopback hub: a dropped socket reconnects and resumes the call in flight
// (hello.resume), the decision that arrives after the reconnect reaches the waiting hook, emergency pushes apply
// at once, and a 4001 close marks the device revoked.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonOnHub, EMERGENCY, LoopbackHub } from "./support/loopback-hub.ts";
import { type Daemon, runAirlock, type Sandbox } from "./support/sandbox.ts";

let box: Sandbox;
let daemon: Daemon;
const hub = new LoopbackHub("prompt-1");

beforeAll(async () => {
  ({ box, daemon } = await daemonOnHub(hub, "alk_test.secret", { AIRLOCK_PROMPT_TIMEOUT_MS: "30000" }));
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await hub.stop();
  box?.cleanup();
});

async function status(): Promise<{
  connection: { state: string };
  emergency: typeof EMERGENCY;
  pending: { callId: string; promptId?: string }[];
}> {
  return JSON.parse((await runAirlock(["status", "--json"], box.env)).stdout);
}

describe("daemon ↔ hub", { timeout: 60_000 }, () => {
  it("a dropped socket reconnects, resumes the waiting call, and the late decision reaches the hook", async () => {
    const stdin = JSON.stringify({
      session_id: "s",
      cwd: box.project,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "make deploy" },
      tool_use_id: "toolu_resume",
    });
    const hook = runAirlock(["hook", "claude-code"], box.env, stdin);
    await hub.next(() => hub.requests.some((r) => r.request.call_id === "cc:toolu_resume"));
    const helloCount = hub.hellos.length;
    hub.current?.terminate();
    await hub.next(() => hub.hellos.length > helloCount);
    expect(hub.hellos.at(-1)?.resume).toContain("cc:toolu_resume");
    expect(new Set(hub.authorizations)).toEqual(new Set(["Bearer alk_test.secret"]));
    const pending = await status();
    expect(pending.pending).toEqual([
      expect.objectContaining({ callId: "cc:toolu_resume", promptId: "prompt-1" }),
    ]);
    hub.current?.send(
      JSON.stringify({
        type: "capability_decision",
        data: {
          call_id: "cc:toolu_resume",
          decision: "allow",
          reason: "approved on the phone",
          source: "user",
          prompt_id: "prompt-1",
        },
      }),
    );
    const r = await hook;
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "allow",
      permissionDecisionReason: "approved on the phone",
    });
    expect((await status()).pending).toEqual([]);
  });

  it("never writes file contents to the journal or sends them to the hub", async () => {
    const stdin = JSON.stringify({
      session_id: "s",
      cwd: box.project,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(box.project, ".env"), content: "API_KEY=TOPSECRET-JOURNAL" },
      tool_use_id: "toolu_secret",
    });
    const hook = runAirlock(["hook", "claude-code"], box.env, stdin);
    await hub.next(() => hub.requests.some((r) => r.request.call_id === "cc:toolu_secret"));
    const calls = join(box.airlockHome, "state", "calls");
    // Only the committed entries: a `.tmp` is a write in flight that the daemon renames as we list.
    const journal = readdirSync(calls)
      .filter((f) => !f.endsWith(".tmp"))
      .map((f) => readFileSync(join(calls, f), "utf8"));
    expect(journal.join("\n")).toContain("cc:toolu_secret");
    expect(journal.join("\n")).not.toContain("TOPSECRET-JOURNAL");
    expect(JSON.stringify(hub.requests)).not.toContain("TOPSECRET-JOURNAL");
    hub.current?.send(
      JSON.stringify({
        type: "capability_decision",
        data: { call_id: "cc:toolu_secret", decision: "deny", reason: "denied on the phone", source: "user" },
      }),
    );
    expect(JSON.parse((await hook).stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("applies an emergency push to the next decision", async () => {
    hub.current?.send(JSON.stringify({ type: "emergency_updated", data: { ...EMERGENCY, readOnly: true } }));
    const input = (tool_name: string, tool_input: Record<string, unknown>) =>
      JSON.stringify({
        session_id: "s",
        cwd: box.project,
        hook_event_name: "PreToolUse",
        tool_name,
        tool_input,
        tool_use_id: `t${Math.random()}`,
      });
    // Status is answered by the same daemon, after the push was processed: the push is applied in order.
    expect((await status()).emergency.readOnly).toBe(true);
    const write = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      input("Write", { file_path: join(box.project, "x"), content: "" }),
    );
    expect(JSON.parse(write.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(/read-only/),
    });
    const read = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      input("Read", { file_path: join(box.project, "x") }),
    );
    // A policy allow says nothing: Claude Code's own permission check still runs (never weaker than the agent alone).
    expect(read).toMatchObject({ code: 0, stdout: "" });
  });

  it("a 4001 close marks the device revoked and stops reconnecting", async () => {
    const helloCount = hub.hellos.length;
    hub.current?.close(4001, "device revoked");
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no revoked log")), 20_000);
      const check = () => {
        if (daemon.log().includes("edge revoked")) {
          clearTimeout(timer);
          resolve();
        }
      };
      daemon.child.stderr?.on("data", check);
      check();
    });
    expect((await status()).connection.state).toBe("revoked");
    expect(hub.hellos.length).toBe(helloCount);
  });
});
