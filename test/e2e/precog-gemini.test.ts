// Precognition with the real Gemini CLI and a real `airlock up`: the prompt hook (BeforeAgent) warms `npm test`, and
// the BeforeTool hook serves the agent's `npm test` from that future through Gemini's tool_input rewrite, which runs
// after Gemini's own check approved the command. The model sees the tests' output; the tests ran once (the warm).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FuturesStats } from "../../src/protocol/futures.ts";
import { AIRLOCK_BIN, NODE, ROOT } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { type GeminiServer, startGeminiServer } from "../support/gemini-server.ts";
import type { ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { type PrecogBox, precogBox } from "./support/precog-box.ts";

const GEMINI = join(ROOT, "node_modules/@google/gemini-cli/bundle/gemini.js");
// verified-futures: the prompt hook waits until the warm has started, so the run is deterministic.
const PRECOG_ON = { AIRLOCK_PRECOG_INJECTION_MODE: "verified-futures", AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };

let box: PrecogBox;
let model: GeminiServer;
let run: ProcessRun;
let results: ToolResultSeen[];
let runsByAgent = 0;
let hits: Record<string, number> = {};

async function classHits(): Promise<Record<string, number>> {
  const r = await runToEnd(NODE, [AIRLOCK_BIN, "futures", "status", "--json"], box.ws, box.env);
  const stats = JSON.parse(r.stdout) as FuturesStats;
  return Object.fromEntries((stats.workspaces[0]?.classes ?? []).map((c) => [c.class, c.hits]));
}

beforeAll(async () => {
  await ensureBuilt();
  box = await precogBox({ env: PRECOG_ON });
  const geminiDir = join(box.home, ".gemini");
  mkdirSync(geminiDir, { recursive: true });
  writeFileSync(
    join(geminiDir, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      tools: { allowed: ["run_shell_command"] },
    }),
  );
  writeFileSync(join(geminiDir, "trustedFolders.json"), JSON.stringify({ [box.ws]: "TRUST_FOLDER" }));
  const installed = await runToEnd(NODE, [AIRLOCK_BIN, "hook", "gemini", "--install"], box.ws, box.env);
  expect(installed.code, installed.stderr).toBe(0);
  model = await startGeminiServer([
    { toolCalls: [{ name: "run_shell_command", input: { command: "npm test" } }] },
  ]);
  const before = box.runs();
  run = await runToEnd(
    NODE,
    [
      GEMINI,
      "-m",
      "gemini-2.5-flash",
      "-p",
      "Run the tests and tell me what fails.",
      "--output-format",
      "json",
    ],
    box.ws,
    {
      ...box.env,
      AIRLOCK_FUTURES_COMMAND: `${NODE} ${AIRLOCK_BIN}`,
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: "dummy-key",
      GEMINI_CLI_NO_RELAUNCH: "true",
    },
  );
  runsByAgent = box.runs() - before;
  results = model.toolResults();
  hits = await classHits();
}, 240_000);

afterAll(async () => {
  await model?.close();
  await box?.close();
});

describe("Gemini CLI: a warmed npm test is served through the BeforeTool rewrite", () => {
  it("the run finishes and the model sees the tests' output", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results).toHaveLength(1);
    expect(results[0]?.text).toContain("1 passing, 1 failing");
  });

  it("the agent's call was served from the future: the tests ran once, for the warm", () => {
    expect(hits["bash:npm test"]).toBe(1);
    expect(runsByAgent).toBe(1);
  });
});
