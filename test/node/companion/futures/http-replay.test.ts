// One request decides, validates and serves: through a real `airlock up` answering Claude Code's http hook, a
// warmed `npm test` comes back rewritten to a shell-only replay (no Node start), which prints the warm's output
// with its exit code in real bash without running the tests again; a mutating call decided in between, or a
// causal change, makes the replay fall back to `futures serve`, which validates again.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureHttpEndpoint,
  type HttpEndpoint,
  SECRET_HEADER,
} from "../../../../src/companion/daemon/http-endpoint.ts";
import type { FuturesStats } from "../../../../src/protocol/futures.ts";
import {
  BIN,
  type Daemon,
  ensureBuilt,
  runAirlock,
  type Sandbox,
  sandbox,
  startDaemon,
  until,
} from "../support/sandbox.ts";

const POLICY = `
mode: sole
default_action: deny
rules:
  - name: reads
    condition: tool == "read" || tool == "grep" || tool == "ls"
    action: allow
  - name: tests
    condition: tool == "bash" && command == "npm test"
    action: allow
`;

const TEST_SCRIPT = `const fs = require("fs");
fs.appendFileSync("runs.log", "run\\n");
console.log("helper says", fs.readFileSync("src/helper.ts", "utf8").trim());
console.error("1 failing");
process.exit(3);
`;

let box: Sandbox;
let daemon: Daemon;
let endpoint: HttpEndpoint;

function runs(): number {
  const path = join(box.project, "runs.log");
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0;
}

interface HookAnswer {
  hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } };
}

/** POSTs one hook event to the daemon the way Claude Code's http hook does; resolves with the parsed answer. */
function post(event: string, extra: Record<string, unknown>): Promise<HookAnswer> {
  const body = JSON.stringify({
    session_id: "s-replay",
    cwd: box.project,
    hook_event_name: event,
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    permission_mode: "default",
    ...extra,
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: endpoint.port,
        path: "/hooks/claude-code",
        method: "POST",
        headers: {
          host: `127.0.0.1:${endpoint.port}`,
          [SECRET_HEADER]: endpoint.secret,
          "content-type": "application/json",
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve(text.trim() ? (JSON.parse(text) as HookAnswer) : {}));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function npmStats() {
  const r = await runAirlock(["futures", "status", "--json"], box.env);
  const stats = JSON.parse(r.stdout) as FuturesStats;
  return stats.workspaces[0]?.classes.find((c) => c.class === "bash:npm test");
}

/** The prompt warms `npm test`; resolves once that warm has finished (a future exists to replay). */
async function warmTests(): Promise<void> {
  const before = (await npmStats())?.warms ?? 0;
  await post("UserPromptSubmit", { prompt: "run the tests" });
  // Each status query is a process start: the loop paces itself.
  const deadline = Date.now() + 30_000;
  while (((await npmStats())?.warms ?? 0) === before && Date.now() < deadline);
  expect((await npmStats())?.warms).toBe(before + 1);
}

async function servedCommand(): Promise<string | undefined> {
  const answer = await post("PreToolUse", {
    tool_name: "Bash",
    tool_input: { command: "npm test", description: "tests" },
  });
  expect(answer.hookSpecificOutput?.permissionDecision).toBe("allow");
  return answer.hookSpecificOutput?.updatedInput?.command;
}

function replayEntries(): string[] {
  const dir = join(box.airlockHome, "replay");
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^[0-9a-f]{32}$/.test(n)) : [];
}

const bash = (line: string) =>
  spawnSync("bash", ["-c", line], { cwd: box.project, env: box.env, encoding: "utf8" });

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({
    AIRLOCK_PRECOG_CACHE_DELAY_MS: "0",
    AIRLOCK_PRECOG_MIN_COLD_MS: "0",
    AIRLOCK_FUTURES_COMMAND: `${process.execPath} ${BIN}`,
  });
  box.writePolicy(POLICY);
  mkdirSync(join(box.project, "src"), { recursive: true });
  mkdirSync(join(box.project, "test"), { recursive: true });
  writeFileSync(join(box.project, "package.json"), JSON.stringify({ scripts: { test: "node test/run.js" } }));
  writeFileSync(join(box.project, "test/run.js"), TEST_SCRIPT);
  writeFileSync(join(box.project, "src/helper.ts"), "export const v = 1;\n");
  endpoint = await ensureHttpEndpoint(box.env);
  daemon = await startDaemon(box.env);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  box?.cleanup();
});

describe("the http hook serves a warmed command as a shell-only replay", () => {
  it("the answer is a replay: no Node start, the warm's output and exit code, the tests not run again", async () => {
    await warmTests();
    expect(runs()).toBe(1);
    const line = (await servedCommand()) ?? "";
    expect(line.startsWith("if mv -- ")).toBe(true);
    // Node is only in the fallback branch.
    expect(line.indexOf(process.execPath)).toBeGreaterThan(line.indexOf(" else "));
    const r = bash(line);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^\n> test\n> node test\/run.js\n\nhelper says export const v = 1;\n$/);
    expect(r.stderr).toBe("1 failing\n");
    expect(runs()).toBe(1);
    expect(replayEntries()).toEqual([]);
    const npm = await npmStats();
    expect(npm?.hits).toBe(1);
  });

  it("a second run of the same line validates again through futures serve (still current: served, not run)", async () => {
    const line = (await servedCommand()) ?? "";
    expect(bash(line).status).toBe(3);
    const again = bash(line);
    expect(again.status).toBe(3);
    expect(again.stdout).toContain("helper says export const v = 1;\n");
    expect(runs()).toBe(1);
    expect((await npmStats())?.hits).toBe(3);
  });

  it("nothing else ran since: a mutating call decided after the hook drops the replay", async () => {
    const line = (await servedCommand()) ?? "";
    expect(replayEntries()).toHaveLength(1);
    const touch = await post("PreToolUse", { tool_name: "Bash", tool_input: { command: "touch other.txt" } });
    // Answered (policy denies it here; an allowed one would run next), and the replay was dropped before that
    // answer left: conservative, the served command then validates again.
    expect(touch.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(replayEntries()).toEqual([]);
    const hits = (await npmStats())?.hits ?? 0;
    const r = bash(line);
    expect(r.status).toBe(3);
    // Served by the fallback after validating again (one more hit), not replayed from the dropped files.
    expect((await npmStats())?.hits).toBe(hits + 1);
  });

  it("a causal change after the hook: the replay is dropped and the original runs", async () => {
    const line = (await servedCommand()) ?? "";
    writeFileSync(join(box.project, "src/helper.ts"), "export const v = 2;\n");
    await until(() => replayEntries().length === 0, 10_000, "the replay dropped on the change");
    const before = runs();
    const r = bash(line);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain("helper says export const v = 2;\n");
    expect(runs()).toBe(before + 1);
  });

  it("a stale future at hook time is not rewritten at all: the command runs as it is", async () => {
    await warmTests();
    writeFileSync(join(box.project, "src/helper.ts"), "export const v = 3;\n");
    const command = await servedCommand();
    expect(command === undefined || command === "npm test").toBe(true);
    expect(replayEntries()).toEqual([]);
  });
});
