// Pi's session_start warm-up against a real `airlock up`: it loads the directory's policy in the daemon and
// runs Pi's replays, but never decides, audits, serves, warms or runs anything; and a call after it is still
// decided by policy at the moment it is made (a command denied since its warm is never served).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warmUpReplays } from "../../../../src/companion/adapters/pi/precognition.ts";
import { type AgentToolCall, requestDecision } from "../../../../src/companion/control/client.ts";
import { keepControlConnection, sendControl } from "../../../../src/companion/control/connection.ts";
import type { DaemonStatus } from "../../../../src/companion/control/protocol.ts";
import { warmUpClient } from "../../../../src/companion/control/warm-up.ts";
import { futuresStatus, serveFuture, warmFutures } from "../../../../src/companion/futures/client.ts";
import type { FuturesStats } from "../../../../src/protocol/futures.ts";
import { type Daemon, ensureBuilt, type Sandbox, sandbox, startDaemon } from "../support/sandbox.ts";

const ALLOWS_TESTS = `
default_action: deny
rules:
  - name: reads
    condition: tool == "read"
    action: allow
  - name: tests
    condition: tool == "bash" && command == "npm test"
    action: allow
`;
const DENIES_TESTS = `
default_action: deny
rules:
  - name: reads
    condition: tool == "read"
    action: allow
  - name: no tests now
    condition: tool == "bash" && command == "npm test"
    action: deny
`;

// Each run of the suite appends a line, so a served answer (no new line) is told apart from a real run.
const TEST_SCRIPT = `require("fs").appendFileSync("runs.log", "run\\n");
console.log("3 passing");
`;

let box: Sandbox;
let daemon: Daemon;

function runs(): number {
  const path = join(box.project, "runs.log");
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0;
}

async function daemonStatus(cwd?: string): Promise<DaemonStatus> {
  const res = await sendControl(box.socket, cwd ? { type: "status", cwd } : { type: "status" }, 5_000);
  if (res.type !== "status") throw new Error(`unexpected ${res.type}`);
  return res.status;
}

function totals(stats: FuturesStats | null): { warms: number; hits: number; misses: number } {
  const classes = stats?.workspaces.flatMap((w) => w.classes) ?? [];
  return {
    warms: classes.reduce((n, c) => n + c.warms, 0),
    hits: classes.reduce((n, c) => n + c.hits, 0),
    misses: classes.reduce((n, c) => n + Object.values(c.misses).reduce((a, b) => a + (b ?? 0), 0), 0),
  };
}

const npmTest = (n: number): AgentToolCall => ({
  callId: `warm-up-${n}`,
  sessionId: "s-warm-up",
  agent: { id: "pi", name: "Pi coding agent" },
  tool: "bash",
  input: { command: "npm test" },
  cwd: box.project,
  hasUI: false,
});

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({ AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" });
  box.writePolicy(ALLOWS_TESTS);
  mkdirSync(join(box.project, "test"), { recursive: true });
  writeFileSync(join(box.project, "package.json"), JSON.stringify({ scripts: { test: "node test/run.js" } }));
  writeFileSync(join(box.project, "test/run.js"), TEST_SCRIPT);
  daemon = await startDaemon(box.env);
  keepControlConnection();
}, 180_000);

afterAll(async () => {
  keepControlConnection(false);
  await daemon?.stop("SIGKILL");
  box?.cleanup();
});

describe("Pi's session_start warm-up", { timeout: 60_000 }, () => {
  it("loads the directory's policy, and decides, audits, warms, serves and runs nothing", async () => {
    const before = await daemonStatus();
    const futuresBefore = totals(await futuresStatus(box.env));
    expect(before.policy.map((p) => p.cwd)).not.toContain(box.project);

    await warmUpClient(box.project, box.env);
    const ctx = {
      cwd: box.project,
      sessionManager: { getSessionId: () => "s-warm-up", getSessionFile: () => undefined },
    } as unknown as ExtensionContext;
    await warmUpReplays(ctx, true);

    const after = await daemonStatus();
    expect(after.policy.map((p) => p.cwd)).toContain(box.project);
    expect(after.decisions).toBe(before.decisions);
    expect(after.auditQueued).toBe(before.auditQueued);
    expect(after.pending).toEqual([]);
    expect(totals(await futuresStatus(box.env))).toEqual(futuresBefore);
    expect(runs()).toBe(0);
    expect(existsSync(join(box.project, "airlock-warm-up.txt"))).toBe(false);
  });

  it("a call after it is still decided by policy: allowed and served, then denied and never served", async () => {
    await warmUpClient(box.project, box.env);
    await warmFutures(box.project, "prompt", "run the tests", box.env);
    expect((await requestDecision(npmTest(1), { env: box.env })).decision).toBe("allow");
    // The serve waits for the warm still running, if it is: the suite runs once, for the warm.
    const served = await serveFuture(box.project, { tool: "bash", command: "npm test" }, box.env);
    expect(served).toMatchObject({ hit: true, kind: "command", exitCode: 0 });
    expect(runs()).toBe(1);

    box.writePolicy(DENIES_TESTS);
    // The daemon re-reads layer files on use (at most every 250 ms): a status round trip for this cwd reloads it.
    const deadline = Date.now() + 10_000;
    let decision = await requestDecision(npmTest(2), { env: box.env });
    for (let n = 3; decision.decision === "allow" && Date.now() < deadline; n++) {
      await daemonStatus(box.project);
      decision = await requestDecision(npmTest(n), { env: box.env });
    }
    expect(decision).toMatchObject({ decision: "deny", source: "policy" });

    await warmUpClient(box.project, box.env);
    const refused = await serveFuture(box.project, { tool: "bash", command: "npm test" }, box.env);
    expect(refused).toMatchObject({ hit: false, reason: "policy" });
    expect(runs()).toBe(1);
  });
});
