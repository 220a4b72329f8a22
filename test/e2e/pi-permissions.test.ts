// pi.hitl's `/permissions off|on` in the real Pi (RPC mode, a saved session, the scripted local model):
// off is stored in the session, so it follows a /reload and a fork, and on brings the dialogs back; an
// account-wide `sessions.allow_ungated: false` refuses it.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_YES_RM_NO, ROOT, type SealedHome, sealedHome } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { piAgentDir } from "../support/pi-agent-dir.ts";
import { PiRpcSession } from "../support/pi-rpc-session.ts";

const EXTENSION = join(ROOT, "dist/companion/adapters/pi/extension.js");

/** Every `touch` asks; the person at the terminal refuses every dialog. */
const ASK_TOUCH = `${ECHO_YES_RM_NO}  - name: Ask before touch
    condition: tool == "bash" && command.startsWith("touch")
    action: ask
`;

/** A test-only extension: `/test-reload` is Pi's own reload (ctx.reload), which RPC has no command for. */
const RELOADER = `export default function (pi) {
  pi.registerCommand("test-reload", { description: "reload", handler: async (_args, ctx) => { await ctx.reload(); } });
}
`;

const touch = (file: string) => ({ toolCalls: [{ name: "bash", input: { command: `touch ${file}` } }] });
const done = { text: "Done." };

let base: string;
let ws: string;
let home: SealedHome;
let model: ModelServer;
let pi: PiRpcSession;

const OFF = "Airlock: permissions off (ungated)";
const lastStatus = () => pi.statuses.filter(([key]) => key === "airlock-permissions").at(-1)?.[1];

beforeAll(async () => {
  await ensureBuilt();
  base = mkdtempSync(join(tmpdir(), "airlock-pi-perm-"));
  ws = join(base, "ws");
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(base, "reloader.js"), RELOADER);
  home = sealedHome(ASK_TOUCH);
  // The script's turn is the number of assistant messages so far: a fork before prompt 3 replays turn 4.
  model = await startModelServer([
    touch("one.txt"),
    done,
    touch("two.txt"),
    done,
    touch("three.txt"),
    done,
    touch("five.txt"),
    done,
  ]);
  pi = new PiRpcSession({
    cwd: ws,
    env: {
      ...home.env,
      PI_CODING_AGENT_DIR: piAgentDir(base, "pi-agent", model.url),
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
    },
    args: [
      "--session-dir",
      join(base, "sessions"),
      "--provider",
      "scripted",
      "--model",
      "scripted-model",
      "-e",
      EXTENSION,
      "-e",
      join(base, "reloader.js"),
    ],
    onConfirm: () => false,
  });
}, 120_000);

afterAll(async () => {
  await pi?.close();
  await model?.close();
  home?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("Pi /permissions off and on", () => {
  it("gates the session at first: the touch asks, is refused and never runs", async () => {
    await pi.prompt("Touch one.txt.");
    expect(pi.dialogs.map((d) => d.message)).toEqual([expect.stringMatching(/touch one\.txt/)]);
    expect(JSON.stringify(model.agentTurns().at(-1)?.body)).not.toMatch(/Permissions are off/);
    expect(existsSync(join(ws, "one.txt"))).toBe(false);
  }, 60_000);

  it("after /permissions off, the same kind of call runs without a dialog", async () => {
    await pi.slash("/permissions off");
    expect(lastStatus()).toBe(OFF);
    await pi.prompt("Touch two.txt.");
    expect(pi.dialogs).toHaveLength(1);
    expect(existsSync(join(ws, "two.txt")), pi.stderr).toBe(true);
    // The model is told the local rules are off rather than shown them.
    expect(JSON.stringify(model.agentTurns().at(-1)?.body)).toMatch(/Permissions are off for this session/);
  }, 60_000);

  it("stays off across /reload (a new extension runtime reads it back from the session)", async () => {
    const before = pi.statuses.length;
    await pi.slash("/test-reload");
    // The reloaded runtime announced the state it restored.
    expect(pi.statuses.slice(before).at(-1)).toEqual(["airlock-permissions", OFF]);
    await pi.prompt("Touch three.txt.");
    expect(pi.dialogs).toHaveLength(1);
    expect(existsSync(join(ws, "three.txt"))).toBe(true);
  }, 60_000);

  it("stays off in a fork of the session", async () => {
    const { messages } = (await pi.command({ type: "get_fork_messages" })) as {
      messages: { entryId: string; text: string }[];
    };
    const third = messages.find((m) => m.text.includes("three.txt"));
    expect(third).toBeDefined();
    rmSync(join(ws, "three.txt"));
    const before = pi.statuses.length;
    // The fork keeps everything before the third prompt: the `/permissions off` entry included.
    const forked = (await pi.command({ type: "fork", entryId: third?.entryId })) as { cancelled: boolean };
    expect(forked.cancelled).toBe(false);
    expect(pi.statuses.slice(before).at(-1)).toEqual(["airlock-permissions", OFF]);
    await pi.prompt("Touch three.txt again.");
    expect(pi.dialogs).toHaveLength(1);
    expect(existsSync(join(ws, "three.txt"))).toBe(true);
  }, 60_000);

  it("/permissions on brings the dialogs back", async () => {
    await pi.slash("/permissions on");
    expect(lastStatus()).toBeUndefined();
    await pi.prompt("Touch five.txt.");
    expect(pi.dialogs.map((d) => d.message).at(-1)).toMatch(/touch five\.txt/);
    expect(existsSync(join(ws, "five.txt"))).toBe(false);
  }, 60_000);
});

describe("Pi /permissions off when a policy forbids ungated sessions", () => {
  it("refuses, and the session stays gated", async () => {
    const forbidding = sealedHome(`${ASK_TOUCH}sessions:\n  allow_ungated: false\n`);
    const quiet = await startModelServer([touch("six.txt"), done]);
    const notices: string[] = [];
    const session = new PiRpcSession({
      cwd: ws,
      env: {
        ...forbidding.env,
        PI_CODING_AGENT_DIR: piAgentDir(base, "pi-agent-forbid", quiet.url),
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
      },
      args: ["--no-session", "--provider", "scripted", "--model", "scripted-model", "-e", EXTENSION],
      onConfirm: (request) => {
        notices.push(request.message);
        return false;
      },
    });
    try {
      await session.slash("/permissions off");
      expect(session.statuses.filter(([, text]) => text === OFF)).toEqual([]);
      await session.prompt("Touch six.txt.");
      expect(notices).toEqual([expect.stringMatching(/touch six\.txt/)]);
      expect(existsSync(join(ws, "six.txt"))).toBe(false);
    } finally {
      await session.close();
      await quiet.close();
      forbidding.cleanup();
    }
  }, 90_000);
});
