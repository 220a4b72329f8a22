// The shell-judging fuzz at bench scale: (1) the property that no generated command in which a
// dangerous command runs is allowed by the read-only allowlist, over many more cases than the
// test suite runs; (2) the differential fuzz against bash itself (extdebug + a DEBUG trap that
// records each simple command and skips it), requiring the engine's units to cover what bash
// would run. Writes the counts and every disagreement to shell-fuzz.json beside itself.
//   node bench/policy/shell-fuzz.mjs [--cases=400000] [--oracle=40000] [--seed=1]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";

const here = dirname(fileURLToPath(import.meta.url));
const tests = join(here, "..", "..", "test", "node", "policy", "shell");
const arg = (name, fallback) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const CASES = arg("cases", 400_000);
const ORACLE = arg("oracle", 40_000);
const SEED = arg("seed", 1);

const { analyzeShell } = await import(join(here, "..", "..", "src", "policy", "index.ts"));
const { compose, DANGER, noisy, RUNNING, safe, TRICKY } = await import(join(tests, "generators.ts"));
const { judge, READ_ONLY } = await import(join(tests, "policies.ts"));
const { bashRuns, coverage } = await import(join(tests, "bash-oracle.ts"));

const started = new Date().toISOString();
const loadBefore = loadavg()[0];
const dangerous = compose([...RUNNING, ...TRICKY], safe, noisy(fc.constantFrom(...DANGER)));

// (1) The property, counting rather than stopping at the first counterexample.
const allowed = [];
let t0 = performance.now();
const running = compose(RUNNING, safe, noisy(fc.constantFrom(...DANGER)));
for (const command of fc.sample(running, { numRuns: CASES, seed: SEED })) {
  if (judge(READ_ONLY, command).action === "allow" && allowed.length < 50) allowed.push(command);
}
const propertySeconds = (performance.now() - t0) / 1000;
console.error(
  `[shell-fuzz] property: ${CASES} cases, ${allowed.length} allowed, ${propertySeconds.toFixed(1)} s`,
);

// (2) The bash oracle, in batches (one bash process each).
t0 = performance.now();
const commands = fc.sample(dangerous, { numRuns: ORACLE, seed: SEED + 1 });
const disagreements = [];
let recorded = 0;
let missedButAsks = 0;
for (let i = 0; i < commands.length; i += 1000) {
  const batch = commands.slice(i, i + 1000);
  const runs = bashRuns(batch);
  if (runs.length !== batch.length)
    throw new Error(`the oracle answered ${runs.length} of ${batch.length} scripts`);
  batch.forEach((command, k) => {
    const run = runs[k] ?? [];
    recorded += run.length;
    const c = coverage(analyzeShell(command).units, run);
    if (c.missed.length === 0) return;
    if (c.engineAsks) missedButAsks++;
    else if (disagreements.length < 50) disagreements.push({ command, missed: c.missed });
  });
}
const oracleSeconds = (performance.now() - t0) / 1000;
console.error(
  `[shell-fuzz] oracle: ${ORACLE} commands, ${recorded} simple commands recorded, ${disagreements.length} disagreements, ${oracleSeconds.toFixed(1)} s`,
);

const result = {
  date: started,
  machine: `${cpus().length} vCPU ${cpus()[0]?.model ?? "?"}, Node ${process.version}`,
  load: { before: loadBefore, after: loadavg()[0] },
  seed: SEED,
  property: {
    what: "generated compound commands in which a dangerous command runs, judged by the read-only allowlist",
    cases: CASES,
    allowed: allowed.length,
    examples: allowed,
    seconds: +propertySeconds.toFixed(1),
  },
  oracle: {
    what: "bash (extdebug, DEBUG trap recording $BASH_COMMAND and returning 1) lists the simple commands it would run; the engine's units must include each, or the engine never allows the command",
    commands: ORACLE,
    recordedSimpleCommands: recorded,
    disagreements: disagreements.length,
    examples: disagreements,
    missedButEngineAsks: missedButAsks,
    seconds: +oracleSeconds.toFixed(1),
  },
};
writeFileSync(join(here, "shell-fuzz.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ property: result.property.allowed, oracle: result.oracle.disagreements }));
if (allowed.length > 0 || disagreements.length > 0) process.exitCode = 1;
