// The real Pi coding agent (0.87.1, print mode) with the Airlock extension loaded, driven by a scripted
// local model: policy lets `echo` run and blocks `rm` before it runs, and the model sees why.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_YES_RM_NO, NODE, ROOT, type SealedHome, sealedHome } from "../support/airlock-env.ts";
import { buildNode } from "../support/build.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";

const PI_CLI = join(ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");
const EXTENSION = join(ROOT, "dist/companion/adapters/pi/extension.js");

let base: string;
let ws: string;
let agentDir: string;
let sealed: SealedHome;
let model: ModelServer;
let run: { code: number | null; stdout: string; stderr: string };

function runPi(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [PI_CLI, ...args], { cwd: ws, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const PI_ARGS = ["--no-session", "--provider", "scripted", "--model", "scripted-model", "-e", EXTENSION];

/** A Pi agent directory whose models.json points a custom provider at the scripted server. */
function writeAgentDir(name: string, modelUrl: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "models.json"),
    JSON.stringify({
      providers: {
        scripted: {
          baseUrl: `${modelUrl}/v1`,
          api: "openai-completions",
          apiKey: "dummy-key",
          models: [{ id: "scripted-model" }],
        },
      },
    }),
  );
  return dir;
}

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
  buildNode();
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

describe("Pi with a dialog (RPC mode): the local confirm decides when no phone is paired", () => {
  const ASK_TOUCH = `${ECHO_YES_RM_NO}  - name: Ask before touch
    condition: tool == "bash" && command.startsWith("touch")
    action: ask
`;
  let askModel: ModelServer;
  let askHome: SealedHome;
  const dialogs: { title: string; message: string; answer: boolean }[] = [];

  beforeAll(async () => {
    askHome = sealedHome(ASK_TOUCH);
    askModel = await startModelServer([
      { toolCalls: [{ name: "bash", input: { command: "touch yes.txt" } }] },
      { toolCalls: [{ name: "bash", input: { command: "touch no.txt" } }] },
    ]);
    const dir = writeAgentDir("pi-agent-rpc", askModel.url);
    const child = spawn(NODE, [PI_CLI, "--mode", "rpc", ...PI_ARGS], {
      cwd: ws,
      env: { ...piEnv(dir), AIRLOCK_HOME: askHome.airlockHome, HOME: askHome.home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const settled = new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`pi exited early (${code})`)));
      createInterface({ input: child.stdout }).on("line", (line) => {
        const event = JSON.parse(line) as {
          type?: string;
          id?: string;
          method?: string;
          title?: string;
          message?: string;
        };
        if (event.type === "extension_ui_request" && event.method === "confirm") {
          // The person at the terminal allows the first touch and refuses the second.
          const answer = (event.message ?? "").includes("yes.txt");
          dialogs.push({ title: event.title ?? "", message: event.message ?? "", answer });
          send({ type: "extension_ui_response", id: event.id, confirmed: answer });
        }
        if (event.type === "agent_settled") resolve();
      });
    });
    send({ id: "p1", type: "prompt", message: "Touch yes.txt and no.txt." });
    await settled;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    child.kill("SIGTERM");
    await exited;
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
