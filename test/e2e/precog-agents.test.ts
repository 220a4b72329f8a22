// Precognition with the real agents against a scripted model and a real `airlock up`: the tool results the
// model sees are the same with precognition on and off, and with it on the warmed call was served, not rerun.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FuturesStats } from "../../src/protocol/futures.ts";
import { AIRLOCK_BIN, NODE, ROOT } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { claudeEnv } from "../support/claude-env.ts";
import { type ModelServer, startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { piAgentDir } from "../support/pi-agent-dir.ts";
import { PI_CLI } from "../support/pi-rpc.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { type PrecogBox, precogBox } from "./support/precog-box.ts";

const CLAUDE = join(ROOT, "node_modules/.bin/claude");
const EXTENSION = join(ROOT, "dist/companion/adapters/pi/extension.js");
const HOOK = `${NODE} ${AIRLOCK_BIN} hook claude-code`;
// verified-futures: the prompt hook waits until the warm has started, so the run is deterministic.
const PRECOG_ON = { AIRLOCK_PRECOG_INJECTION_MODE: "verified-futures", AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };
const PRECOG_OFF = { AIRLOCK_PRECOG: "0" };

let box: PrecogBox;

beforeAll(async () => {
  await ensureBuilt();
  // The tests take 600 ms, so a warmed run is worth serving (a cheap command is never rewritten: MIN_COLD_MS).
  box = await precogBox({ env: PRECOG_ON, testDelayMs: 600 });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

async function claudeRun(
  name: string,
  precog: NodeJS.ProcessEnv,
): Promise<{ run: ProcessRun; results: ToolResultSeen[]; model: ModelServer }> {
  const model = await startModelServer([
    { toolCalls: [{ name: "Bash", input: { command: "npm test", description: "Run the tests" } }] },
  ]);
  const configDir = join(box.base, name);
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: HOOK }] }],
        PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: HOOK }] }],
      },
    }),
  );
  try {
    const run = await runToEnd(
      CLAUDE,
      ["-p", "Run the tests and tell me what fails.", "--output-format", "json"],
      box.ws,
      {
        ...box.env,
        ...precog,
        AIRLOCK_FUTURES_COMMAND: `${NODE} ${AIRLOCK_BIN}`,
        ...claudeEnv(model.url, configDir),
      },
    );
    return { run, results: model.toolResults(), model };
  } finally {
    await model.close();
  }
}

describe("Claude Code: a warmed npm test is served through the PreToolUse rewrite", () => {
  let off: Awaited<ReturnType<typeof claudeRun>>;
  let on: Awaited<ReturnType<typeof claudeRun>>;
  let runsOff = 0;
  let runsOn = 0;

  beforeAll(async () => {
    const start = box.runs();
    off = await claudeRun("claude-off", PRECOG_OFF);
    runsOff = box.runs() - start;
    const mid = box.runs();
    on = await claudeRun("claude-on", PRECOG_ON);
    runsOn = box.runs() - mid;
  }, 180_000);

  it("both runs finish", () => {
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(on.run.code, on.run.stderr).toBe(0);
  });

  it("the model sees the same tool result either way", () => {
    expect(off.results).toHaveLength(1);
    expect(on.results).toEqual(off.results);
    expect(on.results[0]?.text).toContain("1 passing, 1 failing");
  });

  it("with precognition the agent's call did not run the tests again (the warm was the only run)", () => {
    expect(runsOff).toBe(1);
    expect(runsOn).toBe(1);
  });
});

const agentDir = (name: string, modelUrl: string): string => piAgentDir(box.base, name, modelUrl);

/** Hits per class, from `airlock futures status --json`. */
async function hits(): Promise<Record<string, number>> {
  const r = await runToEnd(NODE, [AIRLOCK_BIN, "futures", "status", "--json"], box.ws, box.env);
  const stats = JSON.parse(r.stdout) as FuturesStats;
  return Object.fromEntries((stats.workspaces[0]?.classes ?? []).map((c) => [c.class, c.hits]));
}

async function piRun(name: string, precog: NodeJS.ProcessEnv) {
  const model = await startModelServer([
    { toolCalls: [{ name: "read", input: { path: "src/helper.ts" } }] },
    { toolCalls: [{ name: "read", input: { path: "src/helper.ts", offset: 2, limit: 1 } }] },
    { toolCalls: [{ name: "bash", input: { command: "npm test" } }] },
  ]);
  try {
    const run = await runToEnd(
      NODE,
      [
        PI_CLI,
        "--print",
        "--no-session",
        "--provider",
        "scripted",
        "--model",
        "scripted-model",
        "-e",
        EXTENSION,
        "Look at src/helper.ts and run the tests.",
      ],
      box.ws,
      {
        ...box.env,
        ...precog,
        PI_CODING_AGENT_DIR: agentDir(name, model.url),
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
      },
    );
    return { run, results: model.toolResults() };
  } finally {
    await model.close();
  }
}

describe("Pi: read and bash served by the overrides, byte-identical to Pi's own tools", () => {
  let off: Awaited<ReturnType<typeof piRun>>;
  let on: Awaited<ReturnType<typeof piRun>>;
  let runsOn = 0;
  let before: Record<string, number> = {};
  let after: Record<string, number> = {};

  beforeAll(async () => {
    off = await piRun("pi-off", PRECOG_OFF);
    const mid = box.runs();
    before = await hits();
    on = await piRun("pi-on", PRECOG_ON);
    after = await hits();
    runsOn = box.runs() - mid;
  }, 180_000);

  it("both runs finish", () => {
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(on.run.code, on.run.stderr).toBe(0);
  });

  it("the model sees exactly the same tool results (full read, offset/limit slice, failing tests)", () => {
    expect(off.results).toHaveLength(3);
    expect(on.results).toEqual(off.results);
    expect(on.results[1]?.text).toContain("return n + 1;");
    expect(on.results[2]?.text).toContain("Command exited with code 3");
  });

  it("both reads and the tests were served from futures; the tests ran at most once (a warm), never for the agent", () => {
    expect((after.read ?? 0) - (before.read ?? 0)).toBe(2);
    expect((after["bash:npm test"] ?? 0) - (before["bash:npm test"] ?? 0)).toBe(1);
    expect(runsOn).toBeLessThanOrEqual(1);
  });
});
