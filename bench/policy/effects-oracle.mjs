// The file-effects oracle at full size: every command of the corpus generated from the program
// grammars (>= 2,000) runs in a fresh sandbox under `strace -f -e trace=%file,execve`; every file
// it opened or wrote in the sandbox must be among the effects the judge reported, and every
// program it executed a judged unit. Writes the counts and every miss to effects-oracle.json.
//   node bench/policy/effects-oracle.mjs [--size=2400] [--seed=1]
import { rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const SIZE = arg("size", 2400);
const SEED = arg("seed", 1);

const oracle = await import(join(here, "..", "..", "test", "node", "policy", "shell", "effects-oracle.ts"));
if (!oracle.straceAvailable()) {
  console.error("strace is not installed (apt-get install strace)");
  process.exit(2);
}
const started = new Date().toISOString();
const t0 = performance.now();
const corpus = oracle.generateCorpus(SIZE, SEED);
const misses = [];
let notUnderstood = 0;
const byProgram = {};
for (const command of corpus) {
  const sandbox = oracle.makeSandbox(command);
  try {
    const r = oracle.check(command, sandbox);
    const program = command.split(" ")[0];
    byProgram[program] = (byProgram[program] ?? 0) + 1;
    if (!r.understood) notUnderstood++;
    if (r.unreported.length > 0 || r.unjudgedExecs.length > 0) misses.push(r);
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}
const seconds = (performance.now() - t0) / 1000;
const result = {
  date: started,
  machine: `${cpus()[0]?.model ?? "?"} x${cpus().length}, load ${loadavg()[0].toFixed(2)}`,
  node: process.version,
  seed: SEED,
  commands: corpus.length,
  programs: byProgram,
  notUnderstood,
  unreported: misses.filter((m) => m.unreported.length > 0).length,
  unjudgedExecs: misses.filter((m) => m.unjudgedExecs.length > 0).length,
  seconds: Number(seconds.toFixed(1)),
  misses,
};
writeFileSync(join(here, "effects-oracle.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `${result.commands} commands, ${result.unreported} with unreported files, ${result.unjudgedExecs} with unjudged programs, ${notUnderstood} not understood, ${result.seconds}s`,
);
process.exit(misses.length === 0 ? 0 : 1);
