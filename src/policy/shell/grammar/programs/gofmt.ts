// gofmt (go 1.22; Go's flag package: options end at the first operand) formats the files it names and the
// .go files below the directories it names (walk-styles.ts GOFMT_WALK), standard input without any. -l
// lists the files whose formatting differs, -d prints their diffs, no flag prints them formatted, -e all
// their errors: reads. -w rewrites them and -cpuprofile writes a file: not understood.
import { listOrWalk } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const gofmt: ProgramGrammar = {
  names: ["gofmt"],
  options: [...["-l", "-d", "-e", "-s", "-h"].map((n) => flag(n)), opt("-r", "pattern")],
  permute: false,
  abbreviate: false,
  operands: ["walk"],
  effect: "read",
  finish(p, out) {
    listOrWalk(p, out, { recursive: true, follow: "all", dflt: null, contents: true });
    return null;
  },
};
