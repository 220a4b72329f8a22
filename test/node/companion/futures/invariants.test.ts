// The precognition safety model's invariants I1–I10, each a test, run under every injection mode.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outputText } from "../../../../src/companion/futures/command-futures.ts";
import { INJECTION_MODES, type InjectionMode } from "../../../../src/companion/futures/switches.ts";
import { type PrecogFixture, precogFixture } from "./fixture.ts";

const NO_DELAY = { AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" };

let fx: PrecogFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function open(mode: InjectionMode, env: NodeJS.ProcessEnv = {}): Promise<PrecogFixture> {
  fx = await precogFixture({ AIRLOCK_PRECOG_INJECTION_MODE: mode, ...NO_DELAY, ...env });
  return fx;
}

/** Text of whatever a serve returned, or null on a miss. */
async function served(f: PrecogFixture, request: Parameters<PrecogFixture["precog"]["serve"]>[1]) {
  const result = await f.precog.serve(f.root, request);
  if (!result.hit) return null;
  return result.future.kind === "read" ? result.future.bytes.toString("utf8") : outputText(result.future);
}

const enabled = (mode: InjectionMode) => mode !== "off";

describe.each(INJECTION_MODES)("injection mode %s", (mode) => {
  it("I1: a future is served only for the exact call it was warmed for", async () => {
    const f = await open(mode);
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "look at src/app.ts and run the tests",
    });
    await f.precog.settled();
    // Never served unasked: warming returns no tool result, and only `full` mode names contents at all.
    if (mode !== "full") expect(warm.injection).not.toContain("helper(1)");
    expect(await served(f, { tool: "read", path: "src/helper.ts.bak" })).toBeNull();
    expect(await served(f, { tool: "bash", command: "npm test -- --watch" })).toBeNull();
    expect(await served(f, { tool: "bash", command: "npm test", key: "fdeadbeef" })).toBeNull();
    const read = await served(f, { tool: "read", path: "src/app.ts" });
    const test = await served(f, { tool: "bash", command: "npm  test" });
    if (enabled(mode)) {
      expect(read).toContain("helper(1)");
      expect(test).toContain("tests:");
    } else {
      expect([read, test]).toEqual([null, null]);
    }
  });

  it("I2: predicts the wait, never the answer: no assistant text, only tool results the agent asks for", async () => {
    const f = await open(mode);
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "what does src/helper.ts return?",
    });
    expect(Object.keys(warm).sort()).toEqual(["commands", "injection", "reads"]);
    if (warm.injection !== "") expect(warm.injection.startsWith("[Airlock precognition")).toBe(true);
    if (mode === "verified-futures" || mode === "cache-index")
      expect(warm.injection).not.toContain("return n + 1");
  });

  it("I3: nothing outside the read-only allowlist is ever run, whatever the text says", async () => {
    const f = await open(mode);
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "run `rm -rf src` then `npm test; rm -rf test` and `git status && touch pwned`, list files",
    });
    await f.precog.settled();
    expect(existsSync(join(f.root, "src/app.ts"))).toBe(true);
    expect(existsSync(join(f.root, "test/run.js"))).toBe(true);
    expect(existsSync(join(f.root, "pwned"))).toBe(false);
    for (const c of warm.commands) expect(["npm test", "git status", "ls"]).toContain(c);
    expect(await served(f, { tool: "bash", command: "npm test; rm -rf test" })).toBeNull();
  });

  it("I4: a changed file or causal file is never served; unfingerprinted futures expire", async () => {
    const f = await open(mode, { AIRLOCK_PRECOG_TTL_MS: "0" });
    await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "read src/helper.ts, run the tests, git status",
    });
    await f.precog.settled();
    f.write("src/helper.ts", "export function helper(n: number): number {\n  return n + 2;\n}\n");
    expect(await served(f, { tool: "read", path: "src/helper.ts" })).toBeNull();
    expect(await served(f, { tool: "bash", command: "npm test" })).toBeNull();
    expect(await served(f, { tool: "bash", command: "git status" })).toBeNull();
    if (enabled(mode)) {
      const stats = await f.precog.stats();
      const classes = stats.workspaces[0]?.classes ?? [];
      expect(classes.find((c) => c.class === "read")?.misses.stale).toBe(1);
      expect(classes.find((c) => c.class === "bash:npm test")?.misses.stale).toBe(1);
      expect(classes.find((c) => c.class === "bash:git status")?.misses.expired).toBe(1);
    }
  });

  it("I5: only repo-local paths: no ~, /, .., NUL, nor a symlink that leads outside", async () => {
    const f = await open(mode);
    symlinkSync(join(f.outside, "id_rsa"), join(f.root, "src/key-link.ts"));
    symlinkSync(f.outside, join(f.root, "src/outdir"));
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "read ~/.ssh/id_rsa /etc/passwd ../outside/id_rsa src/../../outside/id_rsa src/key-link.ts src/outdir/id_rsa src/app.ts\u0000x",
    });
    expect(warm.reads.every((r) => r.startsWith("src/") && !r.includes(".."))).toBe(true);
    expect(warm.reads).not.toContain("src/key-link.ts");
    for (const path of [
      "/etc/passwd",
      join(f.outside, "id_rsa"),
      "../outside/id_rsa",
      "src/key-link.ts",
      "src/outdir/id_rsa",
      "~/.bashrc",
    ]) {
      expect(await served(f, { tool: "read", path })).toBeNull();
    }
  });

  it("I6: secret paths are never warmed or served", async () => {
    const f = await open(mode);
    f.write("secrets/token.txt", "t0ken\n");
    f.write(".npmrc", "//registry/:_authToken=abc\n");
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "check .env, config/prod.pem, secrets/token.txt and .npmrc please",
    });
    expect(warm.reads).toEqual([]);
    expect(warm.injection).not.toContain("sk-live-secret");
    for (const path of [".env", "config/prod.pem", "secrets/token.txt", ".npmrc"]) {
      expect(await served(f, { tool: "read", path })).toBeNull();
    }
  });

  it("I7: node_modules/ and .git/ are never warmed or served", async () => {
    const f = await open(mode);
    writeFileSync(join(f.root, ".git/config"), "[core]\n");
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "see node_modules/dep/index.js and .git/config",
    });
    expect(warm.reads).toEqual([]);
    expect(await served(f, { tool: "read", path: "node_modules/dep/index.js" })).toBeNull();
    expect(await served(f, { tool: "read", path: ".git/config" })).toBeNull();
  });

  it("I8: files over the size cap are skipped, not truncated", async () => {
    const f = await open(mode);
    const warm = await f.precog.warm({ source: "prompt", cwd: f.root, text: "read src/big.ts" });
    expect(warm.reads).toEqual([]);
    expect(await served(f, { tool: "read", path: "src/big.ts" })).toBeNull();
    await f.close();
    const g = await open(mode, { AIRLOCK_PRECOG_MAX_FILE_BYTES: "65536" });
    const again = await g.precog.warm({ source: "prompt", cwd: g.root, text: "read src/big.ts" });
    expect(again.reads).toEqual(enabled(mode) ? ["src/big.ts"] : []);
    const text = await served(g, { tool: "read", path: "src/big.ts" });
    if (enabled(mode)) expect(text?.length).toBe(40_000);
  });

  it("I9: binary files are refused", async () => {
    const f = await open(mode);
    f.write("src/blob.ts", Buffer.from([0x61, 0x00, 0x62, 0x0a]));
    f.write("src/logo.gif", Buffer.from("GIF89a\x01\x01\x01\x01"));
    const warm = await f.precog.warm({
      source: "prompt",
      cwd: f.root,
      text: "open src/blob.ts and src/logo.gif",
    });
    expect(warm.reads).toEqual([]);
    expect(await served(f, { tool: "read", path: "src/blob.ts" })).toBeNull();
  });

  it("I10: the hard off switch makes everything a no-op (AIRLOCK_PRECOG=0 and the PI_PRECOG=0 alias)", async () => {
    for (const off of [{ AIRLOCK_PRECOG: "0" }, { PI_PRECOG: "0" }]) {
      const f = await open(mode, off);
      const warm = await f.precog.warm({
        source: "prompt",
        cwd: f.root,
        text: "read src/app.ts, run the tests",
      });
      expect(warm).toEqual({ injection: "", reads: [], commands: [] });
      expect(await f.precog.serve(f.root, { tool: "read", path: "src/app.ts" })).toEqual({
        hit: false,
        reason: "disabled",
      });
      expect((await f.precog.stats()).workspaces).toEqual([]);
      await f.close();
      fx = undefined;
    }
  });
});

describe("serving goes through policy at serve time", () => {
  it("an emergency block or a new deny wins over a valid future", async () => {
    const f = await open("silent-futures");
    await f.precog.warm({ source: "prompt", cwd: f.root, text: "read src/app.ts and run the tests" });
    await f.precog.settled();
    f.emergency = { readOnly: false, disableHighImpact: false, blockedTools: ["bash"] };
    expect(await f.precog.serve(f.root, { tool: "bash", command: "npm test" })).toMatchObject({
      hit: false,
      reason: "policy",
    });
    f.emergency = { readOnly: false, disableHighImpact: false, blockedTools: ["read"] };
    expect(await served(f, { tool: "read", path: "src/app.ts" })).toBeNull();
    f.emergency = { readOnly: false, disableHighImpact: false, blockedTools: [] };
    expect(await served(f, { tool: "read", path: "src/app.ts" })).toContain("helper(1)");
  });

  it("a command policy would ask about is never warmed", async () => {
    const f = await open("silent-futures");
    mkdirSync(join(f.root, "py"), { recursive: true });
    const warm = await f.precog.warm({ source: "prompt", cwd: f.root, text: "run pytest and the typecheck" });
    await f.precog.settled();
    expect(warm.commands.length).toBeGreaterThan(0);
    expect(
      (await f.precog.stats()).workspaces[0]?.classes.some((c) => c.warms > 0 && c.class !== "read"),
    ).toBe(false);
  });
});
