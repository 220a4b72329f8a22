// Builds dist/ for tests that spawn the `airlock` binary, once: skipped when dist/ matches the sources, and
// serialized by a lock so parallel test files never rewrite dist/ under a running binary.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./airlock-env.ts";

const STAMP = join(ROOT, "dist", ".companion-build-stamp");
const LOCK = join(tmpdir(), `airlock-build-lock-${Buffer.from(ROOT).toString("hex").slice(-16)}`);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function sourceStamp(): string {
  return String(
    Math.max(...["companion", "policy", "protocol"].map((d) => newestSource(join(ROOT, "src", d)))),
  );
}

/** `tsc -p tsconfig.node.json` unless dist/ already matches the sources; concurrent test files wait on a lock. */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`build lock ${LOCK} held too long`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    const want = sourceStamp();
    let have = "";
    try {
      have = readFileSync(STAMP, "utf8");
    } catch {}
    if (have === want && existsSync(join(ROOT, "dist/companion/cli.js"))) return;
    // Type errors elsewhere in the tree must not stop the emit these tests need.
    spawnSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.node.json"], {
      cwd: ROOT,
      stdio: "ignore",
    });
    if (!existsSync(join(ROOT, "dist/companion/cli.js")))
      throw new Error("tsc -p tsconfig.node.json emitted no CLI");
    // The fast hook entry is one bundled file (npm run build:node does the same).
    const bundled = spawnSync(process.execPath, [join(ROOT, "scripts", "bundle-hook.mjs")], {
      cwd: ROOT,
      stdio: "ignore",
    });
    if (bundled.status !== 0) throw new Error("scripts/bundle-hook.mjs failed");
    writeFileSync(STAMP, want);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
