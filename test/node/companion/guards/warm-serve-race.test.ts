// The precognition warm, its serve-time validation and the MCP grep tool against a link swapper: a
// separate process keeps turning workspace names into a hard link to a secret outside, a symlink to it,
// and a directory symlinked outside, and back. 10,000 guarded attempts: no secret byte is ever warmed,
// validated for serving, or found by grep.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grepTool } from "../../../../src/companion/adapters/mcp/grep-tool.ts";
import { ToolFailure } from "../../../../src/companion/adapters/mcp/tool-result.ts";
import { type ReadFuture, validateRead, warmRead } from "../../../../src/companion/futures/read-futures.ts";

const SECRET = "TOP-SECRET-OUTSIDE";
const ATTEMPTS = Number(process.env.RACE_ATTEMPTS ?? 10_000);
let root: string;
let ws: string;
let swapper: ChildProcess;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "airlock-warm-race-")));
  ws = join(root, "ws");
  const outside = join(root, "outside");
  mkdirSync(join(ws, "d"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "d", "file.txt"), "inside\n");
  writeFileSync(join(ws, "hard.txt"), "inside\n");
  writeFileSync(join(ws, "soft.txt"), "inside\n");
  writeFileSync(join(outside, "file.txt"), `${SECRET}\n`);
  const script = `
    const fs = require("node:fs");
    const ws = ${JSON.stringify(ws)}, out = ${JSON.stringify(outside)}, secret = out + "/file.txt";
    const d = ws + "/d", hard = ws + "/hard.txt", soft = ws + "/soft.txt", tmp = ws + "/.swap";
    process.stdout.write("ready\\n");
    for (;;) {
      try { fs.renameSync(d, d + ".real"); fs.symlinkSync(out, d); fs.unlinkSync(d); fs.renameSync(d + ".real", d); } catch {}
      try { fs.linkSync(secret, tmp); fs.renameSync(tmp, hard); fs.writeFileSync(tmp, "inside\\n"); fs.renameSync(tmp, hard); } catch {}
      try { fs.symlinkSync(secret, tmp); fs.renameSync(tmp, soft); fs.writeFileSync(tmp, "inside\\n"); fs.renameSync(tmp, soft); } catch {}
    }`;
  swapper = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => swapper.stdout?.once("data", () => resolve()));
});

afterAll(() => {
  swapper.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

describe("a link swapper racing warm, serve and grep", () => {
  it(`lets 0 of ${ATTEMPTS.toLocaleString("en")} attempts reach the secret`, async () => {
    const paths = ["d/file.txt", "hard.txt", "soft.txt"];
    const futures = new Map<string, ReadFuture>();
    let violations = 0;
    const seen: string[] = [];
    let warmed = 0;
    let refused = 0;
    let validated = 0;
    for (let i = 0; i < ATTEMPTS; i++) {
      const path = paths[i % paths.length] as string;
      if (i % 50 === 49) {
        // The grep tool walks the same names; a refused or missing file is skipped or reported.
        const out = await grepTool(ws, ws, ".", { pattern: "SECRET|inside" }).catch((e: unknown) => {
          if (e instanceof ToolFailure) return { content: [] };
          throw e;
        });
        if (out.content.some((c) => c.type === "text" && c.text.includes(SECRET))) {
          violations++;
          seen.push(`grep: ${JSON.stringify(out)}`);
        }
        continue;
      }
      const r = await warmRead(ws, path, 1 << 16);
      if ("refused" in r) refused++;
      else {
        warmed++;
        if (r.bytes.toString("utf8").includes(SECRET)) {
          violations++;
          seen.push(`warm ${path} opened ${r.absolute}`);
        }
        futures.set(path, r);
      }
      const future = futures.get(path);
      if (future && (await validateRead(future, path)).ok) {
        validated++;
        // Validation passed: the very file warmed is still what the name opens, so it is served.
        if (future.bytes.toString("utf8").includes(SECRET)) violations++;
      }
    }
    expect(violations, seen.slice(0, 5).join("\n")).toBe(0);
    // The race was live (some warms were refused) and ordinary warms still happened.
    expect(refused).toBeGreaterThan(0);
    expect(warmed).toBeGreaterThan(0);
    expect(validated).toBeGreaterThan(0);
  }, 120_000);
});
