// tee (GNU coreutils 9.1): copies standard input to standard output and to every operand, each a file it
// writes (truncated, or appended with -a). `-` is a file by that name, not standard output.

import { raise } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import { flag, GNU_COMMON, optional, type ProgramGrammar } from "../spec.ts";

export const tee: ProgramGrammar = {
  names: ["tee"],
  options: [
    ...GNU_COMMON,
    ...["-a --append", "-i --ignore-interrupts", "-p"].map((n) => flag(n)),
    optional("--output-error", "string", ["warn", "warn-nopipe", "exit", "exit-nopipe"]),
  ],
  permute: true,
  abbreviate: true,
  operands: ["write"],
  // With no operand it only passes its input on, as cat does.
  effect: "read",
  finish: (p, out) => {
    for (const a of p.operands) if (a.value === "-") out.paths.push(pathEffect("write", a));
    if (p.operands.length > 0) raise(out, "write");
    return null;
  },
  // Its input is the pipeline's, judged there; what it writes is its operands. Text it leaves in a package.json
  // is judged as any shell write's there, on the disk (disk-targets.ts).
  placedOnly: () => true,
};
