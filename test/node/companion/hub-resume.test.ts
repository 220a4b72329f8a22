// The daemon's hub link against a loopback hub: a dropped socket reconnects and resumes the call in flight
// (hello.resume), the decision that arrives after the reconnect reaches the waiting hook, emergency pushes apply
// at once, and a 4001 close marks the device revoked.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import {
  type Daemon,
  ensureBuilt,
  runAirlock,
  type Sandbox,
  sandbox,
  startDaemon,
} from "./support/sandbox.ts";

interface Hello {
  type: "hello";
  resume?: string[];
}

let box: Sandbox;
let http: Server;
let wss: WebSocketServer;
let daemon: Daemon;
const hellos: Hello[] = [];
const authorizations: (string | undefined)[] = [];
const requests: { id?: string; request: { call_id: string } }[] = [];
const waiters: Array<() => void> = [];
let current: WebSocket | undefined;
const EMERGENCY = { readOnly: false, disableHighImpact: false, blockedTools: [] as string[] };

/** Resolves at the next message the hub receives that satisfies `check`. */
function nextMessage(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("hub message did not arrive")), timeoutMs);
    const poll = () => {
      if (check()) {
        clearTimeout(timer);
        resolve();
      } else waiters.push(poll);
    };
    poll();
  });
}

beforeAll(async () => {
  await ensureBuilt();
  http = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "not_found", message: "loopback hub: no REST here" } }));
  });
  wss = new WebSocketServer({ server: http });
  wss.on("connection", (ws, req) => {
    authorizations.push(req.headers.authorization);
    current = ws;
    ws.on("message", (data) => {
      const msg = JSON.parse(data.toString());
      if (msg.type === "hello") {
        hellos.push(msg);
        ws.send(
          JSON.stringify({
            type: "welcome",
            role: "companion",
            deviceId: "d1",
            serverTime: new Date().toISOString(),
            emergency: EMERGENCY,
          }),
        );
      } else if (msg.type === "tool_request") {
        requests.push(msg);
        ws.send(
          JSON.stringify({
            type: "decision_pending",
            id: msg.id,
            callId: msg.request.call_id,
            promptId: "prompt-1",
          }),
        );
      }
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  const port = (http.address() as AddressInfo).port;
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "30000" });
  box.writePolicy(
    'default_action: ask\nrules:\n  - name: reads\n    condition: tool == "read"\n    action: allow\n',
  );
  writeFileSync(
    join(box.airlockHome, "credentials.json"),
    JSON.stringify({
      server: `http://127.0.0.1:${port}`,
      token: "alk_test.secret",
      device_id: "d1",
      user_id: "u1",
    }),
    { mode: 0o600 },
  );
  daemon = await startDaemon(box.env);
  await nextMessage(() => hellos.length >= 1);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  wss?.close();
  http?.close();
  box?.cleanup();
});

async function status(): Promise<{
  connection: { state: string };
  emergency: typeof EMERGENCY;
  pending: { callId: string; promptId?: string }[];
}> {
  return JSON.parse((await runAirlock(["status", "--json"], box.env)).stdout);
}

describe("daemon ↔ hub", { timeout: 60_000 }, () => {
  it("a dropped socket reconnects, resumes the waiting call, and the late decision reaches the hook", async () => {
    const stdin = JSON.stringify({
      session_id: "s",
      cwd: box.project,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "make deploy" },
      tool_use_id: "toolu_resume",
    });
    const hook = runAirlock(["hook", "claude-code"], box.env, stdin);
    await nextMessage(() => requests.some((r) => r.request.call_id === "cc:toolu_resume"));
    const helloCount = hellos.length;
    current?.terminate();
    await nextMessage(() => hellos.length > helloCount);
    expect(hellos.at(-1)?.resume).toContain("cc:toolu_resume");
    expect(new Set(authorizations)).toEqual(new Set(["Bearer alk_test.secret"]));
    const pending = await status();
    expect(pending.pending).toEqual([
      expect.objectContaining({ callId: "cc:toolu_resume", promptId: "prompt-1" }),
    ]);
    current?.send(
      JSON.stringify({
        type: "capability_decision",
        data: {
          call_id: "cc:toolu_resume",
          decision: "allow",
          reason: "approved on the phone",
          source: "user",
          prompt_id: "prompt-1",
        },
      }),
    );
    const r = await hook;
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "allow",
      permissionDecisionReason: "approved on the phone",
    });
    expect((await status()).pending).toEqual([]);
  });

  it("never writes file contents to the journal or sends them to the hub", async () => {
    const stdin = JSON.stringify({
      session_id: "s",
      cwd: box.project,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(box.project, ".env"), content: "API_KEY=TOPSECRET-JOURNAL" },
      tool_use_id: "toolu_secret",
    });
    const hook = runAirlock(["hook", "claude-code"], box.env, stdin);
    await nextMessage(() => requests.some((r) => r.request.call_id === "cc:toolu_secret"));
    const calls = join(box.airlockHome, "state", "calls");
    // Only the committed entries: a `.tmp` is a write in flight that the daemon renames as we list.
    const journal = readdirSync(calls)
      .filter((f) => !f.endsWith(".tmp"))
      .map((f) => readFileSync(join(calls, f), "utf8"));
    expect(journal.join("\n")).toContain("cc:toolu_secret");
    expect(journal.join("\n")).not.toContain("TOPSECRET-JOURNAL");
    expect(JSON.stringify(requests)).not.toContain("TOPSECRET-JOURNAL");
    current?.send(
      JSON.stringify({
        type: "capability_decision",
        data: { call_id: "cc:toolu_secret", decision: "deny", reason: "denied on the phone", source: "user" },
      }),
    );
    expect(JSON.parse((await hook).stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("applies an emergency push to the next decision", async () => {
    current?.send(JSON.stringify({ type: "emergency_updated", data: { ...EMERGENCY, readOnly: true } }));
    const input = (tool_name: string, tool_input: Record<string, unknown>) =>
      JSON.stringify({
        session_id: "s",
        cwd: box.project,
        hook_event_name: "PreToolUse",
        tool_name,
        tool_input,
        tool_use_id: `t${Math.random()}`,
      });
    // Status is answered by the same daemon, after the push was processed: the push is applied in order.
    expect((await status()).emergency.readOnly).toBe(true);
    const write = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      input("Write", { file_path: join(box.project, "x"), content: "" }),
    );
    expect(JSON.parse(write.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(/read-only/),
    });
    const read = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      input("Read", { file_path: join(box.project, "x") }),
    );
    // A policy allow says nothing: Claude Code's own permission check still runs (never weaker than the agent alone).
    expect(read).toMatchObject({ code: 0, stdout: "" });
  });

  it("a 4001 close marks the device revoked and stops reconnecting", async () => {
    const helloCount = hellos.length;
    current?.close(4001, "device revoked");
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no revoked log")), 20_000);
      const check = () => {
        if (daemon.log().includes("edge revoked")) {
          clearTimeout(timer);
          resolve();
        }
      };
      daemon.child.stderr?.on("data", check);
      check();
    });
    expect((await status()).connection.state).toBe("revoked");
    expect(hellos.length).toBe(helloCount);
  });
});
