// Uncached compound decisions, this tree against a baseline, measured so a shared machine's load
// does not decide the comparison: each side runs in its own process, the two alternate for several
// rounds, and every decision is timed twice — wall clock (hrtime) and the process's CPU time
// (process.cpuUsage, user + system, which does not advance while the process waits for a core).
// Only compound commands, each distinct (every one a full mvdan/sh parse), after a warm-up of
// 6,000 other distinct commands.
//   npx node bench/policy/compound-cpu.mjs --base=DIR [--rounds=4] [--n=1000]
// DIR holds a baseline's src/policy (e.g. `git archive <rev> src | tar -x -C DIR`).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

if (process.argv.includes("--child")) {
  const { airlockConfig, stats, workload } = await import("./workload.mjs");
  const src = resolve(arg("src"));
  const tag = arg("tag");
  const n = Number(arg("n", "1000"));
  const { compilePolicy, decide } = await import(join(src, "index.ts"));
  const compiled = compilePolicy([{ layer: "user", path: "bench.yaml", text: airlockConfig() }]);
  if (!compiled.ok) throw new Error("policy did not compile");
  const run = (w) => decide(compiled.policy, w.call, { hasUI: true });
  const compound = (ws) => ws.filter((w) => w.kind === "bash-compound");
  for (const w of compound(workload(12_000, true, "warm"))) run(w);
  const calls = compound(workload(n * 2, true, tag)).slice(0, n);
  const wall = [];
  const cpu = [];
  for (const w of calls) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    run(w);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    wall.push(Number(t1 - t0));
    cpu.push((c1.user + c1.system) * 1000);
  }
  process.stdout.write(JSON.stringify({ wall: stats(wall), cpu: stats(cpu) }));
  process.exit(0);
}

const base = arg("base");
if (!base) throw new Error("--base=DIR (a baseline's tree with src/policy) is required");
const rounds = Number(arg("rounds", "4"));
const n = arg("n", "1000");
const sides = { base: join(resolve(base), "src", "policy"), tree: join(here, "..", "..", "src", "policy") };
const out = { base: [], tree: [] };
const load = [loadavg()[0]];
for (let r = 0; r < rounds; r++)
  for (const [name, src] of r % 2 === 0 ? Object.entries(sides) : Object.entries(sides).reverse()) {
    const res = execFileSync(
      process.execPath,
      [fileURLToPath(import.meta.url), "--child", `--src=${src}`, `--tag=r${r}`, `--n=${n}`],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    out[name].push(JSON.parse(res));
  }
load.push(loadavg()[0]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = Object.fromEntries(
  Object.entries(out).map(([k, rs]) => [
    k,
    {
      cpu_p50_us: median(rs.map((x) => x.cpu.p50_us)),
      wall_p50_us: median(rs.map((x) => x.wall.p50_us)),
      rounds: rs,
    },
  ]),
);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      loadavg1m: load,
      n: Number(n),
      rounds,
      summary,
      ratio_cpu_p50: +(summary.tree.cpu_p50_us / summary.base.cpu_p50_us).toFixed(3),
    },
    null,
    1,
  ),
);
