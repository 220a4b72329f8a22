// Precognition benchmark: real Pi (and real Claude Code for the Bash path) against the scripted local model,
// n paired runs per arm (off, then on, back to back, order alternating) with bootstrap 95% CIs; serve-time
// validation on a generated 20,000-file repo against a full re-hash; and the three file watchers compared.
// Writes results.json and results.md beside itself. Switches: BENCH_PAIRS (default 20), BENCH_TEST_SECONDS
// (default 5), BENCH_VALIDATIONS (default 1000), --no-build, --no-agents, --report-only (re-render results.md).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pairedSpeedup, summarize, writeResults } from "../lib/stats.mjs";
import {
  benchWorkspace,
  ceiling,
  claudeArm,
  piArm,
  startDaemons,
  TEST_SECONDS,
  typeDraft,
} from "./agents.mjs";
import { validationBench, watcherComparison } from "./validation.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const dist = join(root, "dist");
const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const VALIDATIONS = Number(process.env.BENCH_VALIDATIONS ?? 1000);

async function agentsBench() {
  const box = benchWorkspace(root);
  const daemons = await startDaemons(box);
  const { sockets, zeroEnv, endpoint } = daemons;
  const off = { AIRLOCK_PRECOG: "0" };
  const pi = { cold: [], standard: [], zero: [], floor: [], floorAirlock: [] };
  const claude = { cold: [], standard: [], zero: [], floor: [] };
  const same = { pi: 0, claude: 0, claudeZero: 0 };
  try {
    for (let i = 0; i < PAIRS; i++) {
      const arms = [
        async () => pi.cold.push(await piArm(box, `pi-cold-${i}`, sockets.standard, off)),
        async () => {
          await typeDraft(box, box.env(sockets.standard).AIRLOCK_SOCKET);
          pi.standard.push(await piArm(box, `pi-std-${i}`, sockets.standard, {}));
          await typeDraft(box, box.env(sockets.zero).AIRLOCK_SOCKET);
          pi.zero.push(await piArm(box, `pi-zero-${i}`, sockets.zero, zeroEnv));
        },
      ];
      for (const arm of i % 2 === 0 ? arms : arms.reverse()) await arm();
      if (pi.cold[i].text === pi.standard[i].text && pi.cold[i].text === pi.zero[i].text) same.pi++;
      else if (process.env.BENCH_DEBUG_TEXT)
        console.log({ cold: pi.cold[i].text, on: pi.standard[i].text, zero: pi.zero[i].text });
      const carms = [
        async () => claude.cold.push(await claudeArm(box, `cc-cold-${i}`, sockets.standard, off)),
        async () => {
          await typeDraft(box, box.env(sockets.standard).AIRLOCK_SOCKET);
          claude.standard.push(await claudeArm(box, `cc-std-${i}`, sockets.standard, {}));
          await typeDraft(box, box.env(sockets.zero).AIRLOCK_SOCKET);
          claude.zero.push(
            await claudeArm(box, `cc-zero-${i}`, sockets.zero, zeroEnv, { hooks: "http", endpoint }),
          );
        },
      ];
      for (const arm of i % 2 === 0 ? carms : carms.reverse()) await arm();
      if (JSON.stringify(claude.cold[i].results) === JSON.stringify(claude.standard[i].results))
        same.claude++;
      if (JSON.stringify(claude.cold[i].results) === JSON.stringify(claude.zero[i].results))
        same.claudeZero++;
      else if (process.env.BENCH_DEBUG_TEXT)
        console.log({ cold: claude.cold[i].results, zero: claude.zero[i].results });
      // The floors: the same agent running a tool call that does nothing (`true`), alone and with Airlock deciding.
      pi.floor.push(
        await piArm(box, `pi-floor-${i}`, sockets.zero, off, { airlock: false, command: "true" }),
      );
      pi.floorAirlock.push(
        await piArm(box, `pi-floor-airlock-${i}`, sockets.zero, { ...zeroEnv, ...off }, { command: "true" }),
      );
      claude.floor.push(
        await claudeArm(box, `cc-floor-${i}`, sockets.zero, off, { hooks: "none", command: "true" }),
      );
      console.log(
        `pair ${i + 1}/${PAIRS}: pi first result ${Math.round(pi.cold[i].firstToolResultMs)} → ${Math.round(pi.standard[i].firstToolResultMs)} ms; tool ${Math.round(pi.cold[i].toolMs)} → ${pi.zero[i].toolMs.toFixed(1)} ms (delay 0; floor ${pi.floor[i].toolMs.toFixed(1)}, with Airlock ${pi.floorAirlock[i].toolMs.toFixed(1)}); claude ${Math.round(claude.cold[i].toolRoundTripMs)} → ${Math.round(claude.standard[i].toolRoundTripMs)} ms, http replay ${claude.zero[i].toolRoundTripMs.toFixed(1)} ms (floor ${claude.floor[i].toolRoundTripMs.toFixed(1)})`,
      );
    }
  } finally {
    await daemons.stop();
    box.cleanup();
  }
  const ms = (runs, key) => runs.map((r) => r[key]);
  return {
    first_tool_result: {
      ...pairedSpeedup(ms(pi.cold, "firstToolResultMs"), ms(pi.standard, "firstToolResultMs")),
      what: "Pi, prompt submitted → first tool result (npm test), default delays (bash 750 ms), silent-futures",
    },
    slow_command: {
      ...pairedSpeedup(ms(pi.cold, "toolMs"), ms(pi.zero, "toolMs")),
      what: "Pi, the npm test tool call itself, cache-invariant delay 0",
      default_delay: {
        ...pairedSpeedup(ms(pi.cold, "toolMs"), ms(pi.standard, "toolMs")),
        what: "the same call with the default 750 ms bash delay (the honest cost)",
      },
      served_tool_ms: summarize(ms(pi.zero, "toolMs")),
    },
    claude_code_bash: {
      ...pairedSpeedup(ms(claude.cold, "toolRoundTripMs"), ms(claude.standard, "toolRoundTripMs")),
      what: "Claude Code, Bash npm test round trip seen by the model (command hooks and the rewritten airlock futures serve included), default delay",
    },
    claude_code_served: {
      ...pairedSpeedup(ms(claude.cold, "toolRoundTripMs"), ms(claude.zero, "toolRoundTripMs")),
      what: "Claude Code, Bash npm test round trip seen by the model, http PreToolUse hook (one request decides, validates and serves) and the shell-only replay, delay 0",
      served_round_trip_ms: summarize(ms(claude.zero, "toolRoundTripMs")),
    },
    // What no serving can go under: the same agent running a tool call that does nothing (`true`).
    floors: {
      pi_alone: summarize(ms(pi.floor, "toolMs")),
      pi_with_airlock_decision: summarize(ms(pi.floorAirlock, "toolMs")),
      claude_code_alone: summarize(ms(claude.floor, "toolRoundTripMs")),
      pi_ceiling: ceiling(ms(pi.cold, "toolMs"), ms(pi.floor, "toolMs")),
      claude_code_ceiling: ceiling(ms(claude.cold, "toolRoundTripMs"), ms(claude.floor, "toolRoundTripMs")),
    },
    identical_tool_results: {
      pi: `${same.pi}/${PAIRS}`,
      claude_code: `${same.claude}/${PAIRS}`,
      claude_code_http_replay: `${same.claudeZero}/${PAIRS}`,
    },
    // Issue 24: no served call slower than its cold run (each on-run against the off-run of its own pair).
    served_slower_than_cold: {
      pi_delay_0: pi.zero.filter((r, i) => r.toolMs > pi.cold[i].toolMs).length,
      pi_default_delay: pi.standard.filter((r, i) => r.toolMs > pi.cold[i].toolMs).length,
      claude_code: claude.standard.filter((r, i) => r.toolRoundTripMs > claude.cold[i].toolRoundTripMs)
        .length,
      claude_code_http_replay: claude.zero.filter(
        (r, i) => r.toolRoundTripMs > claude.cold[i].toolRoundTripMs,
      ).length,
      of: PAIRS,
    },
  };
}

function markdown(report) {
  const r = report.results;
  const ci = (x) =>
    `${x.speedup}× (95% CI ${x.ci95[0]}–${x.ci95[1]}), ${x.baseline_mean_ms} ms → ${x.treated_mean_ms} ms`;
  const lines = [
    "# Precognition benchmark results",
    "",
    `${report.date} — ${report.machine.cpu}, nproc ${report.machine.nproc}, node ${report.machine.node}; 1-minute load ${report.machine.loadavg_1m_before} before, ${report.machine.loadavg_1m_after} after`,
    "",
    report.method,
    "",
    "| target | measured | goal |",
    "|---|---|---|",
  ];
  if (r.first_tool_result) {
    lines.push(`| first tool result (Pi, default delay) | ${ci(r.first_tool_result)} | ≥ 6× |`);
    lines.push(
      `| slow npm test served (Pi, delay 0; one request decides and serves) | ${ci(r.slow_command)} | ≥ 1,000× |`,
    );
    lines.push(`| same, default 750 ms delay (honest cost) | ${ci(r.slow_command.default_delay)} | — |`);
    lines.push(
      `| Claude Code Bash round trip (command hooks, default delay) | ${ci(r.claude_code_bash)} | — |`,
    );
    if (r.claude_code_served)
      lines.push(
        `| slow npm test served (Claude Code, delay 0; http hook decides, validates and serves a shell-only replay) | ${ci(r.claude_code_served)} | ≥ 1,000× |`,
      );
    const f = r.floors;
    if (f) {
      lines.push(
        `| floor: Pi running \`true\` without Airlock (mean / p50) | ${f.pi_alone.mean_ms} / ${f.pi_alone.p50_ms} ms → best possible ${f.pi_ceiling}× | — |`,
        `| floor: Pi running \`true\` with Airlock's decision (mean / p50) | ${f.pi_with_airlock_decision.mean_ms} / ${f.pi_with_airlock_decision.p50_ms} ms | — |`,
        `| floor: Claude Code running \`true\`, no hooks (mean / p50) | ${f.claude_code_alone.mean_ms} / ${f.claude_code_alone.p50_ms} ms → best possible ${f.claude_code_ceiling}× | — |`,
      );
    }
    const slower = r.served_slower_than_cold;
    if (slower)
      lines.push(
        `| served calls slower than the same pair's cold run | Pi ${slower.pi_delay_0}/${slower.of} (delay 0), ${slower.pi_default_delay}/${slower.of} (default delay); Claude Code ${slower.claude_code}/${slower.of} (command hooks), ${slower.claude_code_http_replay ?? "—"}/${slower.of} (http replay) | 0 |`,
      );
  }
  const v = r.validation;
  lines.push(
    `| serve-time validation, ${v.files} files, one edit | p99 ${v.p99_ms} ms (p50 ${v.after_one_edit.p50_ms} ms); full re-hash p50 ${v.full_rehash.p50_ms} ms → ${v.vs_full_rehash}× | p99 ≤ 5 ms, ≥ 50× |`,
  );
  lines.push(
    "",
    "| watcher (20,001-file tree) | setup | event p50 / p99 | sees changes in a re-created directory |",
    "|---|---|---|---|",
  );
  for (const [name, w] of Object.entries(r.watchers)) {
    lines.push(
      `| ${name} | ${w.setup_ms} ms | ${w.event_latency.p50_ms} / ${w.event_latency.p99_ms} ms | ${w.sees_changes_in_recreated_directory ? "yes" : "**no**"} |`,
    );
  }
  lines.push(
    "",
    "## Reading these figures",
    "",
    `- Every speedup is the mean of the off runs over the mean of the on runs of the same pairs; the interval is a`,
    "  percentile bootstrap over pairs. The on-runs warmed during a simulated typing pause that outlasted the suite,",
    "  which is the situation precognition is for; a prompt submitted before the warm finishes gains less (the",
    "  agent's call then waits for the warm still running instead of starting a second run).",
    `- Both agent ratios scale with the cold cost of the first tool: here a ${TEST_SECONDS} s test suite. The served`,
    "  side is nearly constant: the daemon answers a validated future in well under a millisecond (barrier",
    "  included); what remains is the agent's own tool plumbing and Airlock's policy decision for the call, which",
    "  both arms pay. The default 750 ms bash delay is there on purpose (a zero-latency hit changes which tools",
    "  the model reaches for); the delay-0 row is the raw ceiling.",
    "- Claude Code's command-hook row pays two process starts the Pi path does not: the PreToolUse hook and the",
    "  rewritten `airlock futures serve` command. The http row pays neither: the daemon answers the PreToolUse post",
    "  with the decision and the validated future written for a shell-only replay (`mv`, `cat`, `rm` of write-once",
    "  0600 files), so nothing of Airlock starts on the served path.",
    "- The floors are the same agent running a tool call that does nothing (`true`, a shell start included), the",
    "  same way, in the same pairs: what any serving must pay, since the agent's own tool plumbing runs either way.",
    "  The best possible ratio is the cold mean over the floor mean. 1,000× on a 5 s suite needs a served call of",
    "  ≤ 5.5 ms; when the floor is above that, the goal is out of reach for that agent on this machine whatever",
    "  Airlock does, and the row says so.",
    "- Validation is the serve-time check of a fingerprinted command future right after a one-file edit: a sync",
    "  cookie round trip through the watcher plus a version lookup, against walking and hashing the whole causal",
    "  set as the seed does. Its cost does not grow with the tree.",
    "- The machine is a shared 2-vCPU VM used by other builds at the same time (see the load average); tails",
    "  are wider under load.",
    "- Pi's served call is one control request: the `tool_call` gate's decision carries the re-validated future,",
    "  held until the call's execute (valid only if no other writing call of the batch ran since); before issue 24",
    "  it was two (decide, then serve at execute). The served path, piece by piece: `served-path.md`.",
  );
  if (r.identical_tool_results) {
    const same = r.identical_tool_results;
    lines.push(
      "",
      `Tool results identical with and without precognition: Pi ${same.pi}, Claude Code ${same.claude_code} (command hooks)${same.claude_code_http_replay ? `, ${same.claude_code_http_replay} (http replay)` : ""}.${same.why ? ` ${same.why}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const args = new Set(process.argv.slice(2));
if (args.has("--report-only")) {
  // Re-renders results.md from the committed results.json, measuring nothing.
  const saved = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  writeFileSync(join(here, "results.md"), markdown(saved));
  process.exit(0);
}
if (!args.has("--no-build"))
  execFileSync("npm", ["run", "-s", "build:node"], { cwd: root, stdio: "inherit" });
const load0 = loadavg()[0];
const results = {
  validation: await validationBench(dist, VALIDATIONS),
  watchers: await watcherComparison(dist),
  ...(args.has("--no-agents") ? {} : await agentsBench()),
};
const report = {
  benchmark: "precognition: first tool result, slow command served, serve-time validation, watchers",
  date: new Date().toISOString(),
  machine: {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavg_1m_before: Math.round(load0 * 100) / 100,
    loadavg_1m_after: Math.round(loadavg()[0] * 100) / 100,
  },
  method: `Each pair runs the same workload with precognition off (AIRLOCK_PRECOG=0) and on, back to back, order alternating; a causal file is edited before every on-run so it warms afresh, during a simulated typing pause (the draft trigger) that outlasts the ${TEST_SECONDS} s test suite. Pi runs in RPC mode with the Airlock extension; times come from Pi's event stream. Claude Code runs claude -p with the Airlock hooks; times are the model server's (answer sent → tool result received). Speedup = mean(off) / mean(on) with a percentile bootstrap 95% CI over pairs (10,000 resamples). Validation: the serve-time check of a fingerprinted command future (sync-cookie barrier + causal version) right after one file edit, against the seed's method (walk the causal set, sha1 + size + mtime of every file), in the same run.`,
  n: PAIRS,
  first_tool_result: results.first_tool_result ? { speedup: results.first_tool_result.speedup } : undefined,
  slow_command: results.slow_command ? { speedup: results.slow_command.speedup } : undefined,
  validation: { p99_ms: results.validation.p99_ms, vs_full_rehash: results.validation.vs_full_rehash },
  results,
};
writeResults(join(here, "results.json"), report);
writeFileSync(join(here, "results.md"), markdown(report));
console.log(markdown(report));
