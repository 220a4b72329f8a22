// tac (GNU coreutils 9.1): writes its operands' lines last first (standard input when none, `-` too;
// a pipe is first copied to a temporary file of its own). The separator is a string or a regex.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const tac: ProgramGrammar = {
  names: ["tac"],
  options: [...GNU_COMMON, flag("-b --before"), flag("-r --regex"), opt("-s --separator")],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
