// Per-call overhead of Airlock inside real Claude Code (`claude -p`, the native binary from npm) against the scripted
// local model: each run makes CALLS Read calls, one per turn, and the model server times each tool round trip (its
// answer sent → the next request with the tool result). Three arms per round, in rotating order: no Airlock, the
// command hook (through a running daemon), the http hook (the same daemon), and an http hook to a server that answers
// `{}` at once (Claude Code's own cost of any http hook: the floor no endpoint can go under). Overhead = an arm's p50
// round trip minus the no-Airlock arm's p50 in the same rounds, with a bootstrap CI over rounds (the load on this shared
// machine changes from round to round, so rounds are resampled whole). Writes claude-code.json and claude-code.md
// beside itself (--record) or under bench/.scratch. Switches: BENCH_ROUNDS (default 16), BENCH_CALLS (default 20),
// BENCH_SPLIT_ROUNDS (the debug-log phase, default 4), BENCH_MAX_S (no round starts after it, default 420), --no-build.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startModelServer } from "../../test/support/model-server.ts";
import { percentile, rng as prng, resultsFile, summarize, writeResults } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const NODE = process.execPath;
const BIN = join(root, "bin", "airlock.cjs");
const BIN_DIR = join(root, "node_modules", ".bin");
const CLAUDE = join(BIN_DIR, "claude");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const BOOTSTRAP = 2000;
/** No new round starts after this many seconds (BENCH_MAX_S): on a loaded machine a round takes minutes. */
const MAX_S = Number(process.env.BENCH_MAX_S ?? 420);
const ARMS = ["none", "command", "http", "http_floor"];
const OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
};
const POLICY = `version: 1
default_action: deny
rules:
  - name: Read the workspace
    condition: tool == "read"
    action: allow
`;

if (process.argv.includes("--report-only")) {
  // Re-renders claude-code.md from the committed claude-code.json, measuring nothing.
  const saved = JSON.parse(readFileSync(join(here, "claude-code.json"), "utf8"));
  writeFileSync(join(here, "claude-code.md"), markdown(saved));
  process.exit(0);
}
if (!process.argv.includes("--no-build"))
  execFileSync("npm", ["run", "build:node"], { cwd: root, stdio: "inherit" });

const base = mkdtempSync(join(tmpdir(), "airlock-cc-overhead-"));
const ws = join(base, "ws");
const home = join(base, "home");
const airlockHome = join(home, ".airlock");
mkdirSync(ws, { recursive: true });
mkdirSync(join(ws, ".git"));
mkdirSync(airlockHome, { recursive: true, mode: 0o700 });
writeFileSync(join(airlockHome, "permissions.yaml"), POLICY);
for (let i = 0; i < CALLS; i++) writeFileSync(join(ws, `f${i}.txt`), `file ${i}\n`);

const env = {
  PATH: `${BIN_DIR}${delimiter}${process.env.PATH}`,
  HOME: home,
  AIRLOCK_HOME: airlockHome,
  AIRLOCK_SOCKET: join(base, "daemon.sock"),
  AIRLOCK_AUTOSTART: "0",
  LANG: "C.UTF-8",
};

/**
 * Answers every hook post with an empty body (no opinion, as the daemon answers an allowed Read) at once, in a process
 * of its own as the daemon is: what Claude Code's http hook costs with no work behind it. It counts the posts per hook
 * event and the TCP connections they came on (a GET answers them): whether PermissionRequest fires for an allowed Read,
 * and whether Claude Code keeps the connection alive between calls.
 */
const FLOOR_SERVER = `const seen = { connections: 0, events: {} };
const s = require("node:http").createServer((q, r) => { let b = ""; q.on("data", (d) => (b += d)); q.on("end", () => {
  if (q.method === "GET") return r.end(JSON.stringify({ ...seen, connections: seen.connections - 1 })); // less the GET's own
  const e = JSON.parse(b).hook_event_name; seen.events[e] = (seen.events[e] ?? 0) + 1;
  r.sendDate = false; r.writeHead(200, { "content-type": "application/json", "content-length": 0 }); r.end(); }); });
s.on("connection", () => seen.connections++);
s.listen(0, "127.0.0.1", () => console.log(s.address().port));
process.on("SIGTERM", () => process.exit(0));`;
function startFloorServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, ["-e", FLOOR_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.once("data", (d) =>
      resolve({
        port: Number(String(d).trim()),
        close: () => new Promise((r) => child.once("exit", r).kill("SIGTERM")),
      }),
    );
    child.once("error", reject);
  });
}
const floor = await startFloorServer();

/** A Claude Code config dir per arm: no hooks, command hooks, http hooks (installed by the real installer). */
function configFor(arm) {
  const dir = join(base, `claude-${arm}`);
  mkdirSync(dir, { recursive: true });
  if (arm === "none") writeFileSync(join(dir, "settings.json"), "{}\n");
  else if (arm === "http_floor") {
    const hook = {
      type: "http",
      url: `http://127.0.0.1:${floor.port}/hooks/claude-code`,
      timeout: 60,
      onFailure: "block",
    };
    writeFileSync(
      join(dir, "settings.json"),
      // The same two per-call events the installer writes, so the floor differs from the http arm only in the answer.
      `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [hook] }], PermissionRequest: [{ matcher: "*", hooks: [hook] }] } })}\n`,
    );
  } else {
    const args = ["hook", "claude-code", "--install", "--json", ...(arm === "command" ? ["--command"] : [])];
    const out = JSON.parse(
      execFileSync(NODE, [BIN, ...args], { env: { ...env, CLAUDE_CONFIG_DIR: dir } }).toString(),
    );
    if (!out.hookType.startsWith(arm)) throw new Error(`installer chose ${out.hookType} for the ${arm} arm`);
  }
  return dir;
}

function startDaemon() {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, "up"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const onData = (d) => {
      log += d;
      if (log.includes("ready (socket"))
        resolve({ log: () => log, stop: () => new Promise((r) => child.once("exit", r).kill("SIGTERM")) });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`daemon exited (${code}): ${log}`)));
  });
}

/** One run: CALLS Read calls; returns each tool round trip as the model server saw it. */
async function claudeRun(configDir, debugFile) {
  const script = Array.from({ length: CALLS }, (_, i) => ({
    toolCalls: [{ name: "Read", input: { file_path: join(ws, `f${i}.txt`) } }],
  }));
  const model = await startModelServer(script);
  try {
    await new Promise((resolve, reject) => {
      const debug = debugFile ? ["--debug", "--debug-file", debugFile] : [];
      const child = spawn(CLAUDE, ["-p", "Read the files.", "--output-format", "json", ...debug], {
        cwd: ws,
        env: {
          ...env,
          ...OFFLINE,
          CLAUDE_CONFIG_DIR: configDir,
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_API_KEY: "sk-ant-bench-dummy",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`claude (${code}): ${out}`))));
    });
    const turns = model.agentTurns();
    const results = model.toolResults();
    if (turns.length !== CALLS + 1 || results.some((r) => r.isError))
      throw new Error(`expected ${CALLS} served reads: ${JSON.stringify(results).slice(0, 400)}`);
    const gaps = [];
    for (let i = 1; i < turns.length; i++) gaps.push(turns[i].receivedAt - turns[i - 1].answeredAt);
    return gaps;
  } finally {
    await model.close();
  }
}

/**
 * Claude Code's own account of a run, from its debug log: per tool call, the permission phase it timed
 * (`permissionDecisionMs`, the hooks included; whole ms), and per http hook, "HTTP hook POST" → "response status"
 * (whole-ms timestamps). Medians over many calls, so the quantisation averages out in the means.
 */
function debugSplit(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const permission = [];
  const hook = [];
  let posted;
  for (const line of lines) {
    const at = Date.parse(line.slice(0, 24));
    const p = /tool_dispatch_start tool=Read .*permissionDecisionMs=(\d+)/.exec(line);
    if (p) permission.push(Number(p[1]));
    if (line.includes("Hooks: HTTP hook POST")) posted = at;
    else if (line.includes("Hooks: HTTP hook response status") && posted !== undefined) {
      hook.push(at - posted);
      posted = undefined;
    }
  }
  return { permission, hook };
}
const SPLIT_ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 4);
const SPLIT_ARMS = ["none", "http", "http_floor"];
const split = Object.fromEntries(SPLIT_ARMS.map((arm) => [arm, { permission: [], hook: [] }]));
/** Each debug round's permission phases per arm, kept whole for the bootstrap. */
const splitRounds = [];

const version = execFileSync(CLAUDE, ["--version"]).toString().trim();
const configs = Object.fromEntries(ARMS.map((arm) => [arm, configFor(arm)]));
const daemon = await startDaemon();
if (!/http hooks listening/.test(daemon.log())) throw new Error("the daemon does not serve http hooks");
const load0 = loadavg()[0];
const roundLoads = [];
const samples = Object.fromEntries(ARMS.map((arm) => [arm, []]));
const started = Date.now();
const perRound = [];
/** Each round's gaps per arm, kept whole for the bootstrap. */
const roundGaps = [];
const DIRECT = 500;
const direct = [];
let floorSeen = {};
const floorDirect = [];
try {
  await claudeRun(configs.none); // warm-up: Claude Code's first start on this machine is slower
  for (let round = 0; round < ROUNDS; round++) {
    if (round > 0 && Date.now() - started > MAX_S * 1000) {
      console.log(`stopping after ${round} rounds: ${MAX_S} s passed`);
      break;
    }
    const order = ARMS.map((_, i) => ARMS[(i + round) % ARMS.length]);
    const medians = {};
    const gapsOf = {};
    for (const arm of order) {
      const gaps = await claudeRun(configs[arm]);
      samples[arm].push(...gaps);
      gapsOf[arm] = gaps;
      medians[arm] = summarize(gaps).p50_ms;
    }
    perRound.push(medians);
    roundGaps.push(gapsOf);
    roundLoads.push(loadavg()[0]);
    console.log(`round ${round + 1}/${ROUNDS}: ${JSON.stringify(medians)}`);
  }
  // What Claude Code posted to the floor (before this process posts to it below).
  floorSeen = await (await fetch(`http://127.0.0.1:${floor.port}/seen`)).json();
  // Claude Code's own timing of each call's permission phase (hooks included), from its debug log: a separate phase,
  // so debug logging never touches the round trips above.
  for (let round = 0; round < SPLIT_ROUNDS; round++) {
    const permissionOf = {};
    splitRounds.push(permissionOf);
    for (let i = 0; i < SPLIT_ARMS.length; i++) {
      const chosen = SPLIT_ARMS[(i + round) % SPLIT_ARMS.length];
      const file = join(base, `debug-${chosen}-${round}.log`);
      await claudeRun(configs[chosen], file);
      const got = debugSplit(file);
      split[chosen].permission.push(...got.permission);
      permissionOf[chosen] = got.permission;
      split[chosen].hook.push(...got.hook);
    }
  }
  // The endpoint alone, without Claude Code around it: the same PreToolUse event posted from this process.
  const { port, secret } = JSON.parse(readFileSync(join(airlockHome, "http-hook.json"), "utf8"));
  for (let i = 0; i < DIRECT; i++) {
    const body = JSON.stringify({
      session_id: "bench",
      cwd: ws,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(ws, "f0.txt") },
      tool_use_id: `direct_${i}`,
    });
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/hooks/claude-code`, {
      method: "POST",
      headers: { "x-airlock-hook-secret": secret, "content-type": "application/json" },
      body,
    });
    await res.text();
    if (res.status !== 200) throw new Error(`direct post answered ${res.status}`);
    direct.push(performance.now() - t);
    const t2 = performance.now();
    const floorRes = await fetch(`http://127.0.0.1:${floor.port}/hooks/claude-code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await floorRes.text();
    floorDirect.push(performance.now() - t2);
  }
} finally {
  await daemon.stop();
  await floor.close();
  rmSync(base, { recursive: true, force: true });
}

// p10 as well: on a loaded machine the low end of each arm is the closest to its uncontended cost.
const p10 = (xs) =>
  Math.round(
    percentile(
      [...xs].sort((a, b) => a - b),
      10,
    ) * 1000,
  ) / 1000;
const summary = Object.fromEntries(
  ARMS.map((arm) => [arm, { ...summarize(samples[arm]), p10_ms: p10(samples[arm]) }]),
);
const overheadP10 = (arm) => Math.round((summary[arm].p10_ms - summary.none.p10_ms) * 10) / 10;
const overhead = (arm) => Math.round((summary[arm].p50_ms - summary.none.p50_ms) * 10) / 10;
const pairedOverhead = (arm) => {
  const diffs = perRound.map((m) => m[arm] - m.none).sort((a, b) => a - b);
  return Math.round(diffs[Math.floor(diffs.length / 2)] * 10) / 10;
};
/** The median over rounds of one arm's p50 minus another's: Airlock's own share above Claude Code's http floor. */
const pairedOver = (arm, other) => {
  const diffs = perRound.map((m) => m[arm] - m[other]).sort((a, b) => a - b);
  return Math.round(diffs[Math.floor(diffs.length / 2)] * 10) / 10;
};
const p50Of = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
/**
 * 95% bootstrap interval of p50(arm) − p50(other), pooled: rounds are drawn with replacement and kept whole (both arms
 * of a round ran under the same load), BOOTSTRAP times.
 */
function bootstrapAdded(arm, other, rounds = roundGaps) {
  const random = prng(24);
  const stats = [];
  for (let b = 0; b < BOOTSTRAP; b++) {
    const a = [];
    const o = [];
    for (let i = 0; i < rounds.length; i++) {
      const r = rounds[Math.floor(random() * rounds.length)];
      a.push(...r[arm]);
      o.push(...r[other]);
    }
    stats.push(p50Of(a) - p50Of(o));
  }
  stats.sort((x, y) => x - y);
  const r1 = (x) => Math.round(x * 10) / 10;
  return [r1(percentile(stats, 2.5)), r1(percentile(stats, 97.5))];
}
const report = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    nproc: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavg_1m_before: Math.round(load0 * 100) / 100,
    loadavg_1m_after: Math.round(loadavg()[0] * 100) / 100,
    loadavg_1m_per_round: roundLoads.map((l) => Math.round(l * 100) / 100),
  },
  claude_code: version,
  rounds: perRound.length,
  calls_per_run: CALLS,
  round_trip: summary,
  overhead_p50_ms: Object.fromEntries(ARMS.slice(1).map((a) => [a, overhead(a)])),
  overhead_p10_ms: Object.fromEntries(ARMS.slice(1).map((a) => [a, overheadP10(a)])),
  overhead_paired_median_ms: Object.fromEntries(ARMS.slice(1).map((a) => [a, pairedOverhead(a)])),
  airlock_over_floor_paired_median_ms: pairedOver("http", "http_floor"),
  added_p50_ci95_ms: {
    http: bootstrapAdded("http", "none"),
    http_floor: bootstrapAdded("http_floor", "none"),
    command: bootstrapAdded("command", "none"),
    http_over_floor: bootstrapAdded("http", "http_floor"),
  },
  floor_server_saw: floorSeen,
  airlock_over_floor_p10_ms: Math.round((summary.http.p10_ms - summary.http_floor.p10_ms) * 10) / 10,
  endpoint_over_floor_p50_ms:
    Math.round((summarize(direct).p50_ms - summarize(floorDirect).p50_ms) * 100) / 100,
  wall_s: Math.round((Date.now() - started) / 1000),
  per_round_p50_ms: perRound,
  endpoint_direct: summarize(direct),
  /** Claude Code's own timings from its debug log (whole ms): permission phase per Read, http hook POST → answer. */
  claude_code_debug: Object.fromEntries(
    SPLIT_ARMS.map((arm) => [
      arm,
      {
        permission_ms: split[arm].permission.length ? summarize(split[arm].permission) : null,
        hook_post_to_answer_ms: split[arm].hook.length ? summarize(split[arm].hook) : null,
      },
    ]),
  ),
  claude_code_debug_rounds: SPLIT_ROUNDS,
  /** 95% bootstrap interval (over debug rounds) of the permission phase's p50 with a hook minus without. */
  claude_code_permission_added_ci95_ms:
    splitRounds.length > 0 && splitRounds.every((r) => SPLIT_ARMS.every((a) => r[a]?.length))
      ? {
          http: bootstrapAdded("http", "none", splitRounds),
          http_floor: bootstrapAdded("http_floor", "none", splitRounds),
        }
      : null,
  floor_direct: summarize(floorDirect),
  target: "http hook: at most 5 ms added per tool call at p50",
};
writeResults(resultsFile(join(here, "claude-code.json")), report);

writeFileSync(resultsFile(join(here, "claude-code.md")), markdown(report));
console.log(markdown(report));

function markdown(r) {
  const arms = Object.keys(r.round_trip);
  const ci = (arm) => {
    const c = r.added_p50_ci95_ms?.[arm];
    return c ? `${c[0]} … ${c[1]} ms` : "—";
  };
  const row = (arm) =>
    `| ${arm} | ${r.round_trip[arm].p10_ms} ms | ${r.round_trip[arm].p50_ms} ms | ${r.round_trip[arm].p99_ms} ms | ${r.round_trip[arm].n} | ${arm === "none" ? "—" : `${r.overhead_p50_ms[arm]} ms`} | ${arm === "none" ? "—" : ci(arm)} | ${arm === "none" ? "—" : `${r.overhead_paired_median_ms[arm]} ms`} | ${arm === "none" ? "—" : `${r.overhead_p10_ms[arm]} ms`} |`;
  const loads = r.machine.loadavg_1m_per_round ?? [];
  const seen = r.floor_server_saw ?? {};
  return `# Airlock's per-call overhead inside real Claude Code

${r.date} — ${r.machine.cpu}, nproc ${r.machine.nproc}, ${r.machine.node}, ${r.machine.platform}; ${r.claude_code}; 1-minute load average ${r.machine.loadavg_1m_before} before, ${r.machine.loadavg_1m_after} after${loads.length ? `, ${Math.min(...loads)}–${Math.max(...loads)} across rounds` : ""}

\`node bench/companion/claude-code.mjs --record\` (${r.wall_s} s): ${r.rounds} rounds × ${arms.length} arms × ${r.calls_per_run} Read calls per \`claude -p\` run, arms in rotating order each round; the scripted model server on 127.0.0.1 times each tool round trip (its answer sent → Claude Code's next request carrying the tool result), which holds Claude Code's own work, the hook, and the read. Policy: allow reads, deny the rest (unpaired, so nothing waits for a person). \`command\` = \`airlock hook claude-code --install --command\`, \`http\` = \`airlock hook claude-code --install\` (http PreToolUse/PermissionRequest, \`onFailure: "block"\`), both through the same running \`airlock up\`; \`http_floor\` = the same two http hooks to a process that answers an empty body at once (what Claude Code itself spends on any http hook, the floor no endpoint can go under).

Target: the http hook adds at most 5 ms per tool call (p50). **Against no hook: ${r.overhead_p50_ms.http} ms pooled p50 (95% bootstrap CI over rounds ${ci("http")})**, ${r.overhead_paired_median_ms.http} ms median of per-round differences, ${r.overhead_p10_ms.http} ms at p10. Claude Code's own floor for any http hook: ${r.overhead_p50_ms.http_floor} ms (CI ${ci("http_floor")}). Airlock's share above that floor: ${r.added_p50_ci95_ms ? `CI ${ci("http_over_floor")} pooled, ` : ""}${r.airlock_over_floor_paired_median_ms} ms median of per-round differences, ${r.airlock_over_floor_p10_ms} ms at p10; on the endpoint alone, ${r.endpoint_over_floor_p50_ms} ms p50 (below). The command hook: ${r.overhead_p50_ms.command} ms pooled.

| arm | round trip p10 | p50 | p99 | n | added p50 (pooled) | 95% CI of added p50 | added (median of rounds) | added p10 |
|---|---|---|---|---|---|---|---|---|
${arms.map(row).join("\n")}

The endpoint alone (the same PreToolUse Read event posted ${r.endpoint_direct.n} times from Node's fetch, alternating between the running daemon — decision, audit, answer — and the floor process): daemon p50 ${r.endpoint_direct.p50_ms} ms, p99 ${r.endpoint_direct.p99_ms} ms; floor p50 ${r.floor_direct.p50_ms} ms, p99 ${r.floor_direct.p99_ms} ms.
${
  seen.events
    ? `\nWhat Claude Code posted to the floor process: ${Object.entries(seen.events)
        .map(([e, n]) => `${n} ${e} posts`)
        .join(
          ", ",
        )}${seen.events.PermissionRequest ? "" : " (no PermissionRequest: it never fired for a Read Claude Code allows by itself)"} on ${seen.connections} TCP connections, over ${r.rounds} \`claude -p\` runs of ${r.calls_per_run} calls.\n`
    : ""
}
${
  r.claude_code_debug
    ? `Claude Code's own timings (a separate phase of ${r.claude_code_debug_rounds} rounds × ${Object.keys(r.claude_code_debug).length} arms with \`--debug-file\`, whole-ms values, so read the means): the permission phase of each Read (\`permissionDecisionMs\`, the hooks included) ${Object.entries(
        r.claude_code_debug,
      )
        .map(([a, d]) =>
          d.permission_ms
            ? `${a} mean ${d.permission_ms.mean_ms} ms / p50 ${d.permission_ms.p50_ms} ms (n ${d.permission_ms.n})`
            : `${a} —`,
        )
        .join(
          ", ",
        )}${r.claude_code_permission_added_ci95_ms ? ` (added p50, 95% bootstrap CI over rounds: http ${r.claude_code_permission_added_ci95_ms.http[0]} … ${r.claude_code_permission_added_ci95_ms.http[1]} ms, floor ${r.claude_code_permission_added_ci95_ms.http_floor[0]} … ${r.claude_code_permission_added_ci95_ms.http_floor[1]} ms)` : ""}; the http hook's POST → answer as Claude Code logs it: ${Object.entries(
        r.claude_code_debug,
      )
        .filter(([, d]) => d.hook_post_to_answer_ms)
        .map(
          ([a, d]) =>
            `${a} mean ${d.hook_post_to_answer_ms.mean_ms} ms / p50 ${d.hook_post_to_answer_ms.p50_ms} ms`,
        )
        .join(", ")}.\n\n`
    : ""
}Per-round p50 (ms): ${r.per_round_p50_ms.map((m) => arms.map((a) => `${a} ${m[a]}`).join(" / ")).join("; ")}

## Reading these figures

- The machine is a shared 2-vCPU VM with other engineers' builds and tests running (see the load averages): the round
  trip of every arm swings by tens of ms from run to run. The interval is a bootstrap over whole rounds (both arms of
  a round ran under the same load), so it holds that swing; the endpoint-alone figures are the stable ones.
- Whatever Claude Code spends to run an http hook at all (the \`http_floor\` arm) is Claude Code's, not Airlock's. In
  2.1.330 the hook is an axios POST (\`user-agent: axios\`, keep-alive: one connection per session, reused), to the URL
  as written (the installer writes \`127.0.0.1\`, no name lookup), with the event (~440 bytes) as its body; its debug
  log shows 3–5 ms from "HTTP hook POST" to "response status" against an endpoint that answers in under 1 ms, then
  the JSON output is parsed and validated. PreToolUse and PermissionRequest are separate events: PermissionRequest
  fires only when Claude Code's own check would ask the person, so an allowed Read makes one round trip.
- The daemon's part is its answer time above a do-nothing endpoint: a local allow does no edge round trip, no policy
  re-read (the compiled policy is re-checked by stat at most every 250 ms) and no audit flush (one O_APPEND line; the
  edge upload is batched 500 ms later). The audit line is written before the answer on purpose: a failed write denies
  the call rather than let it run unaudited. The answer is one write (Content-Length, no chunking, no Date line) on
  the kept-alive connection, and an allowed Read answers an empty body.
`;
}
