// top (procps-ng 4.0.2; getopt_long): prints processes from /proc, as ps does (docs/policy.md, "ps"), and
// reads its own configuration (~/.config/procps/toprc), whose Inspect entries run commands only when a
// person presses Y. So only batch mode (-b) is understood: interactive top takes keys that kill and renice
// processes and write that configuration. `-w`/`--width` takes the next word as its width too (when it
// does not start with `-`); any other operand top refuses.
import type { Arg } from "../../wrappers.ts";
import { flag, opt, optional, type Parsed, type ProgramGrammar } from "../spec.ts";

/** Options that print and exit without the interactive screen. */
const PRINTS_AND_EXITS = ["-b", "-O", "-h", "-V"];

/** An operand top takes as the width of a bare `-w` just before it. */
function isWidth(p: Parsed, a: Arg): boolean {
  const before = p.argv[p.argv.indexOf(a) - 1];
  const bare = p.options.some((o) => o.word === before && o.spec.names.includes("-w") && o.value === null);
  return bare && a.value !== null && /^\d+$/.test(a.value);
}

export const top: ProgramGrammar = {
  names: ["top"],
  options: [
    ...["-b --batch-mode", "-c --cmdline-toggle", "-H --threads-show", "-i --idle-toggle"].map((n) =>
      flag(n),
    ),
    ...["-O --list-fields", "-S --accum-time-toggle", "-s --secure-mode", "-1 --single-cpu-toggle"].map((n) =>
      flag(n),
    ),
    flag("-h --help"),
    flag("-V --version"),
    opt("-d --delay -n --iterations", "number"),
    opt("-E --scale-summary-mem -e --scale-task-mem -o --sort-override -p --pid"),
    opt("-U --filter-any-user -u --filter-only-euser"),
    optional("-w --width", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["number"],
  effect: "read",
  finish(p) {
    const extra = p.operands.find((a) => !isWidth(p, a));
    if (extra !== undefined) return { word: extra.raw, reason: "top takes no operand" };
    if (PRINTS_AND_EXITS.some((n) => p.has(n))) return null;
    return {
      word: "top",
      reason: "interactive top takes keys that kill processes and write its configuration",
    };
  },
};
