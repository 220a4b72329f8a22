// Decisions with filesystem resolution (issue 20): the companion resolving every path of a call on the
// real disk at decision time, on a 20,000-file workspace (a git repository with a 15,000-file ignored
// vendor tree, a 2,000-file src tree, docs and tests, a .env). Measures single commands and recursive
// walks with the disk look (what the companion does) against the same decisions on the text alone
// (what the edge does), and writes fs-resolve-results.json. Targets: p99 ≤ 2 ms for a single command,
// ≤ 20 ms for a recursive walk.
//   node bench/policy/fs-resolve.mjs [--iterations=N] [--only=REGEX] [--out=FILE]
// --only keeps the rows whose call matches (a short run of a few rows); --out writes elsewhere than
// fs-resolve-results.json (a partial run must not replace the full one).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, "..", "..", "src");
const { compilePolicy } = await import(join(src, "policy", "index.ts"));
const { judgeCall } = await import(join(src, "policy", "judge-call.ts"));
const { diskCheck } = await import(join(src, "companion", "guards", "disk-view.ts"));

const N = Number(process.argv.find((a) => a.startsWith("--iterations="))?.split("=")[1] ?? 1000);
const onlyArg = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const only = onlyArg === undefined ? null : new RegExp(onlyArg);
const out =
  process.argv.find((a) => a.startsWith("--out="))?.slice(6) ?? join(here, "fs-resolve-results.json");

function workspace() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fsbench-")));
  const ws = join(root, "ws");
  mkdirSync(ws);
  execFileSync("git", ["init", "-q", "."], { cwd: ws });
  let files = 0;
  const put = (rel, text) => {
    const p = join(ws, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    files++;
  };
  put("package.json", '{"name":"bench"}\n');
  put("README.md", "# bench\n");
  put(".gitignore", "vendor/\n");
  put(".env", "API_KEY=x\n");
  for (let d = 0; d < 100; d++)
    for (let f = 0; f < 20; f++) put(`src/m${d}/f${f}.ts`, `export const f${f} = ${d};\n`);
  for (let d = 0; d < 300; d++)
    for (let f = 0; f < 50; f++) put(`vendor/p${d}/lib/i${f}.js`, "module.exports = 1;\n");
  for (let f = 0; f < 1500; f++) put(`docs/d${f % 30}/page${f}.md`, "text\n");
  for (let f = 0; f < 1496; f++) put(`tests/t${f % 40}/case${f}.test.ts`, "it('x', () => {});\n");
  // A 1 MiB log and a 4 MiB one: a read by name scans them for a private key in chunks.
  put("logs/app.log", "x".repeat(1 << 20));
  put("logs/big.log", "y".repeat(4 << 20));
  symlinkSync(join(ws, "src", "m0"), join(ws, "src-link"));
  // A history (the tracked tree, without .env) for the content-printing git commands to check.
  const g = (...a) => execFileSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", ...a], { cwd: ws });
  g("add", "package.json", "README.md", ".gitignore", "src", "docs", "tests");
  g("commit", "-qm", "bench");
  return { root, ws, files };
}

function policy() {
  const text = `version: 1
default_action: ask
rules:
  - name: recursive reads in the workspace
    condition: 'tool == "read" && recursive && path.startsWith(cwd + "/")'
    action: allow
  - name: reads in the workspace
    condition: 'tool in ["read", "grep", "find", "ls"] && (path == cwd || path.startsWith(cwd + "/"))'
    action: allow
  - name: read-only programs
    condition: 'tool == "bash" && program in ["cat", "grep", "rg", "ls", "git", "head", "wc"]'
    action: allow
`;
  const c = compilePolicy([{ layer: "user", path: "bench", text }]);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  return c.policy;
}

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

// Wall clock and the process's CPU time per decision: on a shared machine the wall p99 is mostly
// waiting for a core, which CPU time (user + system, process.cpuUsage) does not count. The first
// decision (cold: nothing of this workspace cached, every walked file read for a key) is kept apart.
function measure(pol, ws, disk, tool, input, n) {
  const call = { tool, input, cwd: ws };
  const c0 = process.hrtime.bigint();
  let action = judgeCall(pol, call, { hasUI: true }, disk).record.action;
  const cold = Number(process.hrtime.bigint() - c0) / 1e6;
  for (let i = 1; i < Math.min(50, n); i++)
    action = judgeCall(pol, call, { hasUI: true }, disk).record.action;
  const times = [];
  const cpu = [];
  for (let i = 0; i < n; i++) {
    const u0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    judgeCall(pol, call, { hasUI: true }, disk);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const u = process.cpuUsage(u0);
    cpu.push((u.user + u.system) / 1000);
  }
  return {
    action,
    cold: +cold.toFixed(3),
    p50: +pct(times, 50).toFixed(3),
    p99: +pct(times, 99).toFixed(3),
    cpuP50: +pct(cpu, 50).toFixed(3),
    cpuP99: +pct(cpu, 99).toFixed(3),
  };
}

const SINGLE = [
  ["bash", { command: "cat package.json" }],
  ["bash", { command: "cat src/m3/f4.ts" }],
  ["bash", { command: "head -n 5 README.md" }],
  ["bash", { command: "ls -la" }],
  ["bash", { command: "git status" }],
  ["bash", { command: "git log --oneline -5 && git status" }],
  ["bash", { command: "cat src/m7/*.ts" }],
  ["bash", { command: "cat src-link/f1.ts" }],
  ["Read", { file_path: "src/m9/f9.ts" }],
  ["exec_command", { cmd: "wc -l package.json", workdir: "." }],
  ["bash", { command: "git diff" }],
  ["bash", { command: "git log -p -3" }],
  ["bash", { command: "git show HEAD" }],
  ["bash", { command: "echo $HOME; echo $SENTRY_DSN" }],
  ["Read", { file_path: "logs/app.log" }],
  ["Read", { file_path: "logs/big.log" }],
];
const WALKS = [
  ["bash", { command: "grep -rn foo src" }],
  ["bash", { command: "rg foo src" }],
  ["bash", { command: "rg foo" }],
  ["bash", { command: "grep -rn foo docs tests" }],
  ["Grep", { pattern: "foo", path: "src" }],
  ["Grep", { pattern: "foo", path: "tests", glob: "*.ts" }],
  ["bash", { command: "grep -rn foo ." }],
];

const started = new Date();
const { root, ws, files } = workspace();
// Files changed within the last second are scanned but their answers not kept (key-scan.ts): let the
// workspace age past that, as a real one has.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_200);
const pol = policy();
const disk = diskCheck({ env: {} });
const load = loadavg()[0];
const rows = [];
for (const [label, set, n] of [
  ["single", SINGLE, N],
  ["walk", WALKS, Math.max(20, Math.floor(N / 10))],
]) {
  for (const [tool, input] of set) {
    if (only !== null && !only.test(`${tool} ${JSON.stringify(input)}`)) continue;
    const withDisk = measure(pol, ws, disk, tool, input, n);
    const textOnly = measure(pol, ws, undefined, tool, input, n);
    rows.push({ kind: label, tool, input, n, disk: withDisk, text: textOnly });
    console.log(
      `${label.padEnd(6)} ${`${tool} ${JSON.stringify(input)}`.padEnd(62)} ${withDisk.action.padEnd(5)} disk cold ${withDisk.cold} p50 ${withDisk.p50} p99 ${withDisk.p99} cpu p50 ${withDisk.cpuP50} p99 ${withDisk.cpuP99} ms | text p50 ${textOnly.p50} ms p99 ${textOnly.p99} ms`,
    );
  }
}
rmSync(root, { recursive: true, force: true });
const worst = (k, f = "p99") =>
  Math.max(0, ...rows.filter((r) => r.kind === k && r.disk.action === "allow").map((r) => r.disk[f]));
const result = {
  date: started.toISOString(),
  machine: `${cpus().length} vCPU ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
  workspace_files: files,
  iterations: N,
  worst_allowed_single_p99_ms: worst("single"),
  worst_allowed_walk_p99_ms: worst("walk"),
  worst_allowed_single_cpu_p99_ms: worst("single", "cpuP99"),
  worst_allowed_walk_cpu_p99_ms: worst("walk", "cpuP99"),
  targets: { single_p99_ms: 2, walk_p99_ms: 20 },
  rows,
};
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `worst allowed single p99 ${result.worst_allowed_single_p99_ms} ms (cpu ${result.worst_allowed_single_cpu_p99_ms}), walk p99 ${result.worst_allowed_walk_p99_ms} ms (cpu ${result.worst_allowed_walk_cpu_p99_ms}) (${files} files)`,
);
