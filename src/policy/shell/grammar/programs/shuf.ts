// shuf (GNU coreutils 9.1): reads its operand (standard input when none); with -e the operands are the
// lines themselves, and -i makes its own numbers. -o writes the result (after reading all of it),
// --random-source reads its bytes from a file.
import { dropOperands, raise } from "../effects.ts";
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const shuf: ProgramGrammar = {
  names: ["shuf"],
  options: [
    ...GNU_COMMON,
    flag("-e --echo", "echo"),
    flag("-r --repeat"),
    flag("-z --zero-terminated"),
    opt("-i --input-range"),
    opt("-n --head-count", "number"),
    opt("-o --output", "write"),
    opt("--random-source", "read"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    if (p.has("echo")) dropOperands(p, out);
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return null;
  },
};
