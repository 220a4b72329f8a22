// The real Codex CLI (codex exec) against a scripted Responses API server, with `airlock hook codex` trusted in
// config.toml: PreToolUse rewrites the warmed `npm test` to `airlock futures serve`, Codex honours
// updatedInput, and the model gets the tests' output and exit status without the tests running again.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AIRLOCK_BIN, NODE } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { CODEX, writeCodexHome } from "../support/codex-home.ts";
import { startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { type PrecogBox, precogBox } from "./support/precog-box.ts";

const HOOK = `${NODE} ${AIRLOCK_BIN} hook codex`;
const PRECOG_ON = { AIRLOCK_PRECOG_INJECTION_MODE: "verified-futures", AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };

let box: PrecogBox;

beforeAll(async () => {
  await ensureBuilt();
  // The tests take 600 ms, so a warmed run is worth serving (a cheap command is never rewritten: MIN_COLD_MS).
  box = await precogBox({ env: PRECOG_ON, testDelayMs: 600 });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

async function codexRun(
  name: string,
  precog: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<{ run: ProcessRun; results: ToolResultSeen[] }> {
  const model = await startModelServer([
    { toolCalls: [{ name: "exec_command", input: { cmd: "npm test" } }] },
  ]);
  const home = join(box.base, name);
  writeCodexHome(home, model.url, [
    { event: "UserPromptSubmit", command: HOOK },
    { event: "PreToolUse", matcher: "*", command: HOOK },
  ]);
  try {
    const run = await runToEnd(
      NODE,
      [CODEX, "exec", "--skip-git-repo-check", ...args, "Run the tests."],
      box.ws,
      {
        ...box.env,
        ...precog,
        AIRLOCK_FUTURES_COMMAND: `${NODE} ${AIRLOCK_BIN}`,
        CODEX_HOME: home,
        SCRIPTED_API_KEY: "dummy",
      },
    );
    return { run, results: model.toolResults() };
  } finally {
    await model.close();
  }
}

describe("Codex: a warmed npm test is served through PreToolUse updatedInput", () => {
  let off: Awaited<ReturnType<typeof codexRun>>;
  let on: Awaited<ReturnType<typeof codexRun>>;
  let runsOff = 0;
  let runsOn = 0;

  beforeAll(async () => {
    const start = box.runs();
    off = await codexRun("codex-off", { AIRLOCK_PRECOG: "0" });
    runsOff = box.runs() - start;
    const mid = box.runs();
    on = await codexRun("codex-on", PRECOG_ON);
    runsOn = box.runs() - mid;
  }, 180_000);

  it("both runs finish", () => {
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(on.run.code, on.run.stderr).toBe(0);
  });

  it("the model gets the tests' output and failing exit status either way", () => {
    for (const r of [off, on]) {
      expect(r.results).toHaveLength(1);
      expect(r.results[0]?.text).toContain("1 passing, 1 failing");
      expect(r.results[0]?.text).toMatch(/exit(ed with)? code:? 3|Process exited with code 3/i);
    }
  });

  it("Codex ran the rewritten command: the warm was the only run of the tests", () => {
    expect(runsOff).toBe(1);
    expect(runsOn).toBe(1);
    expect(on.run.stdout + on.run.stderr).toContain("futures serve");
  });
});

// Under Codex's workspace-write sandbox the rewritten command could not reach the daemon's socket and would run the
// tests a second time: the hook reads the turn's sandbox from Codex's transcript and neither warms nor rewrites.
describe("Codex in its workspace-write sandbox: no warm, no rewrite, the tests run once", () => {
  let sandboxed: Awaited<ReturnType<typeof codexRun>>;
  let runs = 0;

  beforeAll(async () => {
    const start = box.runs();
    sandboxed = await codexRun("codex-sandboxed", PRECOG_ON, ["--sandbox", "workspace-write"]);
    runs = box.runs() - start;
  }, 180_000);

  it("runs the tests once, inside Codex's sandbox, unrewritten", () => {
    expect(sandboxed.run.code, sandboxed.run.stderr).toBe(0);
    expect(sandboxed.results).toHaveLength(1);
    expect(sandboxed.results[0]?.text).toContain("1 passing, 1 failing");
    expect(runs).toBe(1);
    expect(sandboxed.run.stdout + sandboxed.run.stderr).not.toContain("futures serve");
  });
});
