// How command warms run: one at a time per workspace, killed the moment the agent starts a mutating call
// there, and a serve of the command being warmed waits for that warm instead of running it again.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outputText } from "../../../../src/companion/futures/command-futures.ts";
import { DEFAULT_FILES, type PrecogFixture, precogFixture } from "./fixture.ts";

// The suite announces itself (started.log), then waits for a file the test writes, so nothing depends on time.
const SLOW_TEST = `const fs = require("fs");
fs.appendFileSync("started.log", "run\\n");
const wait = () => (fs.existsSync("release") ? console.log("done") : setTimeout(wait, 5));
wait();
`;

let fx: PrecogFixture | undefined;
afterEach(async () => {
  if (fx) fx.write("release", "");
  await fx?.close();
  fx = undefined;
});

async function started(f: PrecogFixture): Promise<void> {
  const log = join(f.root, "started.log");
  // The warm's own process writes this file; there is no event to await across processes.
  for (let i = 0; i < 2000 && !existsSync(log); i++) await new Promise((r) => setTimeout(r, 10));
  expect(existsSync(log)).toBe(true);
}

describe("command warms", () => {
  it("a mutating call in the workspace kills the running warm; nothing is kept", async () => {
    fx = await precogFixture({}, { ...DEFAULT_FILES, "test/run.js": SLOW_TEST });
    await fx.precog.warm({ source: "prompt", cwd: fx.root, text: "run the tests" });
    await started(fx);
    fx.precog.noteCall(join(fx.root, "src"), "edit", { path: "src/app.ts" });
    await fx.precog.settled();
    expect(fx.logs.some((l) => l.includes("warm killed (a mutating edit started)"))).toBe(true);
    const ws = await fx.precog.workspace(fx.root);
    expect(ws.futures().filter((f) => f.kind === "command")).toEqual([]);
  });

  it("reads and allowlisted commands do not kill it; a serve of the same command waits for it", async () => {
    fx = await precogFixture(
      { AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" },
      { ...DEFAULT_FILES, "test/run.js": SLOW_TEST },
    );
    await fx.precog.warm({ source: "prompt", cwd: fx.root, text: "run the tests" });
    await started(fx);
    fx.precog.noteCall(fx.root, "read", { path: "src/app.ts" });
    fx.precog.noteCall(fx.root, "bash", { command: "git status" });
    const served = fx.precog.serve(fx.root, { tool: "bash", command: "npm test" });
    fx.write("release", "");
    const result = await served;
    expect(result.hit && result.future.kind === "command" && outputText(result.future)).toContain("done");
    // One run in all: the serve waited for the warm.
    expect(readFileSync(join(fx.root, "started.log"), "utf8")).toBe("run\n");
  });

  it("runs one warm per workspace at a time; the next waits in the queue", async () => {
    fx = await precogFixture({}, { ...DEFAULT_FILES, "test/run.js": SLOW_TEST });
    await fx.precog.warm({ source: "prompt", cwd: fx.root, text: "run the tests, then git status" });
    await started(fx);
    const ws = await fx.precog.workspace(fx.root);
    expect(ws.warming?.command).toBe("npm test");
    expect(ws.queue).toEqual(["git status"]);
    fx.write("release", "");
    await fx.precog.settled();
    expect(
      ws
        .futures()
        .map((f) => (f.kind === "command" ? f.command : f.relative))
        .sort(),
    ).toEqual(["git status", "npm test"]);
  });
});
