// Where an uncached bash decision spends its time, on the bench's own command mix:
//   mvdan_parse  — mvdan/sh's Parse alone (the GopherJS library, not our code),
//   mvdan_parse_walk / _walk_nodetype — Parse plus the library's syntax.Walk with an empty
//                  visitor / calling syntax.NodeType on every node (what the engine did before),
//   analysis     — analyzeShellUncached: command string to judged units, parse included,
//   decide_cached / decide_uncached — a whole decision with the analysis cached / never seen
//                  (the difference is the analysis plus classify's scopes, redaction and hashing).
// Runs TypeScript sources directly (Node 24 strips types), so no build is needed:
//   npx node bench/policy/profile.mjs [--src=DIR]   (DIR: another src/policy, for before/after)
// For a CPU profile add --cpu-prof --cpu-prof-dir=/tmp/prof after `node`.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sh from "mvdan-sh";
import { airlockConfig, stats, timeEach, workload } from "./workload.mjs";

const srcArg = process.argv.find((a) => a.startsWith("--src="))?.slice("--src=".length);
const src = srcArg
  ? resolve(srcArg)
  : join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "policy");
const { compilePolicy, decide } = await import(join(src, "index.ts"));
const { analyzeShellUncached } = await import(join(src, "shell-analysis.ts"));

const compiled = compilePolicy([{ layer: "user", path: "bench.yaml", text: airlockConfig() }]);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors.slice(0, 3)));
const policy = compiled.policy;
const run = (w) => decide(policy, w.call, { hasUI: true });
const parser = sh.syntax.NewParser(sh.syntax.Variant(sh.syntax.LangBash));

// Distinct commands (every one a cache miss), after warming up on other distinct commands.
const bashOnly = (ws) => ws.filter((w) => w.kind.startsWith("bash"));
for (const w of bashOnly(workload(5_000, true, "warm"))) run(w);
const calls = bashOnly(workload(5_000, true));

const phases = {};
for (const kind of ["bash-simple", "bash-compound"]) {
  const ws = calls.filter((w) => w.kind === kind);
  const cs = ws.map((w) => w.call.input.command);
  const decideUncached = stats(timeEach(ws, run));
  const decideCached = stats(timeEach(ws, run));
  phases[kind] = {
    mvdan_parse_p50_us: stats(timeEach(cs, (c) => parser.Parse(c, ""))).p50_us,
    mvdan_parse_walk_p50_us: stats(timeEach(cs, (c) => sh.syntax.Walk(parser.Parse(c, ""), () => true)))
      .p50_us,
    mvdan_parse_walk_nodetype_p50_us: stats(
      timeEach(cs, (c) =>
        sh.syntax.Walk(parser.Parse(c, ""), (n) => n === null || sh.syntax.NodeType(n) !== ""),
      ),
    ).p50_us,
    analysis_p50_us: stats(timeEach(cs, (c) => analyzeShellUncached(c))).p50_us,
    decide_cached_p50_us: decideCached.p50_us,
    decide_uncached_p50_us: decideUncached.p50_us,
    decide_uncached_p99_us: decideUncached.p99_us,
  };
}
const mix = stats(timeEach(bashOnly(workload(5_000, true, "mix")), run));
console.log(JSON.stringify({ src, phases, uncachedMix: mix }, null, 2));
