// The daemon's one transport when the edge goes away: a restart is ridden out (waiting calls are resubmitted on the
// next welcome and answered), and an edge that stays away is reported at once to every waiting call with the real
// reason, not after the prompt timeout as "no one answered in time".

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonOnHub, LoopbackHub } from "./support/loopback-hub.ts";
import { type Daemon, runAirlock, type Sandbox } from "./support/sandbox.ts";

let box: Sandbox;
let daemon: Daemon;
const hub = new LoopbackHub();

beforeAll(async () => {
  ({ box, daemon } = await daemonOnHub(hub, "alk_t.s", {
    AIRLOCK_PROMPT_TIMEOUT_MS: "30000",
    AIRLOCK_EDGE_GRACE_MS: "1500",
  }));
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await hub.stop();
  box?.cleanup();
});

function ask(id: string): Promise<{ stdout: string }> {
  const stdin = JSON.stringify({
    session_id: "s",
    cwd: box.project,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "make deploy" },
    tool_use_id: id,
  });
  return runAirlock(["hook", "claude-code"], box.env, stdin);
}

const outputOf = (r: { stdout: string }) => JSON.parse(r.stdout).hookSpecificOutput;

describe("the daemon when the edge goes away", { timeout: 60_000 }, () => {
  it("rides out an edge restart: the waiting call is resubmitted on reconnect and the phone's answer arrives", async () => {
    const hook = ask("toolu_restart");
    await hub.next(() => hub.requestedCalls().includes("cc:toolu_restart"));
    const port = hub.port;
    const hellos = hub.hellos.length;
    await hub.stop();
    await hub.start(port);
    await hub.next(() => hub.hellos.length > hellos);
    // The same call, sent again on the new socket (the edge answers a known call id with its prompt).
    await hub.next(() => hub.requestedCalls().filter((c) => c === "cc:toolu_restart").length >= 2);
    hub.decide("cc:toolu_restart", "allow");
    expect(outputOf(await hook)).toMatchObject({
      permissionDecision: "allow",
      permissionDecisionReason: "allow on the phone",
    });
  });

  it("an edge that stays away denies the waiting call with the real reason well before the prompt timeout", async () => {
    const started = Date.now();
    const hook = ask("toolu_gone");
    await hub.next(() => hub.requestedCalls().includes("cc:toolu_gone"));
    await hub.stop();
    const out = outputOf(await hook);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(
      new RegExp(
        `needs a person's approval, but the Airlock edge at http://127\\.0\\.0\\.1:${hub.port} could not be reached`,
      ),
    );
    expect(out.permissionDecisionReason).not.toMatch(/no one answered/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("while the edge is away, a new call that needs a person is denied at once; local decisions go on", async () => {
    const started = Date.now();
    const out = outputOf(await ask("toolu_while_gone"));
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/could not be reached/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const read = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      JSON.stringify({
        session_id: "s",
        cwd: box.project,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(box.project, "a.ts") },
        tool_use_id: "toolu_read_gone",
      }),
    );
    // A policy allow says nothing: Claude Code's own permission check still runs (never weaker than the agent alone).
    expect(read).toMatchObject({ code: 0, stdout: "" });
  });

  it("when the edge is back, calls reach the phone again", async () => {
    const hellos = hub.hellos.length;
    await hub.start(hub.port);
    await hub.next(() => hub.hellos.length > hellos, 30_000);
    const hook = ask("toolu_back");
    await hub.next(() => hub.requestedCalls().includes("cc:toolu_back"));
    hub.decide("cc:toolu_back", "deny");
    expect(outputOf(await hook)).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "deny on the phone",
    });
  });
});
