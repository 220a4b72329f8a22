// One request decides and serves (Pi's path): through a real `airlock up`, a `decide` that names its future answers
// the decision and, for an allowed call, that same call's re-validated future; never with a deny, never another
// call's result, never a stale one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentToolCall, requestDecision } from "../../../../src/companion/control/client.ts";
import type { FutureAnswer, FutureRequest } from "../../../../src/companion/control/protocol.ts";
import { warmFutures } from "../../../../src/companion/futures/client.ts";
import { type Daemon, ensureBuilt, type Sandbox, sandbox, startDaemon } from "../support/sandbox.ts";
import { runsOf, writeCountedProject } from "./counted-project.ts";

const POLICY = `
default_action: deny
rules:
  - name: tests and status
    condition: tool == "bash" && (command == "npm test" || command == "git status")
    action: allow
`;

const TEST_SCRIPT = `const fs = require("fs");
fs.appendFileSync("runs.log", "run\\n");
console.log("helper says", fs.readFileSync("src/helper.ts", "utf8").trim());
process.exit(3);
`;

let box: Sandbox;
let daemon: Daemon;

const runs = () => runsOf(box.project);

let n = 0;
/** Decides a bash call asking for `serve` with it; the future, if one came with the decision. */
async function decideServing(command: string, serve: FutureRequest) {
  const call: AgentToolCall = {
    callId: `pi-s-${++n}`,
    sessionId: "s",
    agent: { id: "pi", name: "Pi coding agent" },
    tool: "bash",
    input: { command },
    cwd: box.project,
    hasUI: false,
  };
  let future: FutureAnswer | undefined;
  const decision = await requestDecision(call, {
    env: box.env,
    askMode: "approver",
    serve,
    onServed: (f) => {
      future = f;
    },
  });
  return { decision, future };
}

const text = (f: FutureAnswer | undefined) =>
  f?.hit && f.kind === "command"
    ? f.chunks.map((c) => Buffer.from(c.data, "base64").toString()).join("")
    : "";

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox({ AIRLOCK_PRECOG_CACHE_DELAY_MS: "0", AIRLOCK_PRECOG_MIN_COLD_MS: "0" });
  box.writePolicy(POLICY);
  writeCountedProject(box.project, TEST_SCRIPT);
  daemon = await startDaemon(box.env);
}, 180_000);

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  box?.cleanup();
});

describe("decide and serve in one request", { timeout: 60_000 }, () => {
  it("an allowed, warmed command comes back with its decision and its output, run once (the warm's run)", async () => {
    await warmFutures(box.project, "prompt", "run the tests", box.env);
    const { decision, future } = await decideServing("npm test", { tool: "bash", command: "npm test" });
    expect(decision.decision).toBe("allow");
    expect(future).toMatchObject({ hit: true, kind: "command", exitCode: 3 });
    expect(text(future)).toContain("helper says export const v = 1;");
    expect(runs()).toBe(1);
  });

  it("a future for another command than the call's is never served with its decision", async () => {
    const { decision, future } = await decideServing("git status", { tool: "bash", command: "npm test" });
    expect(decision.decision).toBe("allow");
    expect(future).toBeUndefined();
  });

  it("a denied call gets no future", async () => {
    const { decision, future } = await decideServing("npm run build", {
      tool: "bash",
      command: "npm run build",
    });
    expect(decision.decision).toBe("deny");
    expect(future).toBeUndefined();
  });

  it("after a causal file changes, the decision comes without the stale future", async () => {
    writeFileSync(join(box.project, "src/helper.ts"), "export const v = 2;\n");
    const { decision, future } = await decideServing("npm test", { tool: "bash", command: "npm test" });
    expect(decision.decision).toBe("allow");
    // Stale: re-warmed on the change, or a miss; never the old output.
    expect(text(future)).not.toContain("v = 1");
  });
});
