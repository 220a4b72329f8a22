// Per-call cost of the Gemini CLI, OpenCode and Copilot CLI hooks as the agent pays it: one spawned process per tool
// call, stdin to exit, against a running `airlock up`. Arms, interleaved round by round so they see the same load:
// `node -e ""` (the floor any spawned hook pays), the fast entry (`airlock hook <agent>`: one CommonJS file hands the
// event to the daemon) and the full CLI the three used before (the same `airlock hook <agent>` through
// dist/companion/cli.js, which also asks the daemon). Writes agent-hooks.json and agent-hooks.md beside itself
// (--record) or under bench/.scratch. Switches: BENCH_ROUNDS (default 30), --no-build.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resultsFile, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const NODE = process.execPath;
const BIN = join(root, "bin", "airlock.cjs");
const CLI = pathToFileURL(join(root, "dist", "companion", "cli.js")).href;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const POLICY = `version: 1
default_action: deny
rules:
  - name: Read the workspace
    condition: tool == "read"
    action: allow
`;

if (!process.argv.includes("--no-build"))
  execFileSync("npm", ["run", "build:node"], { cwd: root, stdio: "inherit" });

const base = mkdtempSync(join(tmpdir(), "airlock-agent-hooks-"));
const ws = join(base, "ws");
const airlockHome = join(base, "home", ".airlock");
mkdirSync(join(ws, ".git"), { recursive: true });
mkdirSync(airlockHome, { recursive: true, mode: 0o700 });
writeFileSync(join(airlockHome, "permissions.yaml"), POLICY);
writeFileSync(join(ws, "a.txt"), "a\n");
const env = {
  PATH: process.env.PATH,
  HOME: join(base, "home"),
  AIRLOCK_HOME: airlockHome,
  AIRLOCK_SOCKET: join(base, "daemon.sock"),
  AIRLOCK_AUTOSTART: "0",
};

/** Each agent's event for an allowed read (the common call), as the agent sends it. */
const EVENTS = {
  gemini: {
    session_id: "b",
    cwd: ws,
    hook_event_name: "BeforeTool",
    tool_name: "read_file",
    tool_input: { file_path: join(ws, "a.txt") },
  },
  opencode: {
    hook_event_name: "tool.execute.before",
    session_id: "b",
    call_id: "c",
    cwd: ws,
    tool: "read",
    args: { filePath: join(ws, "a.txt") },
  },
  copilot: { sessionId: "b", timestamp: 1, cwd: ws, toolName: "view", toolArgs: { path: join(ws, "a.txt") } },
};
const FULL_CLI = (agent) =>
  `require("node:module").enableCompileCache?.(); import(${JSON.stringify(CLI)}).then(async (m) => { process.exitCode = await m.main(["hook", ${JSON.stringify(agent)}]); });`;

function timed(args, stdin) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(NODE, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve({ ms: performance.now() - t, out }) : reject(new Error(`exit ${code}: ${out}`)),
    );
    child.stdin.end(stdin);
  });
}

const daemon = await new Promise((resolve, reject) => {
  const child = spawn(NODE, [BIN, "up"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const onData = (d) => {
    log += d;
    if (log.includes("ready (socket"))
      resolve({ stop: () => new Promise((r) => child.once("exit", r).kill("SIGTERM")) });
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  child.once("exit", (code) => reject(new Error(`daemon exited (${code}): ${log}`)));
});

const load0 = loadavg()[0];
const samples = { noop: [] };
for (const agent of Object.keys(EVENTS)) {
  samples[`${agent}_fast`] = [];
  samples[`${agent}_full_cli`] = [];
}
try {
  for (let round = 0; round < ROUNDS; round++) {
    samples.noop.push((await timed(["-e", ""], "")).ms);
    for (const [agent, event] of Object.entries(EVENTS)) {
      const stdin = JSON.stringify(event);
      const fast = await timed([BIN, "hook", agent], stdin);
      const full = await timed(["-e", FULL_CLI(agent)], stdin);
      if (fast.out !== full.out)
        throw new Error(`${agent}: the two entries answered differently: ${fast.out} / ${full.out}`);
      samples[`${agent}_fast`].push(fast.ms);
      samples[`${agent}_full_cli`].push(full.ms);
    }
  }
} finally {
  await daemon.stop();
  rmSync(base, { recursive: true, force: true });
}

const summary = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
const report = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    nproc: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavg_1m_before: Math.round(load0 * 100) / 100,
    loadavg_1m_after: Math.round(loadavg()[0] * 100) / 100,
  },
  rounds: ROUNDS,
  spawn_to_exit: summary,
  target: "each agent's hook through the fast entry costs about a bare node start, not the full CLI's load",
};
writeResults(resultsFile(join(here, "agent-hooks.json")), report);
const rows = Object.entries(summary)
  .map(
    ([k, s]) =>
      `| ${k} | ${s.p50_ms} ms | ${s.p99_ms} ms | ${s.n} | ×${Math.round((s.p50_ms / summary.noop.p50_ms) * 100) / 100} |`,
  )
  .join("\n");
const md = `# Gemini CLI, OpenCode and Copilot CLI hooks: per-call cost

${report.date} — ${report.machine.cpu}, nproc ${report.machine.nproc}, ${report.machine.node}, ${report.machine.platform}; 1-minute load average ${report.machine.loadavg_1m_before} before, ${report.machine.loadavg_1m_after} after

\`node bench/companion/agent-hooks.mjs --record\`: ${ROUNDS} rounds; each round spawns \`node -e ""\`, then for each agent its hook through the fast entry (\`airlock hook <agent>\`, what the installers write) and through the full CLI (what the three ran before), with the agent's event for an allowed read on stdin, timing spawn to exit. Both entries answer through the same running \`airlock up\` (checked: identical answers).

| spawned | p50 | p99 | n | p50 × node -e "" |
|---|---|---|---|---|
${rows}

The machine is a shared 2-vCPU VM (see the load average); compare each row with the \`noop\` row of the same run.
`;
writeFileSync(resultsFile(join(here, "agent-hooks.md")), md);
console.log(md);
