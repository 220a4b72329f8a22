// paste (GNU coreutils 9.1): joins the lines of its operands side by side (standard input when none;
// each `-` reads the next line of it). `-d` is a list of delimiter characters, not a file.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const paste: ProgramGrammar = {
  names: ["paste"],
  options: [...GNU_COMMON, opt("-d --delimiters"), flag("-s --serial"), flag("-z --zero-terminated")],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
