// The real Gemini CLI (`gemini -p`, from npm) against a scripted local Gemini API, gated by Airlock after `airlock
// hook gemini --install`: an allowed read, shell command and file write run; a denied command never runs and the model
// reads why; a call Airlock asks about goes to the phone and runs once the person approves it. (Gemini's own check
// still asks before a shell redirect, and headless it refuses: Airlock's allow never skips it.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock } from "../node/companion/support/sandbox.ts";
import { NODE, ROOT } from "../support/airlock-env.ts";
import { type GeminiServer, startGeminiServer } from "../support/gemini-server.ts";
import type { ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { AGENT_POLICY, type PairedBox, pairedBox } from "./support/agent-phone.ts";

const GEMINI = join(ROOT, "node_modules/@google/gemini-cli/bundle/gemini.js");

let paired: PairedBox;
let model: GeminiServer;
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
  const geminiDir = join(box.home, ".gemini");
  mkdirSync(geminiDir, { recursive: true });
  // The user's own settings: API-key auth, and Gemini's own policy letting the shell and writes run headless.
  writeFileSync(
    join(geminiDir, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      tools: { allowed: ["run_shell_command", "write_file"] },
    }),
  );
  writeFileSync(join(geminiDir, "trustedFolders.json"), JSON.stringify({ [ws]: "TRUST_FOLDER" }));
  install = await runAirlock(["hook", "gemini", "--install"], box.env);

  model = await startGeminiServer([
    { toolCalls: [{ name: "read_file", input: { file_path: join(ws, "notes.txt") } }] },
    { toolCalls: [{ name: "run_shell_command", input: { command: "echo gemini-allowed" } }] },
    { toolCalls: [{ name: "run_shell_command", input: { command: "rm -rf important" } }] },
    { toolCalls: [{ name: "run_shell_command", input: { command: "touch phoned.txt" } }] },
    { toolCalls: [{ name: "write_file", input: { file_path: join(ws, "made.txt"), content: "made\n" } }] },
    { toolCalls: [{ name: "run_shell_command", input: { command: "echo x > redirected.txt" } }] },
  ]);
  const agent = runToEnd(
    NODE,
    [GEMINI, "-m", "gemini-2.5-flash", "-p", "Do the chores.", "--output-format", "json"],
    ws,
    {
      ...box.env,
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: "dummy-key",
      GEMINI_CLI_NO_RELAUNCH: "true",
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

describe("Gemini CLI with Airlock's BeforeTool hook", () => {
  it("never weaker than Gemini alone: a redirect Airlock allows stays refused by Gemini's own confirmation", () => {
    expect(results[5]?.text).toMatch(/requires user confirmation/);
    expect(existsSync(join(ws, "redirected.txt"))).toBe(false);
  });

  it("--install adds Airlock's hooks to the user's settings.json and keeps the user's settings", () => {
    expect(install.code, install.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(paired.box.home, ".gemini/settings.json"), "utf8"));
    expect(settings.security.auth.selectedType).toBe("gemini-api-key");
    expect(settings.tools.allowed).toEqual(["run_shell_command", "write_file"]);
    const before = settings.hooks.BeforeTool[0];
    expect(before.matcher).toBe("*");
    expect(before.hooks[0].command).toMatch(/airlock\.cjs hook gemini$/);
    expect(before.hooks[0].timeout).toBe(90_000);
  });

  it("the run completes against the scripted model, every call answered", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results).toHaveLength(6);
  });

  it("allowed calls run: the read, the shell command and the write", () => {
    expect(results[0]?.text).toContain("the plan is in notes");
    expect(results[1]?.text).toContain("gemini-allowed");
    expect(results[1]?.isError).toBe(false);
    expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("made\n");
  });

  it("the denied command never runs, and the model reads Airlock's reason", () => {
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
    expect(results[2]?.text).toMatch(/Tool execution blocked: .*rm is not allowed here/);
  });

  it("the ask went to the phone as Gemini CLI's call, and the approved command ran", () => {
    const card = paired.cards.find((c) => c.calls?.some((call) => call.summary.includes("touch phoned.txt")));
    expect(card).toBeDefined();
    expect(JSON.stringify(card)).toContain("Gemini CLI");
    expect(existsSync(join(ws, "phoned.txt"))).toBe(true);
    expect(results[3]?.text).not.toMatch(/blocked/);
  });
});
