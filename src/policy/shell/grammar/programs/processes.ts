// Process and memory listings (procps-ng 4.0.2): pgrep and pidof read /proc and print process ids (with
// pgrep -l/-a names and command lines, which `ps -ef` prints too: ps.ts), vmstat prints /proc's counters.
// Their operands are patterns, names and numbers; pgrep -F reads a pid file. And bash's `kill -l`/`-L`,
// which only lists signal names, and `kill -0 PID…`, which sends no signal: kill(2) with signal 0 only
// reports whether the process exists and may be signalled. Every other kill form sends a signal.
import { flag, opt, type Parsed, type ProgramGrammar } from "../spec.ts";

const VERSION = [flag("-h --help"), flag("-V --version")];

export const pgrep: ProgramGrammar = {
  names: ["pgrep"],
  options: [
    ...VERSION,
    ...[
      "-l --list-name",
      "-a --list-full",
      "-v --inverse",
      "-w --lightweight",
      "-c --count",
      "-f --full",
    ].map((n) => flag(n)),
    ...["-i --ignore-case", "-n --newest", "-o --oldest", "-x --exact", "-L --logpidfile"].map((n) =>
      flag(n),
    ),
    flag("-A --ignore-ancestors"),
    opt("-d --delimiter -g --pgroup -G --group -P --parent -s --session -t --terminal -u --euid -U --uid"),
    opt("-r --runstates --cgroup --ns --nslist -O --older"),
    opt("-F --pidfile", "read"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["pattern"],
  effect: "read",
};

export const pidof: ProgramGrammar = {
  names: ["pidof"],
  options: [
    ...VERSION,
    ...["-s", "-c", "-q", "-w", "-x", "-t", "-n", "-z"].map((n) => flag(n)),
    opt("-o -d -S"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};

export const vmstat: ProgramGrammar = {
  names: ["vmstat"],
  options: [
    ...VERSION,
    ...["-a --active", "-f --forks", "-m --slabs", "-n --one-header", "-s --stats", "-d --disk"].map((n) =>
      flag(n),
    ),
    ...["-D --disk-sum", "-w --wide", "-t --timestamp", "-y --no-first"].map((n) => flag(n)),
    opt("-p --partition -S --unit"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["number"],
  effect: "read",
};

/**
 * `kill -0 PID…` with process ids as written: a job spec (`%1`), a negative id (a process group, or -1 for
 * every process) or a word known only at run time may be read as another signal by the builtin's parser.
 */
function probesOnly(p: Parsed): boolean {
  const [only, ...more] = p.options;
  return (
    more.length === 0 &&
    only?.spec.mode === "signal" &&
    only.value?.value === "0" &&
    p.operands.length > 0 &&
    p.operands.every((a) => a.value !== null && /^[1-9]\d*$/.test(a.value))
  );
}

/** bash's kill builtin in its listing forms (`kill -l [SIGNAL…]`, `kill -L`) and its probe (`kill -0 PID…`). */
export const kill: ProgramGrammar = {
  names: ["kill"],
  options: [flag("-l -L", "list")],
  numeric: { names: ["-SIGNAL"], value: "required", kind: "number", mode: "signal" },
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  finish: (p) => (p.has("list") || probesOnly(p) ? null : { word: p.program, reason: "kill sends a signal" }),
};
