// cat (GNU coreutils 9.1): reads every operand (standard input when none).
import { flag, GNU_COMMON, type ProgramGrammar } from "../spec.ts";

export const cat: ProgramGrammar = {
  names: ["cat"],
  options: [
    ...GNU_COMMON,
    ...["-A --show-all", "-b --number-nonblank", "-e", "-E --show-ends", "-n --number"].map((n) => flag(n)),
    ...["-s --squeeze-blank", "-t", "-T --show-tabs", "-u", "-v --show-nonprinting"].map((n) => flag(n)),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
