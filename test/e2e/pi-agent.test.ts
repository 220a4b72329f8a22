// The real Pi coding agent (0.87.1, print mode) with the Airlock extension loaded, driven by a scripted
// local model: policy lets `echo` run and blocks `rm` before it runs, and the model sees why.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CapabilityPrompt, ResolvedPrompt } from "../../src/protocol/prompts.ts";
import {
  AIRLOCK_BIN,
  ECHO_YES_RM_NO,
  NODE,
  ROOT,
  type SealedHome,
  sealedHome,
} from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { startDaemonSocket } from "../support/daemon-socket.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { PhoneDashboard } from "../support/phone-dashboard.ts";
import { piAgentDir } from "../support/pi-agent-dir.ts";
import { PI_CLI, runPiRpc } from "../support/pi-rpc.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { type Edge, startEdge } from "./support/edge.ts";

const EXTENSION = join(ROOT, "dist/companion/adapters/pi/extension.js");

let base: string;
let ws: string;
let agentDir: string;
let sealed: SealedHome;
let model: ModelServer;
let run: ProcessRun;

function runPi(env: NodeJS.ProcessEnv, args: string[]): Promise<ProcessRun> {
  return runToEnd(NODE, [PI_CLI, ...args], ws, env);
}

const PI_ARGS = ["--no-session", "--provider", "scripted", "--model", "scripted-model", "-e", EXTENSION];

const writeAgentDir = (name: string, modelUrl: string): string => piAgentDir(base, name, modelUrl);

function piEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...sealed.env,
    PI_CODING_AGENT_DIR: dir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
  };
}

beforeAll(async () => {
  await ensureBuilt();
  base = mkdtempSync(join(tmpdir(), "airlock-pi-"));
  ws = join(base, "ws");
  mkdirSync(join(ws, "important"), { recursive: true });
  writeFileSync(join(ws, "important/keep.txt"), "do not delete\n");
  sealed = sealedHome(ECHO_YES_RM_NO);
  model = await startModelServer([
    { toolCalls: [{ name: "bash", input: { command: "echo hi > allowed.txt" } }] },
    { toolCalls: [{ name: "bash", input: { command: "rm -rf important" } }] },
  ]);
  agentDir = writeAgentDir("pi-agent", model.url);
  run = await runPi(piEnv(agentDir), [
    "--print",
    ...PI_ARGS,
    "Create allowed.txt, then delete the important folder.",
  ]);
}, 120_000);

afterAll(async () => {
  await model?.close();
  sealed?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("Pi with the Airlock extension", () => {
  it("finishes the run", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("All done.");
  });

  it("ran the allowed command and never ran the denied one", () => {
    expect(readFileSync(join(ws, "allowed.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
  });

  it("sent the model a blocked tool result carrying the policy's reason", () => {
    const results = model.toolResults();
    expect(results).toHaveLength(2);
    const [allowed, denied] = results;
    expect(allowed?.toolCallId).toBe("call_0_0");
    expect(allowed?.text).not.toMatch(/Airlock denied/);
    expect(denied?.toolCallId).toBe("call_1_0");
    expect(denied?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });

  it("put the policy's boundary note into the system prompt", () => {
    const first = model.agentTurns()[0]?.body as { messages: { role: string; content: unknown }[] };
    const system = first.messages.find((m) => m.role === "system" || m.role === "developer");
    expect(JSON.stringify(system?.content)).toMatch(
      /Airlock checks every tool call\. .*shell commands are checked one by one/,
    );
  });
});

const ASK_TOUCH = `${ECHO_YES_RM_NO}  - name: Ask before touch
    condition: tool == "bash" && command.startsWith("touch")
    action: ask
`;

describe("Pi with a dialog (RPC mode): the local confirm decides when no phone is paired", () => {
  let askModel: ModelServer;
  let askHome: SealedHome;
  const dialogs: { title: string; message: string; answer: boolean }[] = [];

  beforeAll(async () => {
    askHome = sealedHome(ASK_TOUCH);
    askModel = await startModelServer([
      { toolCalls: [{ name: "bash", input: { command: "touch yes.txt" } }] },
      { toolCalls: [{ name: "bash", input: { command: "touch no.txt" } }] },
    ]);
    const run = await runPiRpc({
      cwd: ws,
      env: {
        ...piEnv(writeAgentDir("pi-agent-rpc", askModel.url)),
        AIRLOCK_HOME: askHome.airlockHome,
        HOME: askHome.home,
      },
      args: PI_ARGS,
      prompt: "Touch yes.txt and no.txt.",
      // The person at the terminal allows the first touch and refuses the second.
      onConfirm: (request) => request.message.includes("yes.txt"),
    });
    dialogs.push(...run.dialogs.map((d) => ({ ...d, answer: d.message.includes("yes.txt") })));
  }, 120_000);

  afterAll(async () => {
    await askModel?.close();
    askHome?.cleanup();
  });

  it("showed Pi's own confirm dialog for each ask, naming the command", () => {
    expect(dialogs.map((d) => d.answer)).toEqual([true, false]);
    expect(dialogs[0]?.title).toBe("Airlock: allow this tool call?");
    expect(dialogs[0]?.message).toMatch(/^bash: touch yes\.txt/);
    expect(dialogs[1]?.message).toMatch(/^bash: touch no\.txt/);
  });

  it("ran the confirmed call and blocked the refused one with the person's answer as the reason", () => {
    expect(existsSync(join(ws, "yes.txt"))).toBe(true);
    expect(existsSync(join(ws, "no.txt"))).toBe(false);
    const [allowed, refused] = askModel.toolResults();
    expect(allowed?.text).not.toMatch(/Denied/);
    expect(refused?.text).toMatch(/Denied in Pi by the user/);
  });
});

describe("Pi with a dialog and a paired phone: both ask at once, the first answer wins", () => {
  let edge: Edge;
  let phoneModel: ModelServer;
  let phoneHome: SealedHome;
  let phone: PhoneDashboard;
  let companionDevice = "";
  const dialogs: string[] = [];
  let phonePrompt: CapabilityPrompt | undefined;
  let localResolution: ResolvedPrompt | undefined;

  beforeAll(async () => {
    edge = await startEdge();
    phoneHome = sealedHome(ASK_TOUCH);
    // The companion side is paired the way a user does it: `airlock pair <code> --server <edge>`.
    const paired = spawnSync(
      NODE,
      [AIRLOCK_BIN, "pair", await edge.newCode(), "--server", edge.base, "--json"],
      {
        env: phoneHome.env,
        encoding: "utf8",
      },
    );
    expect(paired.status, paired.stderr).toBe(0);
    companionDevice = (JSON.parse(paired.stdout) as { device_id: string }).device_id;
    const browser = await edge.pairDevice("browser", "phone");
    phone = await PhoneDashboard.connect(edge.base, browser.token);
    phoneModel = await startModelServer([
      { toolCalls: [{ name: "bash", input: { command: "touch phone.txt" } }] },
      { toolCalls: [{ name: "bash", input: { command: "touch local.txt" } }] },
    ]);

    // The phone approves the first call; nobody touches the phone for the second.
    const phoneApproved = phone.prompt("phone.txt").then(async (prompt) => {
      phonePrompt = prompt;
      await phone.approveOnce(prompt.promptId);
    });
    await runPiRpc({
      cwd: ws,
      env: {
        ...piEnv(writeAgentDir("pi-agent-phone", phoneModel.url)),
        AIRLOCK_HOME: phoneHome.airlockHome,
        HOME: phoneHome.home,
      },
      args: PI_ARGS,
      prompt: "Touch phone.txt, then local.txt.",
      // The terminal leaves the first dialog open (only the phone can answer it) and allows the second.
      onConfirm: (request) => {
        dialogs.push(request.message);
        return request.message.includes("local.txt") ? true : undefined;
      },
    });
    await phoneApproved;
    localResolution = await phone.resolved("local.txt");
  }, 120_000);

  afterAll(async () => {
    phone?.close();
    await phoneModel?.close();
    phoneHome?.cleanup();
    await edge?.stop();
  });

  it("showed each prompt in Pi and on the phone at the same time", () => {
    expect(dialogs).toHaveLength(2);
    expect(dialogs[0]).toMatch(/touch phone\.txt/);
    expect(JSON.stringify(phonePrompt)).toMatch(/touch phone\.txt/);
  });

  it("ran the first call on the phone's allow, without an answer from the terminal", () => {
    expect(existsSync(join(ws, "phone.txt"))).toBe(true);
    const [first] = phoneModel.toolResults();
    expect(first?.text).not.toMatch(/denied/i);
  });

  it("ran the second call on the terminal's allow, but the companion could not answer the phone prompt", () => {
    expect(existsSync(join(ws, "local.txt"))).toBe(true);
    // Only an approver answers prompts: the companion's relay of the local answer is refused (403), so the
    // phone prompt is never allowed by the companion device (it times out unless the phone answers).
    expect(localResolution?.decidedBy.deviceId).not.toBe(companionDevice);
    expect(localResolution?.resolution).not.toMatch(/^allow/);
  });
});

describe("Pi with the daemon running: the user's prompt is forwarded for warming, the session ended on quit", () => {
  it("sends the typed prompt with Pi's session id and cwd, then ends that session", async () => {
    const home = sealedHome(ECHO_YES_RM_NO);
    const daemon = await startDaemonSocket(join(home.dir, "daemon.sock"));
    const quietModel = await startModelServer([{ text: "Nothing to do." }]);
    try {
      const env: NodeJS.ProcessEnv = {
        ...piEnv(writeAgentDir("pi-agent-daemon", quietModel.url)),
        AIRLOCK_HOME: home.airlockHome,
      };
      env.HOME = home.home;
      env.AIRLOCK_SOCKET = daemon.path;
      delete env.AIRLOCK_NO_DAEMON;
      const result = await runPi(env, [
        "--print",
        ...PI_ARGS,
        "Please look at the failing test in src/app.test.ts",
      ]);
      expect(result.code, result.stderr).toBe(0);
      const forwarded = await daemon.next((r) => r.type === "prompt_text");
      expect(forwarded).toMatchObject({
        type: "prompt_text",
        text: "Please look at the failing test in src/app.test.ts",
        cwd: ws,
      });
      const ended = await daemon.next((r) => r.type === "session_end");
      if (forwarded.type !== "prompt_text" || ended.type !== "session_end")
        throw new Error("unexpected requests");
      expect(forwarded.session_id).not.toBe("");
      expect(ended.session_id).toBe(forwarded.session_id);
      // The model called no tool, so nothing asked the daemon for a decision.
      expect(daemon.received.filter((r) => r.type === "decide")).toEqual([]);
    } finally {
      await daemon.close();
      await quietModel.close();
      home.cleanup();
    }
  });
});
