// Precognition with the real Gemini CLI, OpenCode and Copilot CLI and a real `airlock up`: the prompt hook warms
// `npm test`, and the tool hook serves the agent's `npm test` from that future through the agent's own rewrite
// (Gemini's tool_input, after Gemini's own check approved the command; OpenCode's args and Copilot's modifiedArgs
// under the box's `mode: sole` policy, the only case where those two are rewritten). The model sees the tests'
// output; the tests ran once, for the warm.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FuturesStats } from "../../src/protocol/futures.ts";
import { AIRLOCK_BIN, NODE, ROOT } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { type GeminiServer, startGeminiServer } from "../support/gemini-server.ts";
import { startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { OPENCODE, OPENCODE_MODEL, openCodeEnv, writeOpenCodeConfig } from "./support/opencode-offline.ts";
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
  // The tests take 600 ms, so a warmed run is worth serving (a cheap command is never rewritten: MIN_COLD_MS).
  box = await precogBox({ env: PRECOG_ON, testDelayMs: 600 });
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

/** One agent run against a fresh scripted model: its tool results, and how often the tests ran meanwhile. */
async function agentRun(start: (modelUrl: string) => Promise<ProcessRun>) {
  const server = await startModelServer([
    { toolCalls: [{ name: "bash", input: { command: "npm test", description: "Run the tests" } }] },
  ]);
  try {
    const before = box.runs();
    const hitsBefore = (await classHits())["bash:npm test"] ?? 0;
    const agent = await start(server.url);
    return {
      agent,
      results: server.toolResults(),
      runs: box.runs() - before,
      served: ((await classHits())["bash:npm test"] ?? 0) - hitsBefore,
    };
  } finally {
    await server.close();
  }
}

describe("OpenCode: a warmed npm test is served through the plugin's args rewrite", () => {
  let r: Awaited<ReturnType<typeof agentRun>>;

  beforeAll(async () => {
    const env = { ...box.env, XDG_CONFIG_HOME: join(box.home, ".config") };
    const installed = await runToEnd(NODE, [AIRLOCK_BIN, "hook", "opencode", "--install"], box.ws, env);
    expect(installed.code, installed.stderr).toBe(0);
    r = await agentRun(async (url) => {
      const config = join(box.base, "opencode.json");
      writeOpenCodeConfig(config, url);
      return runToEnd(
        OPENCODE,
        ["run", "--format", "json", "--model", OPENCODE_MODEL, "Run the tests and tell me what fails."],
        box.ws,
        openCodeEnv(box.ws, box.home, config, { ...env, AIRLOCK_FUTURES_COMMAND: `${NODE} ${AIRLOCK_BIN}` }),
      );
    });
  }, 240_000);

  it("the model sees the tests' output, served from the future; the tests ran once, for the warm", () => {
    expect(r.agent.code, r.agent.stderr).toBe(0);
    expect(r.results[0]?.text).toContain("1 passing, 1 failing");
    expect(r.served).toBe(1);
    // At most a re-warm (the future from the run before may still validate), never the agent's own run.
    expect(r.runs).toBeLessThanOrEqual(1);
  });
});

describe("Copilot CLI: a warmed npm test is served through modifiedArgs", () => {
  let r: Awaited<ReturnType<typeof agentRun>>;

  beforeAll(async () => {
    const copilotHome = join(box.home, ".copilot");
    const env = { ...box.env, COPILOT_HOME: copilotHome };
    const installed = await runToEnd(NODE, [AIRLOCK_BIN, "hook", "copilot", "--install"], box.ws, env);
    expect(installed.code, installed.stderr).toBe(0);
    r = await agentRun((url) =>
      runToEnd(
        join(ROOT, "node_modules/@github/copilot-linux-x64/copilot"),
        ["-p", "Run the tests and tell me what fails.", "--output-format", "json", "--allow-tool", "shell"],
        box.ws,
        {
          ...env,
          AIRLOCK_FUTURES_COMMAND: `${NODE} ${AIRLOCK_BIN}`,
          COPILOT_OFFLINE: "true",
          COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
          COPILOT_PROVIDER_TYPE: "openai",
          COPILOT_PROVIDER_API_KEY: "dummy",
          COPILOT_MODEL: "gpt-4.1",
          COPILOT_AUTO_UPDATE: "false",
        },
      ),
    );
  }, 240_000);

  it("the model sees the tests' output, served from the future; the tests ran once, for the warm", () => {
    expect(r.agent.code, r.agent.stderr).toBe(0);
    expect(r.results[0]?.text).toContain("1 passing, 1 failing");
    expect(r.served).toBe(1);
    // At most a re-warm (the future from the run before may still validate), never the agent's own run.
    expect(r.runs).toBeLessThanOrEqual(1);
  });
});
