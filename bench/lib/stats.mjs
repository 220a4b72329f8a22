// Shared benchmark helpers: percentiles, machine description, results files.
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, dirname, join } from "node:path";

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function summarize(samplesMs) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const round = (x) => Math.round(x * 1000) / 1000;
  return {
    n: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(mean),
    max_ms: round(sorted[sorted.length - 1]),
  };
}

export function machine() {
  let wrangler = "unknown";
  try {
    wrangler = execSync("npx wrangler --version", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    // Reported as unknown.
  }
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    wrangler,
  };
}

/**
 * Where a bench writes its results: the committed file beside it only with `--record`; otherwise a git-ignored
 * scratch copy (bench/.scratch/<bench>-<file>), so trying a bench never rewrites the recorded figures.
 */
export function resultsFile(committed) {
  if (process.argv.includes("--record")) return committed;
  const dir = join(dirname(dirname(committed)), ".scratch");
  mkdirSync(dir, { recursive: true });
  return join(dir, `${basename(dirname(committed))}-${basename(committed)}`);
}

export function writeResults(file, results) {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${file}`);
}
