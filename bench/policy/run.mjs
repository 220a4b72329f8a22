// Policy engine benchmark: p50/p99 latency and decisions/second on a 1,000-rule config over a
// mixed workload, the same workload's expressible subset on Cedar with an equivalent policy,
// and the CEL library comparison. Builds dist/ first (tsc), writes results.json beside itself with --record (else bench/.scratch).
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as cedar from "@cedar-policy/cedar-wasm/nodejs";
import { resultsFile, writeResults } from "../lib/stats.mjs";
import { compareCel } from "./cel-compare.mjs";
import { airlockConfig, CWD, cedarPolicies, stats, throughput, timeEach, workload } from "./workload.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
// `--src=DIR` benches the TypeScript sources in DIR (e.g. an older checkout of src/policy, for a
// before/after at the same machine load) and only prints; results.json is left alone.
const srcArg = process.argv.find((a) => a.startsWith("--src="))?.slice("--src=".length);
if (!srcArg && !process.argv.includes("--no-build")) {
  execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(root, "tsconfig.node.json")], {
    stdio: "inherit",
  });
}
const entry = srcArg ? join(resolve(srcArg), "index.ts") : join(root, "dist", "policy", "index.js");
const { compilePolicy, decide, clearShellCache } = await import(entry);

// ---- Airlock -------------------------------------------------------------------------------
const tCompile = process.hrtime.bigint();
const compiled = compilePolicy([{ layer: "user", path: "bench.yaml", text: airlockConfig() }]);
const compileMs = Number(process.hrtime.bigint() - tCompile) / 1e6;
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors.slice(0, 3)));
const policy = compiled.policy;
const ruleCount = policy.local.rules.length;
const run = (w) => decide(policy, w.call, { hasUI: true });

const warm = workload(5_000, false);
for (const w of warm) run(w);

const repeated = workload(20_000, false);
const byKind = {};
const ns = timeEach(repeated, run);
repeated.forEach((w, i) => {
  if (!byKind[w.kind]) byKind[w.kind] = [];
  byKind[w.kind].push(ns[i]);
});
const phase = (name) => console.error(`[bench] ${name} done at ${(performance.now() / 1000).toFixed(1)} s`);
phase("airlock timing");
const airlock = {
  rules: ruleCount,
  compileMs: +compileMs.toFixed(1),
  overall: { ...stats(ns), decisionsPerSec: throughput(repeated, run) },
  byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, stats(v)])),
};
const noShell = repeated.filter((w) => !w.kind.startsWith("bash"));
const withShell = repeated.filter((w) => w.kind.startsWith("bash"));
airlock.withoutShellParsing = stats(timeEach(noShell, run));
airlock.withShellParsingCached = stats(timeEach(withShell, run));
// Every command distinct: each decision pays a full mvdan/sh parse (the honest uncached figure).
// A long-running companion has parsed many commands before, so the parser's code is warmed up
// first on 6,000 other distinct commands (a separate tag, so none is cached for the run). In
// this process (Cedar and two CEL libraries loaded too) the GopherJS parser keeps speeding up
// for thousands of parses: after only 2,000, compound commands measured ~180 µs p50, not ~150.
for (const w of workload(15_000, true, "warm").filter((w) => w.kind.startsWith("bash"))) run(w);
const unique = workload(5_000, true).filter((w) => w.kind.startsWith("bash"));
clearShellCache();
const uniqueNs = timeEach(unique, run);
airlock.withShellParsingUncached = stats(uniqueNs);
airlock.withShellParsingUncachedByKind = Object.fromEntries(
  ["bash-simple", "bash-compound"].map((k) => [k, stats(uniqueNs.filter((_, i) => unique[i].kind === k))]),
);

phase("airlock");
// ---- Cedar (same run, same machine) --------------------------------------------------------
const pset = cedar.preparsePolicySet("bench", { staticPolicies: cedarPolicies() });
if (pset.type !== "success") throw new Error(JSON.stringify(pset.errors?.slice(0, 2)));
const firstWord = (cmd) => cmd.split(/\s+/)[0];
// Cedar evaluates every policy on every request (milliseconds here), so it gets a sample.
const CEDAR_SAMPLE = 1500;
const subset = repeated.filter((w) => w.kind !== "bash-compound").slice(0, CEDAR_SAMPLE);
const cedarCall = (w) => {
  const isBash = w.call.tool === "bash";
  const context = isBash
    ? { word: firstWord(w.call.input.command) }
    : w.kind === "mcp"
      ? {}
      : { path: `${CWD}/${w.call.input.path}` };
  const answer = cedar.statefulIsAuthorized({
    principal: { type: "Agent", id: "a" },
    action: { type: "Action", id: w.call.tool },
    resource: { type: "Call", id: "c" },
    context,
    preparsedPolicySetId: "bench",
    entities: [],
  });
  return answer.type === "success" ? answer.response.decision : "deny";
};
for (const w of subset.slice(0, 200)) cedarCall(w);
let disagreements = 0;
for (const w of subset) {
  const a = run(w).action === "allow" ? "allow" : "deny";
  if (a !== cedarCall(w)) disagreements++;
}
const cedarNs = timeEach(subset, cedarCall);
const airlockSubsetNs = timeEach(subset, run);
const cedarStats = {
  ...stats(cedarNs),
  decisionsPerSec: throughput(subset, cedarCall, 1),
  policies: cedarPolicies().split("\n").length,
};
const airlockSubset = { ...stats(airlockSubsetNs), decisionsPerSec: throughput(subset, run, 1) };

const cpu = cpus();
const load = loadavg();
const results = {
  date: new Date().toISOString(),
  machine: {
    nproc: cpu.length,
    cpu: cpu[0]?.model ?? "unknown",
    node: process.version,
    cedar: cedar.getCedarVersion(),
    // Other work on the machine during the run inflates every figure, Cedar's and Airlock's alike.
    loadavg1m_at_end: +(load[0] ?? 0).toFixed(2),
  },
  airlock,
  sharedSubset: {
    description:
      "reads, writes, MCP tools and simple bash (Cedar gets the first word pre-split; Airlock parses the shell, cached)",
    calls: subset.length,
    disagreements,
    airlock: airlockSubset,
    cedar: cedarStats,
    ratio_p50_cedar_over_airlock: +(cedarStats.p50_us / airlockSubset.p50_us).toFixed(2),
    ratio_throughput_airlock_over_cedar: +(
      airlockSubset.decisionsPerSec / cedarStats.decisionsPerSec
    ).toFixed(2),
  },
  targets: {
    p50_without_shell_under_20us: airlock.withoutShellParsing.p50_us < 20,
    p50_with_shell_under_200us_cached: airlock.withShellParsingCached.p50_us < 200,
    p50_with_shell_under_200us_uncached: airlock.withShellParsingUncached.p50_us < 200,
    not_slower_than_cedar_p50: airlockSubset.p50_us <= cedarStats.p50_us,
  },
  cel: compareCel(),
};
if (!srcArg) writeResults(resultsFile(join(here, "results.json")), results);
console.log(
  JSON.stringify(
    { machine: results.machine, airlock, sharedSubset: results.sharedSubset, targets: results.targets },
    null,
    2,
  ),
);
