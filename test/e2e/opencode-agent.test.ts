// The real OpenCode (`opencode run`, the native binary from npm) against a scripted OpenAI-compatible model, gated by
// the plugin `airlock hook opencode --install` writes: an allowed read, shell command and write run; a denied command
// never runs and the model reads why (the plugin throws it); a call Airlock asks about goes to the phone and runs once
// the person approves it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock } from "../node/companion/support/sandbox.ts";
import { type ModelServer, startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { AGENT_POLICY, type PairedBox, pairedBox } from "./support/agent-phone.ts";
import { OPENCODE, OPENCODE_MODEL, openCodeEnv, writeOpenCodeConfig } from "./support/opencode-offline.ts";

let paired: PairedBox;
let model: ModelServer;
let install: Awaited<ReturnType<typeof runAirlock>>;
let run: ProcessRun;
let results: ToolResultSeen[];
let ws: string;

beforeAll(async () => {
  await ensureBuilt();
  paired = await pairedBox(AGENT_POLICY);
  const { box } = paired;
  ws = box.project;
  mkdirSync(join(ws, "important"), { recursive: true });
  writeFileSync(join(ws, "important/keep.txt"), "keep\n");
  writeFileSync(join(ws, "notes.txt"), "the plan is in notes\n");
  const env = { ...box.env, XDG_CONFIG_HOME: join(box.home, ".config") };
  install = await runAirlock(["hook", "opencode", "--install"], env);

  model = await startModelServer([
    { toolCalls: [{ name: "read", input: { filePath: join(ws, "notes.txt") } }] },
    { toolCalls: [{ name: "bash", input: { command: "echo opencode-allowed", description: "Say hi" } }] },
    { toolCalls: [{ name: "bash", input: { command: "rm -rf important", description: "Clean" } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch phoned.txt", description: "Mark" } }] },
    { toolCalls: [{ name: "write", input: { filePath: join(ws, "made.txt"), content: "made\n" } }] },
  ]);
  const config = join(box.dir, "opencode.json");
  writeOpenCodeConfig(config, model.url);
  const agent = runToEnd(
    OPENCODE,
    ["run", "--format", "json", "--model", OPENCODE_MODEL, "Do the chores."],
    ws,
    openCodeEnv(ws, box.home, config, box.env),
  );
  await paired.answerUntil(agent, ["touch phoned.txt"]);
  run = await agent;
  results = model.toolResults();
}, 300_000);

afterAll(async () => {
  await model?.close();
  await paired?.close();
});

describe("OpenCode with Airlock's plugin", () => {
  it("--install writes the plugin into OpenCode's user plugin folder, naming this airlock", () => {
    expect(install.code, install.stderr).toBe(0);
    const plugin = readFileSync(join(paired.box.home, ".config/opencode/plugin/airlock.js"), "utf8");
    expect(plugin).toContain('"tool.execute.before"');
    expect(plugin).toMatch(/airlock\.cjs hook opencode"/);
  });

  it("the run completes against the scripted model, every call answered", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results).toHaveLength(5);
  });

  it("allowed calls run: the read, the shell command and the write", () => {
    expect(results[0]?.text).toContain("the plan is in notes");
    expect(results[1]?.text).toContain("opencode-allowed");
    expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("made\n");
  });

  it("the denied command never runs, and the model reads Airlock's reason", () => {
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
    expect(results[2]?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });

  it("the ask went to the phone as OpenCode's call, and the approved command ran", () => {
    const card = paired.cards.find((c) => c.calls?.some((call) => call.summary.includes("touch phoned.txt")));
    expect(JSON.stringify(card)).toContain("OpenCode");
    expect(existsSync(join(ws, "phoned.txt"))).toBe(true);
    expect(results[3]?.text).not.toMatch(/denied/);
  });
});
