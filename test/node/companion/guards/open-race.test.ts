// The MCP read path against a symlink swapper: a separate process keeps replacing a directory of
// the workspace with a symlink to a secret outside it. Checking the path and then opening it lets
// reads escape; opening and then checking what was opened lets none through.
import { type ChildProcess, spawn } from "node:child_process";
import { constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTool } from "../../../../src/companion/adapters/mcp/read-tool.ts";
import { ToolFailure } from "../../../../src/companion/adapters/mcp/tool-result.ts";
import { resolveWorkspacePath } from "../../../../src/companion/guards/index.ts";

let root: string;
let workspace: string;
let swapper: ChildProcess;

const SECRET = "TOP-SECRET-OUTSIDE";

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "airlock-race-")));
  workspace = join(root, "ws");
  const outside = join(root, "outside");
  mkdirSync(join(workspace, "d"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(workspace, "d", "file.txt"), "inside\n");
  writeFileSync(join(outside, "file.txt"), `${SECRET}\n`);
  // The swapper: the directory becomes a symlink to the outside and back, as fast as it can.
  const script = `
    const fs = require("node:fs");
    const d = ${JSON.stringify(join(workspace, "d"))}, real = d + ".real", out = ${JSON.stringify(outside)};
    process.stdout.write("ready\\n");
    for (;;) {
      try { fs.renameSync(d, real); fs.symlinkSync(out, d); fs.unlinkSync(d); fs.renameSync(real, d); } catch {}
    }`;
  swapper = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => swapper.stdout?.once("data", () => resolve()));
});

afterAll(() => {
  swapper.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** The round-1 read: the guard's path, opened with O_NOFOLLOW (which guards the last component only). */
async function checkThenOpen(absolute: string): Promise<string> {
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
}

describe("a symlink swapper racing the MCP read", () => {
  it("gets 0 of 1,000+ guarded reads out of the workspace", async () => {
    let reads = 0;
    let escapes = 0;
    let served = 0;
    let oldEscapes = 0;
    // At least 1,000 guarded reads, and on until the race has shown itself (the swapper is a
    // separate process; on a busy machine it may need a while to get going). Most attempts find the
    // symlink in place and are refused before reading (a CI run got 688 reads in 50,000 attempts), so
    // the bound on attempts is generous; an attempt costs ~0.1 ms.
    for (let i = 0; (reads < 1000 || oldEscapes === 0 || served === 0) && i < 600_000; i++) {
      const r = await resolveWorkspacePath(workspace, "d/file.txt");
      if (!r.ok) continue;
      reads++;
      try {
        const result = await readTool(workspace, r.absolute, { path: "d/file.txt" });
        const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
        if (text.includes(SECRET)) escapes++;
        else if (text.includes("inside")) served++;
      } catch (error) {
        if (!(error instanceof ToolFailure)) throw error;
      }
      // The same resolved path read the round-1 way, in the same race.
      const old = await checkThenOpen(r.absolute).catch(() => "");
      if (old.includes(SECRET)) oldEscapes++;
    }
    expect(reads).toBeGreaterThanOrEqual(1000);
    expect(escapes).toBe(0);
    // The race was real (the round-1 read escaped), and guarded reads were still served.
    expect(oldEscapes).toBeGreaterThan(0);
    expect(served).toBeGreaterThan(0);
  }, 120_000);
});
