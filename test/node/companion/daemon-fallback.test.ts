// A daemon that refuses a request, or dies with it, is asked once: the hook (and every adapter's control client) then
// decides in its own process and never goes back to the daemon's socket, so no grace is waited out and none stacks.
// The daemons here are real processes on the real socket path that count what they are asked, then refuse or exit.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { requestDecision } from "../../../src/companion/control/client.ts";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

/** A stand-in daemon: prints each request's type, then refuses it as the real one refuses an oversized line, or dies. */
const STAND_IN = `
const { createServer } = require("node:net");
const { mkdirSync, rmSync } = require("node:fs");
const { dirname } = require("node:path");
const [path, mode] = process.argv.slice(1);
const server = createServer((socket) => {
  let buffer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    buffer += chunk;
    const nl = buffer.indexOf("\\n");
    if (nl < 0) return;
    process.stdout.write(JSON.parse(buffer.slice(0, nl)).type + "\\n");
    buffer = buffer.slice(nl + 1);
    if (mode === "die") process.exit(0);
    socket.end(JSON.stringify({ id: "", type: "error", message: "request too large" }) + "\\n");
  });
});
// A daemon that died leaves its socket file behind; the one that comes back replaces it.
mkdirSync(dirname(path), { recursive: true });
rmSync(path, { force: true });
server.listen(path, () => process.stdout.write("listening\\n"));
`;

interface StandIn {
  child: ChildProcess;
  /** The request types it was sent, in order. */
  requests(): string[];
}

async function standIn(path: string, mode: "refuse" | "die"): Promise<StandIn> {
  const child = spawn(process.execPath, ["-e", STAND_IN, path, mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout?.setEncoding("utf8");
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("listening\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the stand-in daemon exited (${code}) before listening`)));
  });
  await listening;
  running.push(child);
  // Each request is a line on the stand-in's stdout, which may reach this process after the answer did:
  // a test waits for the lines it expects (vi.waitFor).
  return { child, requests: () => out.split("\n").filter((l) => l && l !== "listening") };
}

const running: ChildProcess[] = [];
let box: Sandbox | undefined;

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
  box?.cleanup();
  box = undefined;
});

const POLICY =
  'default_action: deny\nrules:\n  - name: no-removals\n    condition: tool == "bash" && command.contains("rm ")\n    action: deny\n';

function removal(b: Sandbox, id: string): string {
  return JSON.stringify({
    session_id: "s",
    cwd: b.project,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: id,
  });
}

function denyReason(stdout: string): string {
  const out = JSON.parse(stdout) as {
    hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
  };
  expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
  return out.hookSpecificOutput.permissionDecisionReason;
}

/** Once the first stand-in dies, a second listens on the same path at once: a daemon that came straight back. */
async function replacedOnDeath(path: string, first: StandIn): Promise<Promise<StandIn>> {
  return once(first.child, "exit").then(() => standIn(path, "refuse"));
}

describe("the fast hook against a daemon that cannot answer", { timeout: 60_000 }, () => {
  it("refused: one request to the daemon, then the decision in process", async () => {
    box = sandbox();
    box.writePolicy(POLICY);
    const daemon = await standIn(box.socket, "refuse");
    const r = await runAirlock(["hook", "claude-code"], box.env, removal(box, "toolu_refused"));
    expect(r.code).toBe(0);
    expect(denyReason(r.stdout)).toContain("no-removals");
    await vi.waitFor(() => expect(daemon.requests()).toEqual(["hook"]));
  });

  it("lost mid-answer: one request, the decision in process, and the daemon that came back is not asked", async () => {
    box = sandbox();
    box.writePolicy(POLICY);
    const first = await standIn(box.socket, "die");
    const second = replacedOnDeath(box.socket, first);
    const r = await runAirlock(["hook", "claude-code"], box.env, removal(box, "toolu_lost"));
    expect(r.code).toBe(0);
    expect(denyReason(r.stdout)).toContain("no-removals");
    await vi.waitFor(() => expect(first.requests()).toEqual(["hook"]));
    expect((await second).requests()).toEqual([]);
  });
});

describe("the control client (Pi, MCP, the in-process hook) against a daemon that cannot answer", () => {
  const call = (b: Sandbox, callId: string) => ({
    callId,
    sessionId: "s",
    agent: { id: "pi", name: "Pi", source: "test" },
    tool: "bash",
    input: { command: "rm -rf build" },
    cwd: b.project,
    hasUI: false,
  });

  it("refused: one request, then decided directly", async () => {
    box = sandbox();
    box.writePolicy(POLICY);
    const daemon = await standIn(box.socket, "refuse");
    const d = await requestDecision(call(box, "c-refused"), { env: box.env });
    expect(d).toMatchObject({ decision: "deny", source: "policy", rule: "no-removals" });
    await vi.waitFor(() => expect(daemon.requests()).toEqual(["decide"]));
  });

  it("lost mid-answer: one request, decided directly, the daemon that came back is not asked", async () => {
    box = sandbox();
    box.writePolicy(POLICY);
    const first = await standIn(box.socket, "die");
    const second = replacedOnDeath(box.socket, first);
    const d = await requestDecision(call(box, "c-lost"), { env: box.env });
    expect(d).toMatchObject({ decision: "deny", source: "policy", rule: "no-removals" });
    await vi.waitFor(() => expect(first.requests()).toEqual(["decide"]));
    expect((await second).requests()).toEqual([]);
  });
});
