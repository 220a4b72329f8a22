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

/** Deterministic PRNG (mulberry32) so a bootstrap is reproducible from its seed. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Speedup of paired runs (baseline[i] and treated[i] measured back to back): mean(baseline) / mean(treated),
 * with a percentile bootstrap 95% confidence interval over the pairs.
 */
export function pairedSpeedup(baseline, treated, resamples = 10_000, seed = 1) {
  if (baseline.length !== treated.length || baseline.length === 0) throw new Error("paired samples differ");
  const n = baseline.length;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const point = mean(baseline) / mean(treated);
  const random = rng(seed);
  const ratios = [];
  for (let r = 0; r < resamples; r++) {
    let b = 0;
    let t = 0;
    for (let i = 0; i < n; i++) {
      const k = Math.floor(random() * n);
      b += baseline[k];
      t += treated[k];
    }
    ratios.push(b / t);
  }
  ratios.sort((x, y) => x - y);
  const round = (x) => Math.round(x * 100) / 100;
  return {
    n,
    speedup: round(point),
    ci95: [round(percentile(ratios, 2.5)), round(percentile(ratios, 97.5))],
    baseline_mean_ms: round(mean(baseline)),
    treated_mean_ms: round(mean(treated)),
  };
}
