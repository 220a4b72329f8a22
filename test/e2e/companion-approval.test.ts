// The companion against a real local edge (wrangler dev): a hook call that needs a person is approved through the
// API and the hook prints allow; the daemon killed mid-wait and restarted still delivers it; a hook killed mid-wait
// gets the answer on retry; with the edge stopped, an ask is denied with a reason.
import { type ChildProcess, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BIN,
  type Daemon,
  ensureBuilt,
  runAirlock,
  type Sandbox,
  sandbox,
  startDaemon,
  until,
} from "../node/companion/support/sandbox.ts";
import { type Edge, startEdge } from "./support/edge.ts";

const POLICY = `
default_action: ask
rules:
  - name: reads
    condition: tool == "read"
    action: allow
`;

let edge: Edge;
let box: Sandbox;
let daemon: Daemon | undefined;
let phone: string;

interface Approval {
  promptId: string;
  callIds: string[];
  requiresConfirmation: boolean;
}

async function api(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${edge.base}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${phone}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json() };
}

/** The pending prompt covering `callId`, once the edge shows it (polled: the edge has no push for scripts). */
async function pendingFor(callId: string): Promise<Approval> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await api("/v1/approvals?status=pending");
    const found = (body as { approvals: Approval[] }).approvals.find((a) => a.callIds.includes(callId));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no pending approval for ${callId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Approves once, confirming first when the prompt is high-risk. */
async function approve(prompt: Approval): Promise<void> {
  let token: string | undefined;
  if (prompt.requiresConfirmation) {
    const confirm = await api(`/v1/approvals/${prompt.promptId}/confirm`, { method: "POST" });
    expect(confirm.status).toBe(201);
    token = (confirm.body as { token: string }).token;
  }
  const res = await api(`/v1/approvals/${prompt.promptId}/approve`, {
    method: "POST",
    body: token ? { scope: "once", confirmation_token: token } : { scope: "once" },
  });
  expect(res.status).toBe(200);
}

function hookInput(toolUseId: string, tool_name: string, tool_input: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "e2e-session",
    cwd: box.project,
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
    tool_use_id: toolUseId,
  });
}

/** Starts a hook process without waiting for it; `done` resolves with its output. */
function startHook(stdin: string): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string }>;
} {
  const child = spawn(process.execPath, [BIN, "hook", "claude-code"], {
    env: box.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout })),
  );
  child.stdin?.end(stdin);
  return { child, done };
}

function decisionOf(stdout: string): { permissionDecision: string; permissionDecisionReason: string } {
  return JSON.parse(stdout).hookSpecificOutput;
}

async function connectedDaemon(): Promise<Daemon> {
  const d = await startDaemon(box.env);
  await until(() => d.log().includes("edge connected"), 30_000, "daemon connected to the edge");
  return d;
}

beforeAll(async () => {
  await ensureBuilt();
  edge = await startEdge();
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "40000" });
  box.writePolicy(POLICY);
  const paired = await runAirlock(["pair", await edge.newCode(), "--server", edge.base, "--json"], box.env);
  expect(paired.code).toBe(0);
  expect(paired.stdout).not.toContain("alk_");
  phone = (await edge.pairDevice("browser", "e2e phone")).token;
  daemon = await connectedDaemon();
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await edge?.stop();
  box?.cleanup();
});

describe("companion ↔ edge", () => {
  it("a call that needs a person waits for the phone; approval through the API makes the hook print allow", async () => {
    const hook = startHook(
      hookInput("toolu_e2e_1", "WebFetch", { url: "https://example.com/page", prompt: "read" }),
    );
    const prompt = await pendingFor("cc:toolu_e2e_1");
    // An undeclared host is high risk: this exercises confirm → approve with the confirmation token.
    expect(prompt.requiresConfirmation).toBe(true);
    const status = JSON.parse((await runAirlock(["status", "--json"], box.env)).stdout);
    expect(status.connection.state).toBe("connected");
    expect(status.pending.map((p: { callId: string }) => p.callId)).toContain("cc:toolu_e2e_1");
    await approve(prompt);
    const out = await hook.done;
    expect(out.code).toBe(0);
    expect(decisionOf(out.stdout)).toMatchObject({ permissionDecision: "allow" });
  });

  it("local decisions answer at once and reach the edge's audit", async () => {
    const r = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("toolu_local", "Read", { file_path: join(box.project, "a") }),
    );
    // A policy allow says nothing: Claude Code's own permission check still runs (never weaker than the agent alone).
    expect(r).toMatchObject({ code: 0, stdout: "" });
    const deadline = Date.now() + 20_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      const res = await fetch(`${edge.base}/v1/audit?limit=200`, {
        headers: { authorization: `Bearer ${phone}` },
      });
      found = (await res.text()).includes("cc:toolu_local");
      if (!found) await new Promise((r) => setTimeout(r, 300));
    }
    expect(found).toBe(true);
  });

  it("a hook killed mid-wait loses nothing: the retried call gets the person's answer from the journal", async () => {
    const stdin = hookInput("toolu_e2e_retry", "Bash", { command: "make release" });
    const first = startHook(stdin);
    const prompt = await pendingFor("cc:toolu_e2e_retry");
    first.child.kill("SIGKILL");
    await first.done;
    await approve(prompt);
    const retry = await runAirlock(["hook", "claude-code"], box.env, stdin);
    expect(decisionOf(retry.stdout).permissionDecision).toBe("allow");
  });

  it("the daemon killed mid-wait and restarted still delivers the decision", async () => {
    const hook = startHook(hookInput("toolu_e2e_restart", "Bash", { command: "make deploy" }));
    const prompt = await pendingFor("cc:toolu_e2e_restart");
    await daemon?.stop("SIGKILL");
    daemon = await connectedDaemon();
    expect(daemon.log()).toContain("resuming 1 call(s) that were waiting for a person");
    await approve(prompt);
    const out = await hook.done;
    expect(decisionOf(out.stdout)).toMatchObject({ permissionDecision: "allow" });
  });

  it("pairing stored the credentials 0600 and doctor passes against the live edge", async () => {
    expect(statSync(join(box.airlockHome, "credentials.json")).mode & 0o777).toBe(0o600);
    const r = await runAirlock(["doctor", "--json"], box.env);
    const checks = JSON.parse(r.stdout) as { check: string; status: string }[];
    const byName = Object.fromEntries(checks.map((c) => [c.check, c.status]));
    expect(byName).toMatchObject({ credentials: "ok", edge: "ok", token: "ok", daemon: "ok", policy: "ok" });
    expect(r.code).toBe(0);
  });

  it("emergency controls pushed by the edge apply to the very next local decision", async () => {
    const read = (id: string) => hookInput(id, "Read", { file_path: join(box.project, "c") });
    // A policy allow prints nothing (Claude Code's own check runs); the emergency block is a deny.
    expect(await runAirlock(["hook", "claude-code"], box.env, read("toolu_em_0"))).toMatchObject({
      code: 0,
      stdout: "",
    });
    const set = await api("/v1/settings/emergency", { method: "POST", body: { blockedTools: ["read"] } });
    expect(set.status).toBe(200);
    await until(
      () => daemon?.log().includes('"blockedTools":["read"]'),
      20_000,
      "the daemon to receive the emergency push",
    );
    const blocked = decisionOf(
      (await runAirlock(["hook", "claude-code"], box.env, read("toolu_em_1"))).stdout,
    );
    expect(blocked.permissionDecision).toBe("deny");
    expect(blocked.permissionDecisionReason).toMatch(/emergency/);
    await api("/v1/settings/emergency", { method: "POST", body: { blockedTools: [] } });
    await until(() => daemon?.log().includes('"blockedTools":[]'), 20_000, "the emergency to be lifted");
    expect(await runAirlock(["hook", "claude-code"], box.env, read("toolu_em_2"))).toMatchObject({
      code: 0,
      stdout: "",
    });
  });

  it("a revoked device is told so: status shows revoked and a call that needs a person is denied", async () => {
    const other = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "40000" });
    try {
      other.writePolicy(POLICY);
      const paired = await runAirlock(
        ["pair", await edge.newCode(), "--server", edge.base, "--json"],
        other.env,
      );
      const deviceId = (JSON.parse(paired.stdout) as { device_id: string }).device_id;
      const d = await startDaemon(other.env);
      try {
        await until(() => d.log().includes("edge connected"), 30_000, "second daemon connected");
        expect((await api(`/v1/devices/${deviceId}/revoke`, { method: "POST" })).status).toBe(200);
        await until(() => d.log().includes("edge revoked"), 20_000, "the daemon to learn it was revoked");
        const status = JSON.parse((await runAirlock(["status", "--json"], other.env)).stdout);
        expect(status.connection.state).toBe("revoked");
        const input = JSON.stringify({
          session_id: "rev",
          cwd: other.project,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: "make ship" },
          tool_use_id: "toolu_revoked",
        });
        const r = await runAirlock(["hook", "claude-code"], other.env, input);
        expect(decisionOf(r.stdout)).toMatchObject({
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringMatching(/revoked/),
        });
      } finally {
        await d.stop("SIGKILL");
      }
    } finally {
      other.cleanup();
    }
  });

  it("with the edge stopped, a call that needs a person is denied with a reason; local allows still work", async () => {
    await edge.stop();
    await until(
      () => daemon?.log().includes("edge disconnected"),
      30_000,
      "the daemon to notice the edge is gone",
    );
    const r = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("toolu_e2e_down", "Bash", { command: "make publish" }),
    );
    const out = decisionOf(r.stdout);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/could not be reached/);
    const local = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("toolu_e2e_down_read", "Read", { file_path: join(box.project, "b") }),
    );
    expect(local).toMatchObject({ code: 0, stdout: "" });
    // And without the daemon, straight to the (stopped) edge: the same fail-closed answer.
    await daemon?.stop("SIGTERM");
    daemon = undefined;
    const direct = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      hookInput("toolu_e2e_down2", "Bash", { command: "make publish" }),
    );
    expect(decisionOf(direct.stdout)).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(/could not be reached/),
    });
  });
});
