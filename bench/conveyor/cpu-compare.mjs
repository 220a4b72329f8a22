#!/usr/bin/env node
// CPU per proposal before and after a change, in one run: the tree at a baseline commit (exported with
// `git archive`, sharing this worktree's node_modules) and this working tree each run cpu-steps.mjs, taking
// turns (before, after, before, after, …) so the machine's load drifts over both alike. Reports each step's
// workerd CPU ms (median of the rounds) and the after/before ratio. Writes bench/conveyor/cpu.json with --record.
//   node bench/conveyor/cpu-compare.mjs [--baseline <commit>] [--rounds 2] [--record]
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine, resultsFile, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { values } = parseArgs({
  options: {
    baseline: { type: "string", default: "5232d41" },
    rounds: { type: "string", default: "1" },
    record: { type: "boolean" },
  },
});
const rounds = Number(values.rounds);
const commit = execFileSync("git", ["rev-parse", "--short", values.baseline], { cwd: root })
  .toString()
  .trim();
const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();

// The baseline tree: its own source and test entry, with this tree's measuring scripts.
const before = mkdtempSync(join(tmpdir(), "airlock-cpu-baseline-"));
execFileSync("sh", ["-c", `git archive ${commit} | tar -x -C ${before}`], { cwd: root });
symlinkSync(join(root, "node_modules"), join(before, "node_modules"));
for (const f of ["bench/conveyor/cpu-steps.mjs", "bench/lib/workerd-cpu.mjs", "bench/lib/users.mjs"])
  cpSync(join(root, f), join(before, f));

function run(tree) {
  const r = spawnSync(process.execPath, [join(tree, "bench/conveyor/cpu-steps.mjs")], {
    cwd: tree,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`cpu-steps in ${tree} failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  const loadStart = loadavg()[0];
  const runs = { before: [], after: [] };
  for (let i = 0; i < rounds; i++) {
    console.log(`round ${i + 1}/${rounds}: before (${commit})`);
    runs.before.push(run(before));
    console.log(`round ${i + 1}/${rounds}: after (${head} + working tree)`);
    runs.after.push(run(root));
  }
  const stepNames = Object.keys(runs.after[0].steps);
  const table = {};
  for (const step of [...stepNames, "per_proposal"]) {
    const pick = (r) => (step === "per_proposal" ? r.per_proposal : r.steps[step]).workerd_ms;
    const b = median(runs.before.map(pick));
    const a = median(runs.after.map(pick));
    table[step] = { before_ms: b, after_ms: a, ratio: +(a / b).toFixed(3) };
  }
  const results = {
    benchmark: "conveyor-cpu",
    date: new Date().toISOString(),
    machine: machine(),
    method:
      "CPU ms (user + system, from /proc) of the local edge's workerd processes per request, 150 requests of each step, 10 in flight; before = the tree at the baseline commit, after = this tree; they take turns and each figure is the median of the rounds. CPU per request holds on a loaded machine far better than wall-clock rates, though a busy machine still inflates it (caches, scheduling).",
    baseline_commit: commit,
    after_commit: head,
    rounds,
    load_average_1m: { start: +loadStart.toFixed(2), end: +loadavg()[0].toFixed(2), cores: machine().cores },
    workerd_cpu_ms: table,
    wrangler_node_cpu_ms_per_proposal: {
      before: median(runs.before.map((r) => r.per_proposal.wrangler_node_ms)),
      after: median(runs.after.map((r) => r.per_proposal.wrangler_node_ms)),
    },
    runs,
  };
  writeResults(resultsFile(join(here, "cpu.json")), results);
  console.log(JSON.stringify(table, null, 2));
} finally {
  rmSync(before, { recursive: true, force: true });
}
