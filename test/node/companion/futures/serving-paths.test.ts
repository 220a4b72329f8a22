// Every serving path through a real `airlock up`: the Claude Code and Codex PreToolUse rewrite, the rewritten
// `airlock futures serve` in real bash (cached output and exit code, or the original when stale), the MCP
// server's read and bash, and `airlock futures status`.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FuturesStats } from "../../../../src/protocol/futures.ts";
import {
  BIN,
  type Daemon,
  ensureBuilt,
  runAirlock,
  runAirlockWith,
  type Sandbox,
  sandbox,
  startDaemon,
} from "../support/sandbox.ts";
import { runsOf, writeCountedProject } from "./counted-project.ts";

// mode: sole: a served call must be pre-approved, which the default composed mode does only for a person's answer.
const POLICY = `
mode: sole
default_action: deny
rules:
  - name: reads
    condition: tool == "read" || tool == "grep" || tool == "ls"
    action: allow
  - name: tests and status
    condition: tool == "bash" && (command == "npm test" || command == "git status")
    action: allow
`;

// Each run appends to runs.log, so a served answer (no new line) is told apart from a real run.
const TEST_SCRIPT = `const fs = require("fs");
fs.appendFileSync("runs.log", "run\\n");
console.log("helper says", fs.readFileSync("src/helper.ts", "utf8").trim());
console.error("1 failing");
process.exit(3);
`;

let box: Sandbox;
let daemon: Daemon;

const runs = () => runsOf(box.project);

function hookInput(event: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "s-precog",
    cwd: box.project,
    hook_event_name: event,
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    ...extra,
  });
}

async function stats(): Promise<FuturesStats> {
  const r = await runAirlock(["futures", "status", "--json"], box.env);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as FuturesStats;
}

/** Submits a prompt the way Claude Code does; verified-futures mode makes the hook wait for the warm to start. */
async function submitPrompt(prompt: string): Promise<string> {
  const r = await runAirlock(["hook", "claude-code"], box.env, hookInput("UserPromptSubmit", { prompt }));
  expect(r.code).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({
    AIRLOCK_PRECOG_INJECTION_MODE: "verified-futures",
    AIRLOCK_PRECOG_CACHE_DELAY_MS: "0",
    // Serve whatever the cold run cost: these tests are about the paths, serve-cost.test.ts about the cost gate.
    AIRLOCK_PRECOG_MIN_COLD_MS: "0",
    AIRLOCK_FUTURES_COMMAND: `${process.execPath} ${BIN}`,
  });
  box.writePolicy(POLICY);
  writeCountedProject(box.project, TEST_SCRIPT);
  daemon = await startDaemon(box.env);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  box?.cleanup();
});

describe("serving through Claude Code, Codex, MCP and airlock futures serve", () => {
  let rewritten = "";

  it("Claude Code: the prompt warms, PreToolUse answers allow with the command rewritten to futures serve", async () => {
    const out = await submitPrompt("run the tests and look at src/helper.ts");
    expect(JSON.parse(out).hookSpecificOutput.additionalContext).toContain("armed");
    const r = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("PreToolUse", {
        tool_name: "Bash",
        tool_input: { command: "npm test", description: "tests" },
      }),
    );
    const output = JSON.parse(r.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("allow");
    expect(output.updatedInput.description).toBe("tests");
    expect(output.updatedInput.command).toMatch(/ futures serve f[0-9a-f]{24} -- 'npm test'$/);
    rewritten = output.updatedInput.command;
  });

  it("the rewritten command prints the cached output with the original exit code, without running it again", async () => {
    // The serve waits for the warm still running; the only run is the warm's own.
    const r = spawnSync("bash", ["-c", rewritten], { cwd: box.project, env: box.env, encoding: "utf8" });
    expect(r.status).toBe(3);
    expect(r.stdout).toContain("helper says export const v = 1;");
    expect(r.stderr).toContain("1 failing");
    expect(runs()).toBe(1);
    const again = spawnSync("bash", ["-c", rewritten], { cwd: box.project, env: box.env, encoding: "utf8" });
    expect(again.stdout).toBe(r.stdout);
    expect(runs()).toBe(1);
  });

  it("after a causal file changes, the same rewritten command runs the original instead", async () => {
    writeFileSync(join(box.project, "src/helper.ts"), "export const v = 2;\n");
    const before = runs();
    const r = spawnSync("bash", ["-c", rewritten], { cwd: box.project, env: box.env, encoding: "utf8" });
    expect(r.status).toBe(3);
    expect(r.stdout).toContain("export const v = 2;");
    expect(runs()).toBe(before + 1);
    const npm = (await stats()).workspaces[0]?.classes.find((c) => c.class === "bash:npm test");
    expect(npm?.hits).toBe(2);
    expect(npm?.misses.stale).toBe(1);
  });

  it("futures serve is not a way to run arbitrary commands", async () => {
    writeFileSync(join(box.project, "victim.txt"), "keep");
    const r = await runAirlock(
      ["futures", "serve", "f000000000000000000000000", "--", "rm -f victim.txt"],
      box.env,
    );
    expect(r.code).toBe(126);
    expect(existsSync(join(box.project, "victim.txt"))).toBe(true);
  });

  it("a command policy denies is never rewritten", async () => {
    const r = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "npm run build" } }),
    );
    const output = JSON.parse(r.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    expect(output.updatedInput).toBeUndefined();
  });

  /** A Codex transcript whose newest turn ran in `sandbox` (what Codex writes before the turn's tool calls). */
  function codexTranscript(sandbox: string): string {
    const path = join(box.dir, `rollout-${sandbox}.jsonl`);
    writeFileSync(
      path,
      `${JSON.stringify({ type: "turn_context", payload: { cwd: box.project, sandbox_policy: { type: sandbox } } })}\n`,
    );
    return path;
  }

  it("Codex: PreToolUse on a warmed command answers allow with updatedInput, outside Codex's sandbox", async () => {
    await submitPrompt("run the tests again");
    const r = await runAirlock(
      ["hook", "codex"],
      box.env,
      hookInput("PreToolUse", {
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        turn_id: "t1",
        transcript_path: codexTranscript("danger-full-access"),
      }),
    );
    const output = JSON.parse(r.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("allow");
    expect(output.updatedInput.command).toMatch(/ futures serve f[0-9a-f]{24} -- 'npm test'$/);
  });

  it("Codex in its workspace-write sandbox (or an unknown one): the warmed command is not rewritten", async () => {
    await submitPrompt("run the tests again");
    for (const transcript of [
      codexTranscript("workspace-write"),
      join(box.dir, "no-such-transcript.jsonl"),
    ]) {
      const r = await runAirlock(
        ["hook", "codex"],
        box.env,
        hookInput("PreToolUse", {
          tool_name: "Bash",
          tool_input: { command: "npm test" },
          turn_id: "t1",
          transcript_path: transcript,
        }),
      );
      expect(r.code).toBe(0);
      // Codex's "proceed": no output, so the command runs unchanged inside the sandbox.
      expect(r.stdout).toBe("");
    }
  });

  it("the daemon answers the fast hook's event and names the node and airlock that hook ran", async () => {
    await submitPrompt("run the tests again");
    // Empty: no prefix set here overrides the daemon's (the hook's switches win over the daemon's own).
    const env = { ...box.env, AIRLOCK_FUTURES_COMMAND: "" };
    // Another `airlock` entry than the daemon's own (its dist/ is the same build).
    const other = mkdtempSync(join(tmpdir(), "airlock-entry-"));
    try {
      mkdirSync(join(other, "bin"));
      copyFileSync(BIN, join(other, "bin", "airlock.cjs"));
      symlinkSync(join(dirname(BIN), "..", "dist"), join(other, "dist"));
      const bin = join(other, "bin", "airlock.cjs");
      const r = await runAirlockWith(
        bin,
        ["hook", "claude-code"],
        env,
        hookInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "npm test" } }),
      );
      const command: string = JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command;
      // Not the daemon's own entry: the rewritten command runs the airlock the agent's hook ran.
      expect(command.startsWith(`'${process.execPath}' '${bin}' futures serve f`)).toBe(true);
      const served = spawnSync("bash", ["-c", command], { cwd: box.project, env, encoding: "utf8" });
      expect(served.status).toBe(3);
      expect(served.stdout).toContain("helper says");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("the hook's own switches reach the daemon: off, observation only or reads only, nothing is rewritten", async () => {
    await submitPrompt("run the tests again");
    const pre = hookInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "npm test" } });
    const on = JSON.parse((await runAirlock(["hook", "claude-code"], box.env, pre)).stdout);
    expect(on.hookSpecificOutput.updatedInput.command).toContain(" futures serve ");
    for (const off of [
      { AIRLOCK_PRECOG: "0" },
      { PI_PRECOG: "0" },
      { AIRLOCK_PRECOG_TOOL_CACHE: "0" },
      { AIRLOCK_PRECOG_COMMAND_FUTURES: "0" },
    ]) {
      for (const agent of ["claude-code", "codex"]) {
        const r = await runAirlock(["hook", agent], { ...box.env, ...off }, pre);
        expect(r.code, JSON.stringify(off)).toBe(0);
        // Claude Code: a plain allow; Codex: no output (its allow).
        if (agent === "claude-code") {
          const output = JSON.parse(r.stdout).hookSpecificOutput;
          expect(output.permissionDecision).toBe("allow");
          expect(output.updatedInput, JSON.stringify(off)).toBeUndefined();
        } else expect(r.stdout, JSON.stringify(off)).toBe("");
      }
    }
  });

  it("MCP: the governed read and bash serve futures, byte for byte what a cold call returns", async () => {
    await submitPrompt("check src/helper.ts and run the tests");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--workspace", box.project],
      env: box.env as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "precog-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const hitsBefore = (await stats()).workspaces[0]?.classes.find((c) => c.class === "read")?.hits ?? 0;
      const served = await client.callTool({ name: "read", arguments: { path: "src/helper.ts" } });
      const hitsAfter = (await stats()).workspaces[0]?.classes.find((c) => c.class === "read")?.hits ?? 0;
      expect(hitsAfter).toBe(hitsBefore + 1);
      expect(served.content).toEqual([{ type: "text", text: "export const v = 2;\n" }]);
      const runsBefore = runs();
      const test = await client.callTool({ name: "bash", arguments: { command: "npm test" } });
      expect(runs()).toBe(runsBefore);
      expect(test.isError).toBe(true);
      const text = (test.content as { text: string }[])[0]?.text ?? "";
      expect(text).toContain("helper says export const v = 2;");
      expect(text).toMatch(/Command exited with code 3$/);
    } finally {
      await client.close();
    }
  });

  it("airlock futures status shows hits, misses by reason and time saved per class", async () => {
    const r = await runAirlock(["futures", "status"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("bash:npm test");
    expect(r.stdout).toMatch(/hits \d+, misses .*stale 1/);
  });
});
