// The real `claude -p` with Airlock's http PreToolUse hook against a real `airlock up`: a warmed `npm test` is
// decided, validated and served in that one request as a shell-only replay. The model sees exactly the tool result
// of a cold run, the tests do not run for the agent, and no replay file is left behind.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendControl } from "../../src/companion/control/connection.ts";
import { ensureHttpEndpoint, hookUrl, SECRET_HEADER } from "../../src/companion/daemon/http-endpoint.ts";
import { type Daemon, startDaemon } from "../node/companion/support/sandbox.ts";
import { AIRLOCK_BIN, NODE, ROOT } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { type PrecogBox, precogBox } from "./support/precog-box.ts";

const CLAUDE = join(ROOT, "node_modules/.bin/claude");
const OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
};
const PRECOG_ON = { AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };

let box: PrecogBox;
let daemon: Daemon;

beforeAll(async () => {
  await ensureBuilt();
  box = await precogBox({ env: PRECOG_ON, testDelayMs: 1_200 });
  // The daemon serves http hooks only when the endpoint file exists at its start (as after the installer).
  await box.daemon.stop("SIGTERM");
  await ensureHttpEndpoint(box.env);
  daemon = await startDaemon(box.env);
}, 120_000);

afterAll(async () => {
  await daemon?.stop("SIGTERM");
  await box?.close();
});

async function npmWarms(): Promise<{ warms: number; hits: number }> {
  const res = await sendControl(box.env.AIRLOCK_SOCKET ?? "", { type: "futures_status" }, 5_000);
  if (res.type !== "futures_stats") throw new Error(`unexpected answer ${res.type}`);
  const cls = res.stats.workspaces[0]?.classes.find((c) => c.class === "bash:npm test");
  return { warms: cls?.warms ?? 0, hits: cls?.hits ?? 0 };
}

async function claudeRun(
  name: string,
  hook: "http" | "command",
): Promise<{ run: ProcessRun; results: ToolResultSeen[] }> {
  const model = await startModelServer([
    { toolCalls: [{ name: "Bash", input: { command: "npm test", description: "Run the tests" } }] },
  ]);
  const configDir = join(box.base, name);
  mkdirSync(configDir, { recursive: true });
  const endpoint = await ensureHttpEndpoint(box.env);
  const pre =
    hook === "http"
      ? {
          type: "http",
          url: hookUrl(endpoint, "claude-code"),
          headers: { [SECRET_HEADER]: endpoint.secret },
          timeout: 60,
          onFailure: "block",
        }
      : { type: "command", command: `${NODE} ${AIRLOCK_BIN} hook claude-code` };
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [pre] }] } }),
  );
  try {
    const run = await runToEnd(
      CLAUDE,
      ["-p", "Run the tests and tell me what fails.", "--output-format", "json"],
      box.ws,
      {
        ...box.env,
        ...(hook === "command" ? { AIRLOCK_PRECOG: "0" } : {}),
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "sk-ant-test-dummy",
        ...OFFLINE,
      },
    );
    return { run, results: model.toolResults() };
  } finally {
    await model.close();
  }
}

describe("Claude Code's http hook: one request decides, validates and serves a shell-only replay", () => {
  let off: Awaited<ReturnType<typeof claudeRun>>;
  let on: Awaited<ReturnType<typeof claudeRun>>;
  let runsOn = 0;
  let hitsBefore = 0;
  let hitsAfter = 0;

  beforeAll(async () => {
    off = await claudeRun("claude-off", "command");
    // The person is still typing: the draft warms the tests, and the warm finishes before the prompt is sent.
    const before = (await npmWarms()).warms;
    await sendControl(
      box.env.AIRLOCK_SOCKET ?? "",
      { type: "futures_warm", cwd: box.ws, source: "draft", text: "run the tests" },
      5_000,
    );
    const deadline = Date.now() + 30_000;
    while ((await npmWarms()).warms === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    hitsBefore = (await npmWarms()).hits;
    const mid = box.runs();
    on = await claudeRun("claude-on", "http");
    runsOn = box.runs() - mid;
    hitsAfter = (await npmWarms()).hits;
  }, 180_000);

  it("both runs finish", () => {
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(on.run.code, on.run.stderr).toBe(0);
  });

  it("the model sees exactly the cold run's tool result", () => {
    expect(off.results).toHaveLength(1);
    expect(on.results).toEqual(off.results);
    expect(on.results[0]?.text).toContain("1 passing, 1 failing");
  });

  it("the tests did not run for the agent: served from the future, once, and no replay file is left", () => {
    expect(runsOn).toBe(0);
    expect(hitsAfter - hitsBefore).toBe(1);
    const dir = join(box.home, ".airlock", "replay");
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});
