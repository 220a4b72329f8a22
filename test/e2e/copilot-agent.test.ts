// The real GitHub Copilot CLI (`copilot -p`, from npm, offline with its own model provider settings) against a
// scripted OpenAI-compatible model, gated by `airlock hook copilot --install`: an allowed view, shell command and file
// creation run; a denied command never runs and the model reads why; a call Airlock asks about goes to the phone and
// runs once the person approves it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock } from "../node/companion/support/sandbox.ts";
import { ROOT } from "../support/airlock-env.ts";
import { type ModelServer, startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { AGENT_POLICY, type PairedBox, pairedBox } from "./support/agent-phone.ts";

const COPILOT = join(ROOT, "node_modules/@github/copilot-linux-x64/copilot");

let paired: PairedBox;
let model: ModelServer;
let install: Awaited<ReturnType<typeof runAirlock>>;
let run: ProcessRun;
let results: ToolResultSeen[];
let ws: string;
let copilotHome: string;

beforeAll(async () => {
  await ensureBuilt();
  paired = await pairedBox(AGENT_POLICY);
  const { box } = paired;
  ws = box.project;
  copilotHome = join(box.home, ".copilot");
  mkdirSync(join(ws, "important"), { recursive: true });
  writeFileSync(join(ws, "important/keep.txt"), "keep\n");
  writeFileSync(join(ws, "notes.txt"), "the plan is in notes\n");
  install = await runAirlock(["hook", "copilot", "--install"], { ...box.env, COPILOT_HOME: copilotHome });

  model = await startModelServer([
    { toolCalls: [{ name: "view", input: { path: join(ws, "notes.txt") } }] },
    { toolCalls: [{ name: "bash", input: { command: "echo copilot-allowed", description: "Say hi" } }] },
    { toolCalls: [{ name: "bash", input: { command: "rm -rf important", description: "Clean" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch phoned.txt", description: "Mark" } }] },
    { toolCalls: [{ name: "create", input: { path: join(ws, "made.txt"), file_text: "made\n" } }] },
  ]);
  const agent = runToEnd(
    COPILOT,
    ["-p", "Do the chores.", "--output-format", "json", "--allow-tool", "shell", "--allow-tool", "write"],
    ws,
    {
      ...box.env,
      COPILOT_HOME: copilotHome,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_PROVIDER_API_KEY: "dummy",
      COPILOT_MODEL: "gpt-4.1",
      COPILOT_AUTO_UPDATE: "false",
    },
  );
  await paired.answerUntil(agent, ["touch phoned.txt"]);
  run = await agent;
  results = model.toolResults();
}, 300_000);

afterAll(async () => {
  await model?.close();
  await paired?.close();
});

describe("GitHub Copilot CLI with Airlock's preToolUse hook", () => {
  it("--install writes Airlock's own hooks file under $COPILOT_HOME/hooks", () => {
    expect(install.code, install.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(copilotHome, "hooks/airlock.json"), "utf8"));
    expect(file.version).toBe(1);
    expect(file.hooks.preToolUse[0]).toMatchObject({ type: "command", timeoutSec: 90 });
    expect(file.hooks.preToolUse[0].bash).toMatch(/airlock\.cjs hook copilot$/);
  });

  it("the run completes against the scripted model, every call answered", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results).toHaveLength(5);
  });

  it("allowed calls run: the view, the shell command and the new file", () => {
    expect(results[0]?.text).toContain("the plan is in notes");
    expect(results[1]?.text).toContain("copilot-allowed");
    expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("made\n");
  });

  it("the denied command never runs, and the model reads Airlock's reason", () => {
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
    expect(results[2]?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });

  it("the ask went to the phone as Copilot CLI's call, and the approved command ran", () => {
    const card = paired.cards.find((c) => c.calls?.some((call) => call.summary.includes("touch phoned.txt")));
    expect(JSON.stringify(card)).toContain("Copilot CLI");
    expect(existsSync(join(ws, "phoned.txt"))).toBe(true);
    expect(results[3]?.text).not.toMatch(/Denied/);
  });
});
