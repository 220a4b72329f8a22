// The daemon's one transport when the edge goes away: a restart is ridden out (waiting calls are resubmitted on the
// next welcome and answered), and an edge that stays away is reported at once to every waiting call with the real
// reason, not after the prompt timeout as "no one answered in time".

import { writeFileSync } from "node:fs";
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

const EMERGENCY = { readOnly: false, disableHighImpact: false, blockedTools: [] as string[] };

/** A loopback hub on a fixed port that can be stopped and started again, like an edge restart. */
class LoopbackHub {
  http: Server | undefined;
  wss: WebSocketServer | undefined;
  sockets = new Set<WebSocket>();
  hellos = 0;
  requests: string[] = [];
  #waiters: Array<() => void> = [];
  port = 0;

  async start(port = 0): Promise<void> {
    this.http = createServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "not_found", message: "loopback hub: no REST here" } }));
    });
    this.wss = new WebSocketServer({ server: this.http });
    this.wss.on("connection", (ws) => {
      this.sockets.add(ws);
      ws.on("close", () => this.sockets.delete(ws));
      ws.on("message", (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.type === "hello") {
          this.hellos++;
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
          this.requests.push(msg.request.call_id);
          ws.send(
            JSON.stringify({
              type: "decision_pending",
              id: msg.id,
              callId: msg.request.call_id,
              promptId: "p-1",
            }),
          );
        }
        for (const w of this.#waiters.splice(0)) w();
      });
    });
    await new Promise<void>((r) => this.http?.listen(port, "127.0.0.1", () => r()));
    this.port = (this.http.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((r) => (this.wss ? this.wss.close(() => r()) : r()));
    await new Promise<void>((r) => (this.http ? this.http.close(() => r()) : r()));
  }

  decide(callId: string, decision: "allow" | "deny"): void {
    for (const ws of this.sockets)
      ws.send(
        JSON.stringify({
          type: "capability_decision",
          data: {
            call_id: callId,
            decision,
            reason: `${decision} on the phone`,
            source: "user",
            prompt_id: "p-1",
          },
        }),
      );
  }

  next(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the hub did not see it")), timeoutMs);
      const poll = () => {
        if (check()) {
          clearTimeout(timer);
          resolve();
        } else this.#waiters.push(poll);
      };
      poll();
    });
  }
}

let box: Sandbox;
let daemon: Daemon;
const hub = new LoopbackHub();

beforeAll(async () => {
  await ensureBuilt();
  await hub.start();
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "30000", AIRLOCK_EDGE_GRACE_MS: "1500" });
  box.writePolicy(
    'default_action: ask\nrules:\n  - name: reads\n    condition: tool == "read"\n    action: allow\n',
  );
  writeFileSync(
    join(box.airlockHome, "credentials.json"),
    JSON.stringify({
      server: `http://127.0.0.1:${hub.port}`,
      token: "alk_t.s",
      device_id: "d1",
      user_id: "u1",
    }),
    { mode: 0o600 },
  );
  daemon = await startDaemon(box.env);
  await hub.next(() => hub.hellos >= 1);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await hub.stop();
  box?.cleanup();
});

function ask(id: string): Promise<{ stdout: string }> {
  const stdin = JSON.stringify({
    session_id: "s",
    cwd: box.project,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "make deploy" },
    tool_use_id: id,
  });
  return runAirlock(["hook", "claude-code"], box.env, stdin);
}

const outputOf = (r: { stdout: string }) => JSON.parse(r.stdout).hookSpecificOutput;

describe("the daemon when the edge goes away", { timeout: 60_000 }, () => {
  it("rides out an edge restart: the waiting call is resubmitted on reconnect and the phone's answer arrives", async () => {
    const hook = ask("toolu_restart");
    await hub.next(() => hub.requests.includes("cc:toolu_restart"));
    const port = hub.port;
    const hellos = hub.hellos;
    await hub.stop();
    await hub.start(port);
    await hub.next(() => hub.hellos > hellos);
    // The same call, sent again on the new socket (the edge answers a known call id with its prompt).
    await hub.next(() => hub.requests.filter((c) => c === "cc:toolu_restart").length >= 2);
    hub.decide("cc:toolu_restart", "allow");
    expect(outputOf(await hook)).toMatchObject({
      permissionDecision: "allow",
      permissionDecisionReason: "allow on the phone",
    });
  });

  it("an edge that stays away denies the waiting call with the real reason well before the prompt timeout", async () => {
    const started = Date.now();
    const hook = ask("toolu_gone");
    await hub.next(() => hub.requests.includes("cc:toolu_gone"));
    await hub.stop();
    const out = outputOf(await hook);
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(
      new RegExp(
        `needs a person's approval, but the Airlock edge at http://127\\.0\\.0\\.1:${hub.port} could not be reached`,
      ),
    );
    expect(out.permissionDecisionReason).not.toMatch(/no one answered/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("while the edge is away, a new call that needs a person is denied at once; local decisions go on", async () => {
    const started = Date.now();
    const out = outputOf(await ask("toolu_while_gone"));
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toMatch(/could not be reached/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const read = await runAirlock(
      ["hook", "claude-code"],
      box.env,
      JSON.stringify({
        session_id: "s",
        cwd: box.project,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(box.project, "a.ts") },
        tool_use_id: "toolu_read_gone",
      }),
    );
    // A policy allow says nothing: Claude Code's own permission check still runs (never weaker than the agent alone).
    expect(read).toMatchObject({ code: 0, stdout: "" });
  });

  it("when the edge is back, calls reach the phone again", async () => {
    const hellos = hub.hellos;
    await hub.start(hub.port);
    await hub.next(() => hub.hellos > hellos, 30_000);
    const hook = ask("toolu_back");
    await hub.next(() => hub.requests.includes("cc:toolu_back"));
    hub.decide("cc:toolu_back", "deny");
    expect(outputOf(await hook)).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "deny on the phone",
    });
  });
});
