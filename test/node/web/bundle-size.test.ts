// The dashboard builds with the real Vite config and its JavaScript stays within 60 kB gzipped (web/check-size.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SizeReport = z.object({
  gzipBytes: z.number(),
  budgetBytes: z.number(),
  ok: z.boolean(),
  files: z.array(z.object({ file: z.string(), gzipBytes: z.number() })),
});

// Build into a temporary directory so a running `wrangler dev` serving web/dist is never disturbed.
let outDir: string;
beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), "airlock-web-"));
  const built = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules/vite/bin/vite.js"),
      "build",
      "--config",
      "web/vite.config.ts",
      "--outDir",
      outDir,
    ],
    // vitest sets NODE_ENV=test, which would make Vite emit a development bundle; measure what ships.
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (built.status !== 0) throw new Error(`vite build failed:\n${built.stdout}\n${built.stderr}`);
}, 60_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function checkSize(...extra: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "web/check-size.mjs"), outDir, "--json", ...extra], {
    encoding: "utf8",
  });
  return { status: run.status, report: SizeReport.parse(JSON.parse(run.stdout)) };
}

describe("dashboard bundle", () => {
  it("emits an index.html that loads one module script", () => {
    const html = readFileSync(join(outDir, "index.html"), "utf8");
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
  });

  it("stays within 60 kB of gzipped JavaScript", () => {
    const { status, report } = checkSize();
    console.log(`dashboard JavaScript: ${(report.gzipBytes / 1000).toFixed(2)} kB gzipped`);
    expect(report.budgetBytes).toBe(60_000);
    expect(report.gzipBytes).toBeGreaterThan(0);
    expect(report.gzipBytes).toBeLessThanOrEqual(60_000);
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
  });

  it("the size check fails a build over its budget", () => {
    const { status, report } = checkSize("--budget-kb=1");
    expect(report.ok).toBe(false);
    expect(status).toBe(1);
  });
});
