// Where an uncached bash decision spends its time, on the bench's own command mix: parse and
// walk (parseBash), the whole analysis (parse, walk, wrappers, units), and the rule evaluation of the
// resulting units (decide() with the analysis cached). Runs the TypeScript sources directly
// (Node 24 strips types), so no build is needed: `npx node bench/policy/profile.mjs`.
// For a CPU profile: `npx node --cpu-prof --cpu-prof-dir=/tmp/prof bench/policy/profile.mjs`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { airlockConfig, stats, timeEach, workload } from "./workload.mjs";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "policy");
const { compilePolicy, decide, clearShellCache } = await import(join(src, "index.ts"));
const { parseBash } = await import(join(src, "shell-parser.ts"));
const { analyzeShellUncached } = await import(join(src, "shell-analysis.ts"));

const compiled = compilePolicy([{ layer: "user", path: "bench.yaml", text: airlockConfig() }]);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors.slice(0, 3)));
const policy = compiled.policy;
const run = (w) => decide(policy, w.call, { hasUI: true });

// Distinct commands, as the bench's uncached phase uses; several rounds so the JIT settles.
const calls = workload(2_500, true).filter((w) => w.kind.startsWith("bash"));
const commands = calls.map((w) => w.call.input.command);
for (let r = 0; r < 3; r++) for (const c of commands) analyzeShellUncached(`${c} r${r}`);
for (const w of calls.slice(0, 200)) run(w);

const phases = {};
for (const kind of ["bash-simple", "bash-compound"]) {
  const ws = calls.filter((w) => w.kind === kind);
  const cs = ws.map((w) => w.call.input.command);
  const parse = stats(timeEach(cs, (c) => parseBash(c)));
  const analyze = stats(timeEach(cs, (c) => analyzeShellUncached(c)));
  clearShellCache();
  const decideUncached = stats(
    timeEach(ws, (w) => {
      clearShellCache();
      run(w);
    }),
  );
  for (const w of ws) run(w);
  const decideCached = stats(timeEach(ws, run));
  phases[kind] = {
    parse_p50_us: parse.p50_us,
    analyze_incl_parse_p50_us: analyze.p50_us,
    walk_and_ours_p50_us: +(analyze.p50_us - parse.p50_us).toFixed(2),
    decide_cached_p50_us: decideCached.p50_us,
    decide_uncached_p50_us: decideUncached.p50_us,
    decide_uncached_p99_us: decideUncached.p99_us,
  };
}
clearShellCache();
const all = stats(timeEach(calls, run));
console.log(JSON.stringify({ phases, uncachedMix: all }, null, 2));
