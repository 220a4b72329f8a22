// The dashboard builds with the real Vite config, its first view's JavaScript stays within 35 kB gzipped with every
// other view and the validators (zod) lazy-loaded (web/check-size.mjs), and the build ships a service worker,
// manifest and asset manifest.
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
  firstCard: z.object({
    gzipBytes: z.number(),
    validators: z.array(z.object({ file: z.string(), gzipBytes: z.number() })),
  }),
  lazy: z.array(z.object({ file: z.string(), gzipBytes: z.number() })),
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

  it("lazy-loads every view but Approvals", () => {
    const { report } = checkSize();
    const lazy = report.lazy.map((f) => f.file).join(" ");
    for (const view of [
      "activity",
      "grants",
      "devices",
      "policy",
      "proposals",
      "jobs",
      "schedules",
      "chat",
      "precog",
      "connections",
      "pairing",
    ])
      expect(lazy).toContain(`${view}-view`);
    expect(report.files.map((f) => f.file).join(" ")).not.toMatch(/-view-/);
  });

  it("ships an installable PWA: manifest, service worker, icons, and the asset manifest with a build id", () => {
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.webmanifest"), "utf8")) as {
      display: string;
      icons: { sizes: string }[];
    };
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(readFileSync(join(outDir, "sw.js"), "utf8")).toContain("showNotification");
    expect(readFileSync(join(outDir, "index.html"), "utf8")).toContain('rel="manifest"');
    const assets = JSON.parse(readFileSync(join(outDir, "asset-manifest.json"), "utf8")) as {
      build_id: string;
      files: Record<string, string>;
    };
    expect(assets.build_id).toMatch(/^[0-9a-f]{16}$/);
    expect(Object.keys(assets.files)).toEqual(expect.arrayContaining(["/index.html", "/sw.js"]));
  });

  it("keeps zod out of the first view: the validators are a lazy chunk that brings it", () => {
    const { report } = checkSize();
    const first = report.files.map((f) => readFileSync(join(outDir, f.file), "utf8")).join("\n");
    // zod's own error text and its JIT switch: present in the zod chunk, absent from what paints the first view.
    expect(first).not.toContain("jitless");
    expect(first).not.toContain("Invalid input");
    expect(report.files.map((f) => f.file).join(" ")).not.toMatch(/zod|validators/);
    const validators = report.firstCard.validators.map((f) => f.file);
    expect(validators.join(" ")).toMatch(/validators-[\w-]+\.js/);
    const zodChunk = validators.find((f) => /\/zod-[\w-]+\.js$/.test(f));
    expect(zodChunk).toBeDefined();
    // The CSP forbids eval: the chunk that carries zod turns its JIT off before any schema is built.
    expect(readFileSync(join(outDir, zodChunk ?? ""), "utf8")).toContain("jitless");
    expect(report.firstCard.gzipBytes).toBeGreaterThan(report.gzipBytes);
  });

  it("stays within 35 kB of gzipped JavaScript for the first view", () => {
    const { status, report } = checkSize();
    console.log(
      `dashboard JavaScript: first view ${(report.gzipBytes / 1000).toFixed(2)} kB, first card ${(report.firstCard.gzipBytes / 1000).toFixed(2)} kB gzipped`,
    );
    expect(report.budgetBytes).toBe(35_000);
    expect(report.gzipBytes).toBeGreaterThan(0);
    expect(report.gzipBytes).toBeLessThanOrEqual(35_000);
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
  });

  it("the size check fails a build over its budget", () => {
    const { status, report } = checkSize("--budget-kb=1");
    expect(report.ok).toBe(false);
    expect(status).toBe(1);
  });
});
