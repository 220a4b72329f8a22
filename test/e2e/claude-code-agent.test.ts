// The real Claude Code CLI (`claude -p`, native binary) against a scripted Anthropic Messages server,
// with `airlock hook claude-code` as its PreToolUse hook: the allowed Bash command runs (Claude Code's own check,
// in acceptEdits mode, allows it too: Airlock's allow no longer skips that check), the denied one never does, and
// the model is told why. claude-code-compose.test.ts covers each composition of the two checks.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AIRLOCK_BIN,
  ECHO_YES_RM_NO,
  NODE,
  ROOT,
  type SealedHome,
  sealedHome,
} from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { claudeEnv } from "../support/claude-env.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";

const CLAUDE = join(ROOT, "node_modules/.bin/claude");

let base: string;
let ws: string;
let sealed: SealedHome;
let model: ModelServer;
let run: ProcessRun;

function runClaude(env: NodeJS.ProcessEnv, args: string[]): Promise<ProcessRun> {
  return runToEnd(CLAUDE, args, ws, env);
}

beforeAll(async () => {
  await ensureBuilt();
  base = mkdtempSync(join(tmpdir(), "airlock-cc-"));
  ws = join(base, "ws");
  mkdirSync(join(ws, "important"), { recursive: true });
  writeFileSync(join(ws, "important/keep.txt"), "do not delete\n");
  sealed = sealedHome(ECHO_YES_RM_NO);
  model = await startModelServer([
    {
      toolCalls: [
        { name: "Bash", input: { command: "echo hi > allowed.txt", description: "Create allowed.txt" } },
      ],
    },
    {
      toolCalls: [{ name: "Bash", input: { command: "rm -rf important", description: "Delete important" } }],
    },
  ]);
  const configDir = join(base, "claude-config");
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: [{ type: "command", command: `${NODE} ${AIRLOCK_BIN} hook claude-code` }] },
        ],
      },
    }),
  );
  run = await runClaude(
    {
      ...sealed.env,
      ...claudeEnv(model.url, configDir),
    },
    [
      "-p",
      "Create allowed.txt, then delete the important folder.",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
    ],
  );
}, 120_000);

afterAll(async () => {
  await model?.close();
  sealed?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("Claude Code with the Airlock PreToolUse hook", () => {
  it("completes the run against the scripted server only", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as {
      result: string;
      is_error: boolean;
      permission_denials: unknown[];
    };
    expect(result.is_error).toBe(false);
    expect(result.result).toBe("All done.");
    expect(result.permission_denials).toEqual([
      expect.objectContaining({
        tool_name: "Bash",
        tool_input: expect.objectContaining({ command: "rm -rf important" }),
      }),
    ]);
    expect(model.agentTurns().length).toBe(3);
  });

  it("ran the allowed command and never ran the denied one", () => {
    expect(readFileSync(join(ws, "allowed.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
  });

  it("returned tool results that show the allow and the deny with its reason", () => {
    const results = model.toolResults();
    expect(results).toHaveLength(2);
    const [allowed, denied] = results;
    expect(allowed).toMatchObject({ toolCallId: "toolu_0_0", isError: false });
    expect(allowed?.text).not.toMatch(/denied/i);
    expect(denied).toMatchObject({ toolCallId: "toolu_1_0", isError: true });
    expect(denied?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });
});

describe("Claude Code with `airlock mcp` registered as an MCP server", () => {
  let mcpModel: ModelServer;
  let mcpRun: typeof run;

  beforeAll(async () => {
    writeFileSync(join(ws, "notes.txt"), "the plan is in notes\n");
    writeFileSync(join(ws, ".env"), "API_KEY=never-shown-to-the-model\n");
    mcpModel = await startModelServer([
      { toolCalls: [{ name: "mcp__airlock__read", input: { path: "notes.txt" } }] },
      { toolCalls: [{ name: "mcp__airlock__read", input: { path: ".env" } }] },
      { toolCalls: [{ name: "mcp__airlock__bash", input: { command: "rm -rf important" } }] },
    ]);
    const configDir = join(base, "claude-config-mcp");
    mkdirSync(configDir, { recursive: true });
    // The same shape as a project's .mcp.json.
    const mcpConfig = join(base, "mcp.json");
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          airlock: { command: NODE, args: [AIRLOCK_BIN, "mcp", "--workspace", ws], env: sealed.env },
        },
      }),
    );
    mcpRun = await runClaude(
      {
        ...sealed.env,
        ...claudeEnv(mcpModel.url, configDir),
      },
      [
        "-p",
        "Read notes.txt and .env, then delete important.",
        "--output-format",
        "json",
        "--mcp-config",
        mcpConfig,
        "--strict-mcp-config",
        // Claude Code's own permission layer lets the Airlock tools through; Airlock decides inside them.
        "--allowedTools",
        "mcp__airlock__read,mcp__airlock__bash",
      ],
    );
  }, 120_000);

  afterAll(async () => {
    await mcpModel?.close();
  });

  it("serves an allowed read and refuses the secret and the denied command, through a real MCP client", () => {
    expect(mcpRun.code, `${mcpRun.stdout}\n${mcpRun.stderr}`).toBe(0);
    const [notes, secret, rm] = mcpModel.toolResults();
    expect(notes).toMatchObject({ toolCallId: "toolu_0_0", isError: false });
    expect(notes?.text).toContain("the plan is in notes");
    expect(secret).toMatchObject({ toolCallId: "toolu_1_0", isError: true });
    expect(secret?.text).toMatch(/secret-path denylist/);
    expect(rm).toMatchObject({ toolCallId: "toolu_2_0", isError: true });
    expect(rm?.text).toMatch(/rm is not allowed here/);
    expect(JSON.stringify(mcpModel.requests.map((r) => r.body))).not.toContain("never-shown-to-the-model");
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
  });
});
