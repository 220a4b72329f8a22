// fold (GNU coreutils 9.1): wraps the lines of its operands (standard input when none, `-` too). The
// obsolete `-NUM` is `-w NUM` (fold's short options include the digits, each taking the rest as more
// digits); a digit inside a cluster (`-s80`) is not modelled, so not understood.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

const WIDTH = opt("-w --width", "number");

export const fold: ProgramGrammar = {
  names: ["fold"],
  options: [...GNU_COMMON, flag("-b --bytes"), flag("-s --spaces"), WIDTH],
  numeric: WIDTH,
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
