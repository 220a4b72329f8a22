// The shell-only replay of a served command (futures/replay.ts) in real bash: output byte for byte on its own
// streams in order, the exit status, played once; and the attacks: a symlink or another user's directory at the
// replay root, a replay dropped because the workspace moved on, two runs racing for one replay, a second run.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandFuture, OutputChunk } from "../../../../src/companion/futures/command-futures.ts";
import { MAX_SEGMENTS, ReplayStore, segments } from "../../../../src/companion/futures/replay.ts";

let base: string;
const logs: string[] = [];
const log = (line: string) => logs.push(line);

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "airlock-replay-"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function future(chunks: OutputChunk[], exitCode = 0, root = "/ws"): CommandFuture {
  return {
    kind: "command",
    root,
    command: "npm test",
    classId: "bash:npm test",
    fingerprint: { epoch: 0, version: 0 },
    chunks,
    exitCode,
    warmedAt: Date.now(),
    coldMs: 5_000,
  };
}

const out = (s: string | Buffer): OutputChunk => ({ stream: "stdout", data: Buffer.from(s) });
const err = (s: string | Buffer): OutputChunk => ({ stream: "stderr", data: Buffer.from(s) });

/** Runs a command line the way an agent's shell does, capturing the two streams apart (as buffers). */
function bash(line: string) {
  const r = spawnSync("bash", ["-c", line], { cwd: base });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fallback that says it ran (the real one is `airlock futures serve`, which validates again). */
const FALLBACK = "echo FALLBACK-RAN; (exit 77)";

let n = 0;
function store(): { dir: string; replays: ReplayStore } {
  const dir = join(base, `home-${++n}`, "replay");
  return { dir, replays: new ReplayStore(dir, log) };
}

describe("shell replay of a served command", () => {
  it("plays stdout and stderr on their own streams with the exit status, without running anything else", async () => {
    const { replays } = store();
    const line = await replays.prepare(future([out("checked 1\n"), err("1 failing\n")], 3), FALLBACK);
    expect(line).not.toBeNull();
    expect(line).not.toContain("node");
    const r = bash(line ?? "");
    expect(r.status).toBe(3);
    expect(r.stdout.toString()).toBe("checked 1\n");
    expect(r.stderr.toString()).toBe("1 failing\n");
  });

  it("is played once: a second run of the same command line takes the fallback", async () => {
    const { dir, replays } = store();
    const line = (await replays.prepare(future([out("once\n")]), FALLBACK)) ?? "";
    expect(bash(line).stdout.toString()).toBe("once\n");
    const again = bash(line);
    expect(again.stdout.toString()).toBe("FALLBACK-RAN\n");
    expect(again.status).toBe(77);
    // Nothing is left on disk once played.
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps the output's files 0600 in 0700 directories", async () => {
    const { dir, replays } = store();
    await replays.prepare(future([out("a"), err("b")]), FALLBACK);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [entry] = readdirSync(dir);
    expect(entry).toMatch(/^[0-9a-f]{32}$/);
    const entryDir = join(dir, entry ?? "");
    expect(statSync(entryDir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(entryDir)) expect(statSync(join(entryDir, f)).mode & 0o777).toBe(0o600);
  });

  it("attack: a symlink planted at the replay root is refused, nothing is written through it", async () => {
    const home = join(base, `home-${++n}`);
    const elsewhere = join(base, `elsewhere-${n}`);
    mkdirSync(home, { recursive: true });
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(home, "replay"));
    const replays = new ReplayStore(join(home, "replay"), log);
    expect(await replays.prepare(future([out("secret output\n")]), FALLBACK)).toBeNull();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("attack: a replay root others can enter (not 0700) is refused", async () => {
    const { dir, replays } = store();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o755);
    expect(await replays.prepare(future([out("secret output\n")]), FALLBACK)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("nothing else ran since: a replay dropped for its workspace (a mutating call, a change) takes the fallback", async () => {
    const { replays } = store();
    const mine = (await replays.prepare(future([out("stale\n")], 0, "/ws"), FALLBACK)) ?? "";
    const other = (await replays.prepare(future([out("other\n")], 0, "/other"), FALLBACK)) ?? "";
    replays.drop("/ws");
    expect(bash(mine).stdout.toString()).toBe("FALLBACK-RAN\n");
    // Another workspace's replay is untouched.
    expect(bash(other).stdout.toString()).toBe("other\n");
  });

  it("two runs racing for one replay: exactly one plays it, the other takes the fallback", async () => {
    const { replays } = store();
    for (let round = 0; round < 10; round++) {
      const line = (await replays.prepare(future([out("x".repeat(100_000))]), FALLBACK)) ?? "";
      const run = () =>
        new Promise<string>((resolve) => {
          const child = spawn("bash", ["-c", line], { cwd: base });
          let text = "";
          child.stdout.on("data", (d) => {
            text += d;
          });
          child.on("close", () => resolve(text));
        });
      const results = await Promise.all([run(), run()]);
      expect(results.filter((t) => t === "FALLBACK-RAN\n")).toHaveLength(1);
      expect(results.filter((t) => t === "x".repeat(100_000))).toHaveLength(1);
    }
  });

  it("every replay has a fresh unguessable name: a name planted in advance is never used", async () => {
    const { dir, replays } = store();
    const lines = new Set<string>();
    for (let i = 0; i < 50; i++) lines.add((await replays.prepare(future([out("a")]), FALLBACK)) ?? "");
    expect(lines.size).toBe(50);
    expect(readdirSync(dir)).toHaveLength(50);
  });

  it("output with more stream switches than a few cat calls is left to futures serve", async () => {
    const { replays } = store();
    const chunks = Array.from({ length: MAX_SEGMENTS + 1 }, (_, i) => (i % 2 ? err(`e${i}`) : out(`o${i}`)));
    expect(await replays.prepare(future(chunks), FALLBACK)).toBeNull();
    expect(segments(chunks)).toHaveLength(MAX_SEGMENTS + 1);
  });

  it("close removes every replay not yet played", async () => {
    const { dir, replays } = store();
    const line = (await replays.prepare(future([out("a")]), FALLBACK)) ?? "";
    await replays.close();
    expect(readdirSync(dir)).toEqual([]);
    expect(bash(line).stdout.toString()).toBe("FALLBACK-RAN\n");
  });

  it("property: any output (binary, terminal escapes, quotes) and exit status replays exactly, per stream", async () => {
    const chunk = fc.record({
      stream: fc.constantFrom<"stdout" | "stderr">("stdout", "stderr"),
      data: fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => Buffer.from(a)),
    });
    const { dir, replays } = store();
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunk, { maxLength: 6 }),
        fc.integer({ min: 0, max: 255 }),
        async (chunks, code) => {
          const line = await replays.prepare(future(chunks, code), FALLBACK);
          expect(line).not.toBeNull();
          const r = bash(line ?? "");
          expect(r.status).toBe(code);
          const of = (s: string) => Buffer.concat(chunks.filter((c) => c.stream === s).map((c) => c.data));
          expect(r.stdout.equals(of("stdout"))).toBe(true);
          expect(r.stderr.equals(of("stderr"))).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
    expect(existsSync(dir) && readdirSync(dir)).toEqual([]);
  });
});
