// What scanning commit, tag and reflog messages costs a git decision (red team round 8: `git log -1`
// printed a token from a commit message). Judges git commands with the disk look, as the companion does,
// on this repository and on a generated one with 10,000 commits (and a 10,000-line HEAD reflog), for this
// engine and, with --base=DIR (a `git archive` of an older commit's src/, node_modules linked), that one:
//   cold      the first decision of a fresh process (nothing cached: the object listing, every commit read);
//   restamped the 10,000-commit repository's refs touched (a new commit or fetch): the listing is taken
//             again, the objects already read are known by id;
//   cached    the same decision again (p50, p99).
// Wall time in ms (the git children included); cpu is the deciding process's own (process.cpuUsage).
//   node bench/policy/git-messages.mjs [--base=DIR] [--cold=N] [--out=FILE]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const COMMANDS = [
  "git log -1",
  "git log --oneline",
  "git log -g --oneline",
  "git log --format=%h",
  "git log -p -1",
];

async function child() {
  const root = arg("engine");
  const ws = arg("repo");
  const command = arg("command");
  const restamp = arg("restamp") === "1";
  const { compilePolicy } = await import(join(root, "src/policy/index.ts"));
  const { judgeCall } = await import(join(root, "src/policy/judge-call.ts"));
  const { diskCheck } = await import(join(root, "src/companion/guards/disk-view.ts"));
  // The starter policy moved into local-policy/ (issue 26); a base tree from before the move has it at the top.
  const starterAt = ["src/companion/local-policy/starter.ts", "src/companion/starter-policy.ts"].find((p) =>
    existsSync(join(root, p)),
  );
  const { starterPolicy } = await import(join(root, starterAt ?? "src/companion/local-policy/starter.ts"));
  const c = compilePolicy([{ layer: "user", path: "balanced", text: starterPolicy("balanced") }]);
  const disk = diskCheck({ env: {} });
  const once = () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const j = judgeCall(
      c.policy,
      { tool: "bash", input: { command }, cwd: ws, home: "/nonexistent" },
      { hasUI: true },
      disk,
    );
    const wall = performance.now() - t;
    const d = process.cpuUsage(cpu);
    return { wall, cpu: (d.user + d.system) / 1000, action: j.record.action };
  };
  const cold = once();
  const restamped = [];
  if (restamp)
    for (let i = 1; i <= 5; i++) {
      const when = new Date(Date.now() + i * 1000);
      utimesSync(join(ws, ".git", "refs"), when, when);
      restamped.push(once());
    }
  const cached = Array.from({ length: 40 }, once);
  process.stdout.write(JSON.stringify({ cold, restamped, cached }));
}

function bigRepo() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "airlock-msgbench-")));
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  const now = 1_790_000_000;
  let stream = "";
  for (let i = 1; i <= 10_000; i++) {
    const msg = `change ${i}: adjust module m${i % 50}\n\nA body line for commit ${i}.\n`;
    const file = `export const v${i} = ${i};\n`;
    stream += `commit refs/heads/main\nmark :${i}\ncommitter Dev <dev@example.com> ${now + i} +0000\n`;
    stream += `data ${Buffer.byteLength(msg)}\n${msg}`;
    if (i > 1) stream += `from :${i - 1}\n`;
    stream += `M 100644 inline src/m${i % 50}.ts\ndata ${Buffer.byteLength(file)}\n${file}\n`;
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: stream, maxBuffer: 1 << 28 });
  execFileSync("git", ["checkout", "-q", "main"], { cwd: dir });
  // A reflog as an active repository has one: one line per commit.
  const ids = execFileSync("git", ["rev-list", "--reverse", "main"], { cwd: dir, encoding: "utf8" })
    .trim()
    .split("\n");
  let log = "";
  ids.forEach((id, k) => {
    const old = k === 0 ? "0".repeat(40) : ids[k - 1];
    log += `${old} ${id} Dev <dev@example.com> ${now + k} +0000\tcommit: change ${k + 1}: adjust module m${(k + 1) % 50}\n`;
  });
  writeFileSync(join(dir, ".git", "logs", "HEAD"), log);
  return dir;
}

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3);
}

function runChild(engine, repo, command, restamp) {
  const r = spawnSync(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      "--child",
      `--engine=${engine}`,
      `--repo=${repo}`,
      `--command=${command}`,
      `--restamp=${restamp ? 1 : 0}`,
    ],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

async function main() {
  const base = arg("base");
  const coldRuns = Number(arg("cold") ?? 3);
  const out = arg("out") ?? join(here, "git-messages-results.json");
  const repos = { "this repository": join(here, "..", ".."), "10,000 commits": bigRepo() };
  const counts = {};
  for (const [name, dir] of Object.entries(repos))
    counts[name] = Number(
      execFileSync("git", ["rev-list", "--all", "--count"], { cwd: dir, encoding: "utf8" }).trim(),
    );
  const engines = { after: join(here, "..", "..") };
  if (base !== undefined) engines.before = base;
  const load0 = loadavg()[0];
  const results = {};
  for (const [engineName, engine] of Object.entries(engines)) {
    results[engineName] = {};
    for (const [repoName, repo] of Object.entries(repos)) {
      const rows = {};
      for (const command of COMMANDS) {
        const runs = Array.from({ length: coldRuns }, (_, k) =>
          runChild(engine, repo, command, k === 0 && repoName !== "this repository"),
        );
        const cached = runs.flatMap((r) => r.cached);
        const restamped = runs.flatMap((r) => r.restamped);
        rows[command] = {
          action: runs[0].cold.action,
          coldWall: pct(
            runs.map((r) => r.cold.wall),
            50,
          ),
          coldCpu: pct(
            runs.map((r) => r.cold.cpu),
            50,
          ),
          ...(restamped.length > 0
            ? {
                restampedWallP50: pct(
                  restamped.map((r) => r.wall),
                  50,
                ),
                restampedCpuP50: pct(
                  restamped.map((r) => r.cpu),
                  50,
                ),
              }
            : {}),
          cachedWallP50: pct(
            cached.map((r) => r.wall),
            50,
          ),
          cachedWallP99: pct(
            cached.map((r) => r.wall),
            99,
          ),
          cachedCpuP50: pct(
            cached.map((r) => r.cpu),
            50,
          ),
        };
        console.log(engineName, repoName, command, JSON.stringify(rows[command]));
      }
      results[engineName][repoName] = rows;
    }
  }
  rmSync(repos["10,000 commits"], { recursive: true, force: true });
  // after ÷ before, per repository and command: what the message scan adds.
  const ratio = {};
  if (results.before !== undefined)
    for (const [repoName, rows] of Object.entries(results.after))
      for (const [command, a] of Object.entries(rows)) {
        const b = results.before[repoName][command];
        ratio[`${repoName}: ${command}`] = {
          cold: +(a.coldWall / b.coldWall).toFixed(2),
          ...(a.restampedWallP50 !== undefined
            ? { restamped: +(a.restampedWallP50 / b.restampedWallP50).toFixed(2) }
            : {}),
          cachedP50: +(a.cachedWallP50 / b.cachedWallP50).toFixed(2),
        };
      }
  const result = {
    what: "git decisions with the disk look (balanced starter policy): cold = first decision of a fresh process (median of N), restamped = after the repository's refs change (listing again, objects known by id), cached = repeated; wall ms include git children, cpu ms the deciding process only",
    command: `node bench/policy/git-messages.mjs${base ? " --base=<HEAD~ archive>" : ""} --cold=${coldRuns}`,
    date: new Date().toISOString(),
    machine: `${cpus().length} vCPU ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
    commits: counts,
    ...results,
    ...(results.before !== undefined ? { ratioAfterToBefore: ratio } : {}),
  };
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv.includes("--child")) await child();
else await main();
