// The first history printer of a fresh process (issue 20): `git log -p -3`, `git show`, `git blame FILE`,
// `git log --oneline`, `git log`, judged with the disk look as the companion judges them (balanced starter
// policy), on the sample repository (one commit), this repository and a generated one with 5,000 commits.
// Each run is a fresh Node process that imports the engine and decides once, for this engine and, with
// --base=DIR (a `git archive` of an older commit's src/ and test/, node_modules linked), that one; the two
// alternate run by run so both see the same load. Per run: the decision's wall time, the deciding process's
// CPU and its git children's CPU (from /proc/self/stat), the number of git processes, and the import time.
//   node bench/policy/history-cold.mjs [--base=DIR] [--runs=N] [--out=FILE]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const COMMANDS = ["git log -p -3", "git show", "git blame FILE", "git log --oneline", "git log"];

/** Children's user+system CPU so far (ms), from /proc/self/stat (cutime, cstime; clock ticks of 10 ms). */
function childCpu() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function child() {
  const engine = arg("engine");
  const repo = arg("repo");
  const command = arg("command");
  // Count the git processes the decision starts (every guard runs git through spawnSync).
  const cp = createRequire(import.meta.url)("node:child_process");
  const spawn = cp.spawnSync;
  let gits = 0;
  cp.spawnSync = (...a) => {
    if (a[0] === "git") gits++;
    return spawn(...a);
  };
  syncBuiltinESMExports();
  const t0 = performance.now();
  const { compilePolicy } = await import(pathToFileURL(join(engine, "src/policy/index.ts")).href);
  const { judgeCall } = await import(pathToFileURL(join(engine, "src/policy/judge-call.ts")).href);
  const { diskCheck } = await import(pathToFileURL(join(engine, "src/companion/guards/disk-view.ts")).href);
  const { starterPolicy } = await import(
    pathToFileURL(join(engine, "src/companion/local-policy/starter.ts")).href
  );
  const c = compilePolicy([{ layer: "user", path: "balanced", text: starterPolicy("balanced") }]);
  const disk = diskCheck({ env: {} });
  const imported = performance.now() - t0;
  const cpu = process.cpuUsage();
  const children = childCpu();
  const t = performance.now();
  const j = judgeCall(
    c.policy,
    { tool: "bash", input: { command }, cwd: repo, home: "/nonexistent" },
    { hasUI: true },
    disk,
  );
  const wall = performance.now() - t;
  const d = process.cpuUsage(cpu);
  process.stdout.write(
    JSON.stringify({
      action: j.record.action,
      importMs: imported,
      wall,
      cpu: (d.user + d.system) / 1000,
      gitCpu: childCpu() - children,
      gits,
    }),
  );
}

function bigRepo(commits) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "airlock-histbench-")));
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  const now = 1_790_000_000;
  let stream = "";
  for (let i = 1; i <= commits; i++) {
    const msg = `change ${i}: adjust module m${i % 50}\n\nA body line for commit ${i}.\n`;
    const file = `export const v${i} = ${i};\n`;
    stream += `commit refs/heads/main\nmark :${i}\ncommitter Dev <dev@example.com> ${now + i} +0000\n`;
    stream += `data ${Buffer.byteLength(msg)}\n${msg}`;
    if (i > 1) stream += `from :${i - 1}\n`;
    stream += `M 100644 inline src/m${i % 50}.ts\ndata ${Buffer.byteLength(file)}\n${file}\n`;
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: stream, maxBuffer: 1 << 28 });
  execFileSync("git", ["checkout", "-q", "main"], { cwd: dir });
  return dir;
}

function runChild(engine, repo, command) {
  const r = spawnSync(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      "--child",
      `--engine=${engine}`,
      `--repo=${repo}`,
      `--command=${command}`,
    ],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.floor((s.length - 1) / 2)].toFixed(1);
};

async function main() {
  const base = arg("base");
  const runs = Number(arg("runs") ?? 5);
  const out = arg("out") ?? join(here, "history-cold-results.json");
  const { sampleWorkspace } = await import(
    pathToFileURL(join(root, "test/node/companion/profiles/sample-workspace.ts")).href
  );
  const repos = {
    "sample repository": { dir: sampleWorkspace(), file: "src/index.ts" },
    "this repository": { dir: root, file: "README.md" },
    "5,000 commits": { dir: bigRepo(5_000), file: "src/m1.ts" },
  };
  const engines = { after: root, ...(base !== undefined ? { before: base } : {}) };
  const load0 = loadavg()[0];
  const results = {};
  for (const [repoName, { dir, file }] of Object.entries(repos)) {
    results[repoName] = {
      commits: Number(execFileSync("git", ["rev-list", "--all", "--count"], { cwd: dir, encoding: "utf8" })),
    };
    for (const pattern of COMMANDS) {
      const command = pattern.replace("FILE", file);
      const samples = Object.fromEntries(Object.keys(engines).map((e) => [e, []]));
      // Alternate the engines run by run: both see the same load.
      for (let k = 0; k < runs; k++)
        for (const [name, engine] of Object.entries(engines))
          samples[name].push(runChild(engine, dir, command));
      const row = {};
      for (const [name, xs] of Object.entries(samples))
        row[name] = {
          action: xs[0].action,
          wall: median(xs.map((x) => x.wall)),
          cpu: median(xs.map((x) => x.cpu)),
          gitCpu: median(xs.map((x) => x.gitCpu)),
          gits: xs[0].gits,
          importPlusWall: median(xs.map((x) => x.importMs + x.wall)),
        };
      if (row.before !== undefined)
        row.ratio = {
          wall: +(row.after.wall / row.before.wall).toFixed(2),
          cpuWithGit: +((row.after.cpu + row.after.gitCpu) / (row.before.cpu + row.before.gitCpu)).toFixed(2),
        };
      results[repoName][command] = row;
      console.log(repoName, command, JSON.stringify(row));
    }
  }
  rmSync(repos["5,000 commits"].dir, { recursive: true, force: true });
  rmSync(repos["sample repository"].dir, { recursive: true, force: true });
  const result = {
    what: "the first history printer of a fresh process, judged with the disk look (balanced starter policy): median of N fresh processes per engine, run alternately; wall = the decision (git children included), cpu = the deciding process, gitCpu = its git children (10 ms ticks), gits = git processes started, importPlusWall = importing the engine and deciding (what a cold `airlock policy explain` adds to Node's start)",
    command: `node bench/policy/history-cold.mjs${base ? " --base=<main archive>" : ""} --runs=${runs}`,
    date: new Date().toISOString(),
    machine: `${cpus().length} vCPU ${cpus()[0]?.model ?? "?"}, Node ${process.version}, git ${execFileSync("git", ["--version"], { encoding: "utf8" }).trim().replace("git version ", "")}, load ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
    results,
  };
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

if (process.argv.includes("--child")) await child();
else await main();
