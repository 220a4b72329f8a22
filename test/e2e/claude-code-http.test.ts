// The real Claude Code CLI with Airlock installed by `airlock hook claude-code --install` as `"type": "http"` hooks:
// no daemon at first, the SessionStart command hook starts one, every tool call then posts to the daemon; the
// allowed command runs and the denied one's reason reaches the model; a call that needs a person is approved
// through the edge's API (the phone) and runs; with the daemon down (and not allowed to start), the call is blocked,
// never run ungated.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureBuilt,
  runAirlock,
  type Sandbox,
  sandbox,
  startDaemon,
  until,
} from "../node/companion/support/sandbox.ts";
import { ECHO_YES_RM_NO, ROOT } from "../support/airlock-env.ts";
import { claudeEnv } from "../support/claude-env.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { runToEnd } from "../support/run-process.ts";
import { type Edge, startEdge } from "./support/edge.ts";

const BIN_DIR = join(ROOT, "node_modules/.bin");
const CLAUDE = join(BIN_DIR, "claude");

interface Installed {
  box: Sandbox;
  configDir: string;
  env: NodeJS.ProcessEnv;
}

/** A sandbox whose PATH finds Claude Code (the installer asks `claude --version`), with Airlock's hooks installed. */
async function installed(extra: NodeJS.ProcessEnv, policy: string): Promise<Installed> {
  const box = sandbox(extra);
  box.writePolicy(policy);
  const configDir = join(box.dir, "claude-config");
  mkdirSync(configDir, { recursive: true });
  const env = { ...box.env, PATH: `${BIN_DIR}${delimiter}${box.env.PATH}`, CLAUDE_CONFIG_DIR: configDir };
  const res = await runAirlock(["hook", "claude-code", "--install", "--json"], env);
  expect(res.code, res.stderr).toBe(0);
  expect(JSON.parse(res.stdout).hookType).toMatch(/^http \(Claude Code 2\./);
  return { box, configDir, env };
}

function runClaude(inst: Installed, model: ModelServer, prompt: string) {
  // acceptEdits: Claude Code's own check lets a shell write in the workspace run (Airlock's policy allow does not).
  const args = ["-p", prompt, "--output-format", "json", "--permission-mode", "acceptEdits"];
  return runToEnd(CLAUDE, args, inst.box.project, {
    ...inst.env,
    ...claudeEnv(model.url, inst.configDir),
  });
}

/** Stops a daemon a hook started on demand (by its pid, from `airlock status`). */
async function stopOnDemandDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  const status = await runAirlock(["status", "--json"], env);
  if (status.code !== 0) return;
  const pid = (JSON.parse(status.stdout) as { pid?: number }).pid;
  if (pid) process.kill(pid, "SIGTERM");
}

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

describe("http hooks: install, allow, deny reason, the daemon started by the session hook", () => {
  let inst: Installed;
  let model: ModelServer;
  let run: Awaited<ReturnType<typeof runClaude>>;

  beforeAll(async () => {
    inst = await installed({ AIRLOCK_AUTOSTART: "1" }, ECHO_YES_RM_NO);
    mkdirSync(join(inst.box.project, "important"));
    writeFileSync(join(inst.box.project, "important/keep.txt"), "keep\n");
    model = await startModelServer([
      { toolCalls: [{ name: "Bash", input: { command: "echo hi > allowed.txt", description: "write" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf important", description: "delete" } }] },
    ]);
    run = await runClaude(inst, model, "Create allowed.txt, then delete the important folder.");
  }, 180_000);

  afterAll(async () => {
    await stopOnDemandDaemon(inst.env);
    await model?.close();
    inst?.box.cleanup();
  });

  it("writes http hooks for the per-call events, with the secret only in 0600 files", () => {
    const settingsPath = join(inst.configDir, "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8"));
    const pre = settings.hooks.PreToolUse[0].hooks[0];
    expect(pre).toMatchObject({ type: "http", onFailure: "block" });
    expect(pre.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/claude-code$/);
    expect(settings.hooks.PermissionRequest[0].hooks[0].type).toBe("http");
    expect(settings.hooks.SessionStart[0].hooks[0].type).toBe("command");
    expect(statSync(settingsPath).mode & 0o077).toBe(0);
    expect(statSync(join(inst.box.airlockHome, "http-hook.json")).mode & 0o077).toBe(0);
  });

  it("runs the allowed command and tells the model the deny's reason", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(readFileSync(join(inst.box.project, "allowed.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(join(inst.box.project, "important/keep.txt"))).toBe(true);
    const [allowed, denied] = model.toolResults();
    expect(allowed).toMatchObject({ isError: false });
    expect(denied).toMatchObject({ isError: true });
    expect(denied?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });

  it("was answered by the daemon the session hook started, which audited both calls", () => {
    const log = readFileSync(join(inst.box.airlockHome, "daemon.log"), "utf8");
    expect(log).toMatch(/http hooks listening on 127\.0\.0\.1:\d+/);
    const audit = readFileSync(join(inst.box.airlockHome, "state/audit-queue.jsonl"), "utf8");
    expect(audit).toMatch(/"call_id":"cc:toolu_0_0".*"action":"allow"/);
    expect(audit).toMatch(/"call_id":"cc:toolu_1_0".*"action":"deny","layer":"user","rule":"No rm"/);
  });
});

describe("http hooks with the daemon down", () => {
  let inst: Installed;
  let model: ModelServer;

  beforeAll(async () => {
    // AIRLOCK_AUTOSTART=0: the session hook may not start a daemon, so nothing answers the http hook.
    inst = await installed({ AIRLOCK_AUTOSTART: "0" }, ECHO_YES_RM_NO);
    model = await startModelServer([
      { toolCalls: [{ name: "Bash", input: { command: "echo ungated > ran.txt", description: "write" } }] },
    ]);
  }, 60_000);

  afterAll(async () => {
    await model?.close();
    inst?.box.cleanup();
  });

  it("blocks the call instead of running it ungated", async () => {
    const run = await runClaude(inst, model, "Write ran.txt.");
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(existsSync(join(inst.box.project, "ran.txt"))).toBe(false);
    const [result] = model.toolResults();
    expect(result).toMatchObject({ isError: true });
    expect(result?.text).toMatch(/PreToolUse:Bash hook error/);
  }, 120_000);
});

describe("http hooks and the phone", () => {
  let edge: Edge;
  let inst: Installed;
  let model: ModelServer;
  let phone: string;

  async function api(path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${edge.base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${phone}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    edge = await startEdge();
    inst = await installed(
      { AIRLOCK_AUTOSTART: "0", AIRLOCK_PROMPT_TIMEOUT_MS: "60000" },
      `version: 1
default_action: deny
rules:
  - name: Write inside the workspace
    condition: tool == "write" && path.startsWith(cwd)
    action: allow
  - name: Ask before any shell command
    condition: tool == "bash"
    action: ask
`,
    );
    const paired = await runAirlock(
      ["pair", await edge.newCode(), "--server", edge.base, "--json"],
      inst.env,
    );
    expect(paired.code, paired.stderr).toBe(0);
    phone = (await edge.pairDevice("browser", "e2e phone")).token;
    model = await startModelServer([
      {
        toolCalls: [{ name: "Bash", input: { command: "echo approved > phone.txt", description: "write" } }],
      },
    ]);
  }, 240_000);

  afterAll(async () => {
    await model?.close();
    await edge?.stop();
    inst?.box.cleanup();
  });

  it("a call that needs a person waits for the phone; the approval runs it", async () => {
    const daemon = await startDaemon(inst.env);
    try {
      await until(() => daemon.log().includes("edge connected"), 30_000, "daemon connected to the edge");
      const agent = runClaude(inst, model, "Write phone.txt.");
      let approved = false;
      const deadline = Date.now() + 60_000;
      while (!approved && Date.now() < deadline) {
        const { body } = await api("/v1/approvals?status=pending");
        const card = (body as { approvals: { promptId: string; requiresConfirmation: boolean }[] })
          .approvals[0];
        if (card) {
          let token: string | undefined;
          if (card.requiresConfirmation)
            token = ((await api(`/v1/approvals/${card.promptId}/confirm`, {})).body as { token: string })
              .token;
          const res = await api(
            `/v1/approvals/${card.promptId}/approve`,
            token ? { scope: "once", confirmation_token: token } : { scope: "once" },
          );
          expect(res.status).toBe(200);
          approved = true;
        } else await new Promise((r) => setTimeout(r, 200));
      }
      expect(approved, JSON.stringify(model.toolResults())).toBe(true);
      const run = await agent;
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(readFileSync(join(inst.box.project, "phone.txt"), "utf8")).toBe("approved\n");
      expect(model.toolResults()[0]).toMatchObject({ isError: false });
    } finally {
      await daemon.stop();
    }
  }, 180_000);
});

// The http endpoint rejects what a web page could send: checked here against the daemon the real install set up.
describe("the endpoint refuses other origins and callers without the secret", () => {
  let inst: Installed;

  beforeAll(async () => {
    inst = await installed({ AIRLOCK_AUTOSTART: "0" }, ECHO_YES_RM_NO);
  }, 60_000);

  afterAll(() => inst?.box.cleanup());

  it("answers only the installed hook's exact request", async () => {
    const daemon = await startDaemon(inst.env);
    try {
      const { port, secret } = JSON.parse(readFileSync(join(inst.box.airlockHome, "http-hook.json"), "utf8"));
      const url = `http://127.0.0.1:${port}/hooks/claude-code`;
      const event = JSON.stringify({
        session_id: "s",
        cwd: inst.box.project,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "rm -rf /" },
        tool_use_id: "toolu_x",
      });
      const post = (headers: Record<string, string>) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: event,
        });
      expect((await post({})).status).toBe(401);
      expect((await post({ "x-airlock-hook-secret": "0".repeat(64) })).status).toBe(401);
      expect((await post({ "x-airlock-hook-secret": secret, origin: "https://evil.example" })).status).toBe(
        403,
      );
      const ok = await post({ "x-airlock-hook-secret": secret });
      expect(ok.status).toBe(200);
      expect(JSON.parse(await ok.text()).hookSpecificOutput.permissionDecision).toBe("deny");
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});
