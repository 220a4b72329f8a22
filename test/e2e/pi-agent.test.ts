// The real Pi coding agent (0.87.1, print mode) with the Airlock extension loaded, driven by a scripted
// local model: policy lets `echo` run and blocks `rm` before it runs, and the model sees why.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_YES_RM_NO, NODE, ROOT, type SealedHome, sealedHome } from "../support/airlock-env.ts";
import { buildNode } from "../support/build.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";

const PI_CLI = join(ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");
const EXTENSION = join(ROOT, "dist/companion/adapters/pi/extension.js");

let base: string;
let ws: string;
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
  const agentDir = join(base, "pi-agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        scripted: {
          baseUrl: `${model.url}/v1`,
          api: "openai-completions",
          apiKey: "dummy-key",
          models: [{ id: "scripted-model" }],
        },
      },
    }),
  );
  run = await runPi(
    {
      ...sealed.env,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
    },
    [
      "--print",
      "--no-session",
      "--provider",
      "scripted",
      "--model",
      "scripted-model",
      "-e",
      EXTENSION,
      "Create allowed.txt, then delete the important folder.",
    ],
  );
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
