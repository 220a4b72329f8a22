// expr (GNU coreutils 9.1): every operand is a string, a number or an operator (`:` takes a basic regular
// expression); it opens no file. Only a lone `--help` or `--version` is an option.
import { GNU_COMMON, type ProgramGrammar } from "../spec.ts";

export const expr: ProgramGrammar = {
  names: ["expr"],
  options: GNU_COMMON,
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};
