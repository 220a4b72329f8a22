// A future is served only when serving is faster than running: a finished future of a command cheaper than the
// serving path (the bash delay plus a Node start) is never handed out for a rewrite; a slow one is.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_FILES, type PrecogFixture, precogFixture } from "./fixture.ts";

let fx: PrecogFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const SLOW_TEST = 'setTimeout(() => console.log("done"), 400);\n';

describe("lookup for a rewrite", () => {
  it("never offers a finished future whose cold run was cheaper than serving it", async () => {
    fx = await precogFixture({ AIRLOCK_PRECOG_MIN_COLD_MS: "300" });
    await fx.precog.warm({ source: "idle", cwd: fx.root, text: "" });
    await fx.precog.settled();
    const ws = await fx.precog.workspace(fx.root);
    const status = ws.futures().find((f) => f.kind === "command" && f.command === "git status");
    expect(status?.kind === "command" && status.coldMs).toBeLessThan(300);
    expect(fx.precog.lookup(fx.root, "git status")).toBeNull();
  });

  it("offers a finished future whose cold run took longer than serving", async () => {
    fx = await precogFixture(
      { AIRLOCK_PRECOG_MIN_COLD_MS: "300" },
      { ...DEFAULT_FILES, "test/run.js": SLOW_TEST },
    );
    await fx.precog.warm({ source: "prompt", cwd: fx.root, text: "run the tests" });
    await fx.precog.settled();
    expect(fx.precog.lookup(fx.root, "npm test")).toMatch(/^f[0-9a-f]{24}$/);
  });
});
